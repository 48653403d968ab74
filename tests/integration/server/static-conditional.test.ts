// Static files as browsers, caches and download tools ask for them: If-None-Match with lists,
// `*` and weak comparison, If-Modified-Since, single byte ranges (with If-Range), and brotli or
// gzip as the client accepts, from a `.br` file beside the page when the build left one.
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { testAppOnSiteFiles } from '../../helpers/api.ts';
import { aboutPath } from '../../../core/paths.ts';

const HOME = `<!DOCTYPE html><html><body><h1>Home</h1>${'<p>Personal ads in your city.</p>'.repeat(200)}</body></html>`;
const CITY = `<!DOCTYPE html><html><body><h1>Manchester</h1>${'<p>An ad.</p>'.repeat(300)}</body></html>`;
const BYTES = Buffer.from(Array.from({ length: 256 }, (_, index) => index));
const MODIFIED = new Date('2026-01-15T10:00:00Z');

const t = testAppOnSiteFiles(
  {
    'index.html': HOME,
    'city/New Hampshire/Manchester/index.html': CITY,
    // A sibling the build compressed: different words, so the test can tell it was used.
    'city/New Hampshire/Manchester/index.html.br': brotliCompressSync(
      CITY.replace('An ad.', 'Precompressed.'),
    ),
    'about/index.html': HOME.replace('Home', 'About'),
    'about/index.html.br': brotliCompressSync('stale'),
    'favicon.bin': BYTES,
    'tiny.txt': 'small',
    '404.html': '<!DOCTYPE html><h1>Page Not Found</h1>',
  },
  (dir) => {
    for (const entry of readdirSync(join(dir, 'site'), { recursive: true, withFileTypes: true }))
      if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), MODIFIED, MODIFIED);
    // This sibling is older than its page: the page was rebuilt and the sibling was not.
    const stale = join(dir, 'site', 'about/index.html.br');
    utimesSync(stale, new Date('2025-01-01T00:00:00Z'), new Date('2025-01-01T00:00:00Z'));
  },
);

const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
  Promise.resolve(t.app.request(`http://localhost${path}`, { method, headers }));

async function etagOf(path: string): Promise<string> {
  const etag = (await get(path)).headers.get('etag');
  expect(etag).toMatch(/^W\/"[\w-]+"$/);
  return etag!;
}

