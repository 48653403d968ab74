// Search feeds (docs/product.md section 11): /search/feed.xml with the query string of /search, on
// compiled fixture content: a feed reader reads each feed of a sample of searches, its entries are
// the search's newest 30 results as /search shows them, conditional GET answers 304, bad queries
// 400 with a plain message, and a title with markup comes out escaped and reads back equal.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import { readAtom } from '../../helpers/atom-checks.ts';
import { linkByText } from '../../helpers/pages.ts';
import { publishMemberAd, searchFixtureForFile } from '../../helpers/search-fixture.ts';
import { TEST_MAIL_SITE } from '../../helpers/mail.ts';

const fixture = searchFixtureForFile();
const MARKUP_TITLE = `<script>alert("x")</script> & "friends" for sailing`;

beforeAll(async () => {
  await publishMemberAd(fixture, {
    state: 'Florida',
    city: 'Miami',
    age: 41,
    seeks: 'm4w',
    title: MARKUP_TITLE,
    description: 'Sailing on Sundays & barbecues <b>after</b>.',
    expiresOn: '2026-12-21',
  });
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fixture.app.request(`http://localhost${path}`, { headers });

/** The ad links of a /search page, absolute, in order. */
async function searchPageLinks(query: string): Promise<string[]> {
  const html = await (await get(`/search?${query}`)).text();
  // The card titles' class tells the ads' links from the page's others (locating, not checking).
  return [...html.matchAll(/<h2 class="ad-card__title"[^>]*><a href="([^"]+)">/g)].map(
    (match) => `${TEST_MAIL_SITE.baseUrl}${match[1]!.replace(/&#x27;/g, "'")}`,
  );
}

const SEARCHES = [
  '',
  'q=chess',
  'q=hiking&sort=match',
  'state=California',
  'state=California&city=Los%20Angeles',
  'seeks=w4w&minAge=30&maxAge=60',
  'within=7',
  'q=coffee&state=New%20York&within=30',
  'q=barometer',
  'q=nothingmatchesthis',
];

describe('/search/feed.xml', () => {
  test.each(SEARCHES)('?%s: a reader reads the newest 30 results of /search', async (query) => {
    const response = await get(`/search/feed.xml?${query}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/atom+xml; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=300');
    const feed = readAtom(await response.text());
    // The same search, newest first, as /search shows it.
    const params = new URLSearchParams(query);
    params.set('sort', 'newest');
    const links = await searchPageLinks(params.toString());
    expect(feed.entries.map((entry) => entry.link)).toEqual(links);
    expect(feed.entries.length).toBeLessThanOrEqual(30);
    if (query === '') expect(feed.entries).toHaveLength(30);
    if (query === 'q=nothingmatchesthis') expect(feed.entries).toEqual([]);
    expect(feed.self.startsWith(`${TEST_MAIL_SITE.baseUrl}/search/feed.xml`)).toBe(true);
    expect(feed.alternate.startsWith(`${TEST_MAIL_SITE.baseUrl}/search`)).toBe(true);
  });

  test('the /search page announces and links the feed of its search', async () => {
    const html = await (await get('/search?q=chess&state=California&sort=match')).text();
    expect(html).toContain(
      '<link rel="alternate" type="application/atom+xml" title="New ads for this search" href="/search/feed.xml?q=chess&amp;state=California"/>',
    );
    expect(linkByText(html, 'Feed of new ads')).toBe('/search/feed.xml?q=chess&state=California');
    expect(html).toMatch(/<a [^>]*href="\/search\/feed\.xml[^"]*" type="application\/atom\+xml">/);
    // A refused search has no feed to announce.
    const refused = await (await get('/search?minAge=12')).text();
    expect(refused).not.toContain('application/atom+xml');
  });

  test('a title with markup comes out escaped and reads back equal', async () => {
    const response = await get('/search/feed.xml?state=Florida&city=Miami');
    const xml = await response.text();
    expect(xml).not.toContain('<script>');
    expect(xml).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;');
    const feed = readAtom(xml);
    const entry = feed.entries.find((candidate) => candidate.title === MARKUP_TITLE);
    expect(entry?.summary).toBe('Sailing on Sundays & barbecues <b>after</b>.');
    expect(entry?.category).toBe('Miami, Florida');
    expect(feed.title).toBe('New ads: in Miami, Florida - Localboard');
  });

  test('is sent compressed as the reader accepts (brotli, else gzip), the same feed', async () => {
    const plain = await get('/search/feed.xml?state=California');
    expect(plain.headers.get('Content-Encoding')).toBeNull();
    const xml = await plain.text();
    expect(xml.length).toBeGreaterThan(1024);
    const decode = { br: brotliDecompressSync, gzip: gunzipSync } as const;
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
    ] as const) {
      // Twice: made once, then from memory.
      for (let round = 0; round < 2; round++) {
        const response = await get('/search/feed.xml?state=California', {
          'Accept-Encoding': accept,
        });
        expect(response.status).toBe(200);
        expect(response.headers.get('Content-Encoding')).toBe(encoding);
        expect(response.headers.get('Vary')).toBe('Accept-Encoding');
        expect(response.headers.get('ETag')).toBe(plain.headers.get('ETag'));
        const body = Buffer.from(await response.arrayBuffer());
        expect(Number(response.headers.get('Content-Length'))).toBe(body.length);
        expect(body.length).toBeLessThan(xml.length / 2);
        expect(decode[encoding](body).toString('utf8')).toBe(xml);
      }
    }
  });

  test('answers 304 to If-None-Match and If-Modified-Since, and 200 when the entries changed', async () => {
    const path = '/search/feed.xml?state=California&seeks=w4m';
    const first = await get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('ETag')!;
    const lastModified = first.headers.get('Last-Modified')!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(new Date(lastModified).toISOString().endsWith('T00:00:00.000Z')).toBe(true);

    const again = await get(path, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await get(path, { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await get(path, { 'If-None-Match': '"something-else"' })).status).toBe(200);

    // A new ad that matches: a new tag, the feed again.
    await publishMemberAd(fixture, {
      state: 'California',
      city: 'San Diego',
      age: 29,
      seeks: 'w4m',
      title: 'Tide pools at dawn',
      description: 'Early walks by the water.',
      expiresOn: '2026-12-21',
    });
    const changed = await get(path, { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('ETag')).not.toBe(etag);
    expect(readAtom(await changed.text()).entries[0]?.title).toBe('Tide pools at dawn');
  });

  test.each([
    ['minAge=12', 'Enter an age from 18 to 99.'],
    ['state=Atlantis', 'Choose a state from the list.'],
    ['within=5', 'Choose 1, 7 or 30 days, or any time.'],
    ['q=' + 'x'.repeat(201), 'Search for at most 200 characters'],
    ['city=Miami', 'Choose the state of this city too.'],
    ['q=%22%29%28', 'Search for words made of letters or numbers'],
  ])('?%s answers 400 with a plain message', async (query, message) => {
    const response = await get(`/search/feed.xml?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/plain/);
    expect(await response.text()).toContain(message);
  });
});
