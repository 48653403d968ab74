// GET /readyz/search (server/operations/endpoints.ts) and /search on an instance whose search
// index is not there yet: a new instance with SITE_BUCKET makes it after it is ready
// (server/publishing/site-bucket/runtime-follower.ts), and haproxy sends /search only to the
// instances whose /readyz/search answers 200 (server/operations/haproxy-config.ts).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ORIGIN, testAppsForEachTest } from '../../helpers/api.ts';
import { searchFixtureForFile } from '../../helpers/search-fixture.ts';
import { searchIndex } from '../../../search/search-index.ts';

const fixture = searchFixtureForFile();
const apps = testAppsForEachTest();

async function get(app: { request: (url: string) => Response | Promise<Response> }, path: string) {
  const response = await app.request(`${ORIGIN}${path}`);
  return { status: response.status, text: await response.text() };
}

describe('an instance whose search index is being made', () => {
  it('is ready, but not for searches: /readyz/search and /search answer 503 with the reason', async () => {
    const t = await apps.open({
      siteInBucket: true,
      searchIndex: searchIndex(() => join(fixture.compiledDir, 'not-made-yet.sqlite')),
    });
    expect(await get(t.app, '/readyz')).toMatchObject({ status: 200, text: 'ready\n' });
    expect(await get(t.app, '/readyz/search')).toEqual({
      status: 503,
      text: 'not ready: the search index is being made\n',
    });
    const page = await get(t.app, '/search?q=hiking');
    expect(page.status).toBe(503);
    expect(page.text).toContain(
      'Search is not available on this server yet: its index is being made. Try again in a minute.',
    );
    // A feed reader: the reason in plain text, and when to come back.
    const feed = await t.app.request(`${ORIGIN}/search/feed.xml?q=hiking`);
    expect(feed.status).toBe(503);
    expect(feed.headers.get('Retry-After')).toBe('60');
    expect(feed.headers.get('Content-Type')).toMatch(/^text\/plain/);
    expect(await feed.text()).toBe('Search is not available yet: the site is being built.');
  });

  it('answers 200 to /readyz/search once its index is there', async () => {
    expect(await get(fixture.app, '/readyz/search')).toEqual({ status: 200, text: 'ready\n' });
    expect((await get(fixture.app, '/search?q=hiking')).status).toBe(200);
  });
});