describe('If-None-Match', () => {
  it('answers 304 when the list holds the page’s tag (the reproduction)', async () => {
    const etag = await etagOf('/');
    const response = await get('/', { 'If-None-Match': `"x", ${etag}` });
    expect(response.status).toBe(304);
    expect(await response.text()).toBe('');
    expect(response.headers.get('etag')).toBe(etag);
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });

  it('answers 304 to `*` and to the tag without W/ (weak comparison)', async () => {
    const etag = await etagOf('/');
    expect((await get('/', { 'If-None-Match': '*' })).status).toBe(304);
    expect((await get('/', { 'If-None-Match': etag.slice(2) })).status).toBe(304);
    expect((await get('/', { 'If-None-Match': `W/"a",W/"b",${etag}` })).status).toBe(304);
  });

  it('answers 200 with the page when no tag matches', async () => {
    const response = await get('/', { 'If-None-Match': '"x", W/"y"' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(HOME);
  });

  it('wins over If-Modified-Since (a changed tag means a changed page)', async () => {
    const response = await get('/', {
      'If-None-Match': '"old"',
      'If-Modified-Since': MODIFIED.toUTCString(),
    });
    expect(response.status).toBe(200);
  });
});

describe('If-Modified-Since', () => {
  it('answers 304 when the page has not changed since then', async () => {
    const lastModified = (await get('/')).headers.get('last-modified');
    expect(lastModified).toBe(MODIFIED.toUTCString());
    expect((await get('/', { 'If-Modified-Since': lastModified! })).status).toBe(304);
    expect((await get('/', { 'If-Modified-Since': 'Sat, 01 Jan 2030 00:00:00 GMT' })).status).toBe(
      304,
    );
  });

  it('answers 200 when the page changed after that date, or the date is not a date', async () => {
    expect((await get('/', { 'If-Modified-Since': 'Wed, 14 Jan 2026 10:00:00 GMT' })).status).toBe(
      200,
    );
    expect((await get('/', { 'If-Modified-Since': 'yesterday' })).status).toBe(200);
  });
});

describe('Range', () => {
  it('answers one range with 206, Content-Range and those bytes', async () => {
    const response = await get('/favicon.bin', { Range: 'bytes=10-19' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 10-19/256');
    expect(response.headers.get('content-length')).toBe('10');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(BYTES.subarray(10, 20));
  });

  it('serves an open range, a suffix, and an end past the file', async () => {
    const open = await get('/favicon.bin', { Range: 'bytes=250-' });
    expect(open.headers.get('content-range')).toBe('bytes 250-255/256');
    expect(Buffer.from(await open.arrayBuffer())).toEqual(BYTES.subarray(250));
    const suffix = await get('/favicon.bin', { Range: 'bytes=-4' });
    expect(suffix.headers.get('content-range')).toBe('bytes 252-255/256');
    expect(Buffer.from(await suffix.arrayBuffer())).toEqual(BYTES.subarray(252));
    const past = await get('/favicon.bin', { Range: 'bytes=200-999' });
    expect(past.status).toBe(206);
    expect(past.headers.get('content-range')).toBe('bytes 200-255/256');
  });

  it('serves a range of a page’s own bytes, never compressed', async () => {
    const response = await get('/', { Range: 'bytes=0-14', 'Accept-Encoding': 'br, gzip' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.text()).toBe(HOME.slice(0, 15));
  });

  it('answers 416 with the size when the range starts past the end', async () => {
    const response = await get('/favicon.bin', { Range: 'bytes=256-' });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe('bytes */256');
    expect((await get('/favicon.bin', { Range: 'bytes=-0' })).status).toBe(416);
  });

  it('answers several ranges, other units and nonsense with the whole file (200)', async () => {
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-1', 'bytes=abc']) {
      const response = await get('/favicon.bin', { Range: range });
      expect(response.status).toBe(200);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(BYTES);
    }
  });

  it('honours If-Range only when it names the file’s date (our tags are weak)', async () => {
    const etag = await etagOf('/favicon.bin');
    const byDate = await get('/favicon.bin', {
      Range: 'bytes=0-3',
      'If-Range': MODIFIED.toUTCString(),
    });
    expect(byDate.status).toBe(206);
    const byTag = await get('/favicon.bin', { Range: 'bytes=0-3', 'If-Range': etag });
    expect(byTag.status).toBe(200);
    const changed = await get('/favicon.bin', {
      Range: 'bytes=0-3',
      'If-Range': 'Wed, 14 Jan 2026 10:00:00 GMT',
    });
    expect(changed.status).toBe(200);
  });

  it('says ranges are accepted, and ignores Range on a missing page (404)', async () => {
    expect((await get('/favicon.bin')).headers.get('accept-ranges')).toBe('bytes');
    const missing = await get('/nowhere', { Range: 'bytes=0-3' });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Page Not Found');
  });
});

describe('compression', () => {
  it('sends brotli to a client that accepts it, with its length and Vary', async () => {
    const response = await get('/', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('vary')).toBe('Accept-Encoding');
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-length')).toBe(String(body.length));
    expect(body.length).toBeLessThan(HOME.length / 5);
    expect(brotliDecompressSync(body).toString()).toBe(HOME);
    // The second time it comes from memory, the same bytes.
    const again = await get('/', { 'Accept-Encoding': 'br' });
    expect(Buffer.from(await again.arrayBuffer())).toEqual(body);
  });

  it('sends gzip when brotli is refused or not offered', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip', 'gzip;q=1, br;q=0.5']) {
      const response = await get('/', { 'Accept-Encoding': accept });
      expect(response.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(HOME);
    }
  });

  it('sends the file as it is without Accept-Encoding, or for a tiny file', async () => {
    const plain = await get('/');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(await plain.text()).toBe(HOME);
    const tiny = await get('/tiny.txt', { 'Accept-Encoding': 'br' });
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(await tiny.text()).toBe('small');
  });

  it('uses the .br file beside a page, unless it is older than the page', async () => {
    const fresh = await get('/city/New%20Hampshire/Manchester', { 'Accept-Encoding': 'br' });
    expect(fresh.headers.get('content-encoding')).toBe('br');
    const freshBody = brotliDecompressSync(Buffer.from(await fresh.arrayBuffer())).toString();
    expect(freshBody).toContain('Precompressed.');
    const stale = await get(aboutPath(), { 'Accept-Encoding': 'br' });
    expect(stale.headers.get('content-encoding')).toBe('br');
    const staleBody = brotliDecompressSync(Buffer.from(await stale.arrayBuffer())).toString();
    expect(staleBody).toBe(HOME.replace('Home', 'About'));
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const response = await get('/', { 'Accept-Encoding': 'br' }, 'HEAD');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(Number(response.headers.get('content-length'))).toBeGreaterThan(0);
    expect(await response.text()).toBe('');
  });

  it('keeps the same (weak) tag for every encoding, so revalidation works for each', async () => {
    const br = await get('/', { 'Accept-Encoding': 'br' });
    const identity = await get('/');
    expect(br.headers.get('etag')).toBe(identity.headers.get('etag'));
    const revalidated = await get('/', {
      'Accept-Encoding': 'br',
      'If-None-Match': br.headers.get('etag')!,
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('vary')).toBe('Accept-Encoding');
  });
});
