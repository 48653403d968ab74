// City feeds (docs/product.md section 11) of the shipped content's build: every city has one, a
// feed reader reads each (empty and noindex cities too), its entries are the city page's first 30
// ads in the page's order, and the site serves them as Atom with conditional GET.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { staticSite } from '../../../server/http/static-site.ts';
import { readAtom } from '../../helpers/atom-checks.ts';
import { buildSite } from '../../helpers/vite-output.ts';
import { decodeEntities } from '../../helpers/html-text.ts';

let work: string;
let siteDir: string;
const BASE = 'https://localboard.example';

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'localboard-feeds-'));
  buildSite({
    date: '2026-11-22',
    out: join(work, 'out'),
    cache: join(work, 'cache'),
    // The shipped content only, no member ads.
    database: ['--database', join(work, 'no-database.sqlite')],
  });
  siteDir = join(work, 'out', 'site');
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every city folder of the site: `city/{state}/{city}`. */
function cityFolders(): string[] {
  const cities = join(siteDir, 'city');
  return readdirSync(cities).flatMap((state) =>
    readdirSync(join(cities, state)).map((city) => join('city', state, city)),
  );
}

/** The ad cards of a city page as a visitor sees them: title and absolute link, in order. */
const cardsOf = (html: string) =>
  // The card titles' class tells the ads' links from the page's others (locating, not checking).
  [...html.matchAll(/<h2 class="ad-card__title"[^>]*><a href="([^"]+)">([^<]*)<\/a>/g)].map(
    (match) => ({ link: `${BASE}${decodeEntities(match[1]!)}`, title: decodeEntities(match[2]!) }),
  );

describe('city feeds of the shipped content', () => {
  test('every city has a feed a reader parses, with the first 30 ads of its page in order', () => {
    const started = performance.now();
    const folders = cityFolders();
    expect(folders.length).toBeGreaterThan(16_000);
    let withAds = 0;
    let entries = 0;
    for (const folder of folders) {
      const page = readFileSync(join(siteDir, folder, 'index.html'), 'utf8');
      const feed = readAtom(readFileSync(join(siteDir, folder, 'feed.xml'), 'utf8'));
      const cityUrl = `${BASE}/${folder.split('/').map(encodeURIComponent).join('/')}`;
      expect(feed.alternate).toBe(cityUrl);
      expect(feed.self).toBe(`${cityUrl}/feed.xml`);
      expect(feed.id).toBe(feed.self);
      const cards = cardsOf(page);
      expect(feed.entries.map(({ title, link }) => ({ link, title }))).toEqual(cards);
      const announced =
        /<link rel="alternate" type="application\/atom\+xml" title="([^"]*)" href="([^"]*)"\/>/.exec(
          page,
        );
      expect(announced && decodeEntities(announced[1]!)).toBe(`New ads in ${folder.split('/')[2]}`);
      expect(announced && `${BASE}${decodeEntities(announced[2]!)}`).toBe(feed.self);
      expect(page).toContain(`<a class="feed-link" href="${announced?.[2]}"`);
      if (cards.length === 0) {
        // Empty (and noindex) cities: a valid feed, dated on a fixed day.
        expect(page).toContain('<meta name="robots" content="noindex, follow"/>');
        expect(feed.updated).toBe('2000-01-01T00:00:00Z');
        continue;
      }
      withAds += 1;
      entries += feed.entries.length;
      expect(feed.entries.length).toBeLessThanOrEqual(30);
      expect(feed.updated).toBe(
        feed.entries
          .map((entry) => entry.updated)
          .sort()
          .at(-1),
      );
      for (const entry of feed.entries) {
        expect(entry.id).toBe(entry.link);
        expect(entry.summary.length).toBeLessThanOrEqual(300 + 'Sample ad. '.length + 1);
        expect(entry.summary).not.toMatch(/@[a-z0-9-]+\.[a-z]/i);
        expect(entry.category).toBe(`${folder.split('/')[2]}, ${folder.split('/')[1]}`);
      }
    }
    expect(withAds).toBeGreaterThan(20);
    expect(entries).toBeGreaterThan(200);
    console.log(
      `Read ${folders.length} city feeds (${withAds} with ads, ${entries} entries) in ${Math.round(performance.now() - started)} ms`,
    );
  });

  test('a city with more than 30 ads has its first page of 30 in its feed, no more', () => {
    const biggest = cityFolders()
      .map((folder) => ({
        folder,
        pages: readdirSync(join(siteDir, folder)).includes('page'),
      }))
      .find((city) => city.pages);
    // Los Angeles, New York City and Miami have more than one page of ads.
    expect(biggest).toBeDefined();
    const feed = readAtom(readFileSync(join(siteDir, biggest!.folder, 'feed.xml'), 'utf8'));
    expect(feed.entries).toHaveLength(30);
  });

  test('the site serves a feed as Atom, then answers 304 to If-None-Match and If-Modified-Since', async () => {
    const app = new Hono().use(staticSite(siteDir));
    const url = 'http://localhost/city/California/Los%20Angeles/feed.xml';
    const first = await app.request(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('Content-Type')).toBe('application/atom+xml; charset=utf-8');
    expect(first.headers.get('Cache-Control')).toBe('public, max-age=300');
    const etag = first.headers.get('ETag')!;
    const lastModified = first.headers.get('Last-Modified')!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(readAtom(await first.text()).entries.length).toBeGreaterThan(0);

    const again = await app.request(url, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const since = await app.request(url, { headers: { 'If-Modified-Since': lastModified } });
    expect(since.status).toBe(304);

    // An empty city's feed is served the same way; an unknown city has none.
    const empty = await app.request("http://localhost/city/Florida/Hill%20'n%20Dale/feed.xml");
    expect(empty.status).toBe(200);
    expect(empty.headers.get('Content-Type')).toBe('application/atom+xml; charset=utf-8');
    expect(readAtom(await empty.text()).entries).toEqual([]);
    const unknown = await app.request('http://localhost/city/Vermont/Nowhere%20At%20All/feed.xml');
    expect(unknown.status).toBe(404);
  });
});
