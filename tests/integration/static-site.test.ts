// The server's static side against a small site folder: files, cache headers, revalidation,
// compression, the specific not-found screens, and paths that try to leave the folder.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { testAppOnSiteFiles } from '../helpers/api.ts';

const page = (heading: string) =>
  `<!DOCTYPE html><html><body><h1>${heading}</h1>${'<p>filler text for compression</p>'.repeat(40)}</body></html>`;

const t = testAppOnSiteFiles(
  {
    'index.html': page('Home'),
    'state/New Hampshire/index.html': page('Find Personals in New Hampshire'),
    'city/New Hampshire/Manchester/index.html': page('Manchester, New Hampshire'),
    'assets/static/site.abc123.css': 'body{color:#123}',
    'robots.txt': 'User-agent: *\n',
    '404.html': page('Page Not Found'),
    '_not-found/state.html': page('State not found'),
    '_not-found/city.html': page('City not found'),
    '_not-found/ad.html': page('Ad not found'),
  },
  (dir) => writeFileSync(join(dir, 'secret.txt'), 'outside the site'),
);

const get = (path: string, headers: Record<string, string> = {}) =>
  t.app.request(`http://localhost${path}`, { headers });

describe('static site', () => {
  test('serves pages by their encoded URL from decoded folder names', async () => {
    const response = await get('/state/New%20Hampshire');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('Find Personals in New Hampshire');
    expect((await get('/state/New%20Hampshire/')).status).toBe(200);
  });

  test('pages are revalidated with an ETag; hashed assets are immutable', async () => {
    const first = await get('/');
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    expect((await get('/', { 'If-None-Match': etag })).status).toBe(304);
    const css = await get('/assets/static/site.abc123.css');
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  test('compresses for clients that accept gzip', async () => {
    const response = await get('/', { 'Accept-Encoding': 'gzip' });
    expect(response.headers.get('content-encoding')).toBe('gzip');
  });

  test.each([
    ['/state/Atlantis', 'State not found'],
    ['/city/Atlantis/Springfield', 'State not found'],
    ['/city/New%20Hampshire/Atlantis', 'City not found'],
    ['/city/New%20Hampshire/Manchester/ad/99', 'Ad not found'],
    ['/city/New%20Hampshire/Manchester/page/9', 'Page Not Found'],
    ['/nowhere', 'Page Not Found'],
    ['/%E0%A4%A', 'Page Not Found'],
  ])('%s answers 404 with %s', async (path, heading) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(`<h1>${heading}</h1>`);
  });

  test.each([
    '/../secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/state/..%2F..%2Fsecret.txt',
    '/%00',
  ])('%s cannot leave the site folder', async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('outside the site');
  });
});
