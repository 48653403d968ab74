// The search index can't drift from the site: for a set of searches, what the index finds (every
// page of it) is exactly what a brute-force filter over the compiled ads finds, in the same order
// when newest first (no words, or asked for).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { searchIndex, type SearchIndex } from '../../../search/search-index.ts';
import type { CompiledAd } from '../../../core/content/index.ts';
import { parseSearchQuery, type SearchFilters } from '../../../core/search-query.ts';
import { publishMemberAd, searchFixtureForFile } from '../../helpers/search-fixture.ts';

const fixture = searchFixtureForFile();
let index: SearchIndex;

beforeAll(async () => {
  await publishMemberAd(fixture, {
    state: 'California',
    city: 'Los Angeles',
    age: 33,
    seeks: 'w4m',
    title: 'Chess in the park, then coffee',
    description: 'Weekends are for jazz and chess. Say hello.',
    postedOn: '2026-11-21',
    expiresOn: '2026-12-21',
  });
  index = searchIndex();
});
afterAll(() => index.close());

/** Lower-case words of a text, a plural's final s dropped (close enough to Porter for these words). */
const tokens = (text: string) =>
  new Set(
    (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((word) =>
      word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word,
    ),
  );

function bruteForce(ads: readonly CompiledAd[], filters: SearchFilters, buildDate: string) {
  const since = new Date(`${buildDate}T00:00:00Z`);
  since.setUTCDate(since.getUTCDate() - ((filters.within ?? 1) - 1));
  const sinceDay = since.toISOString().slice(0, 10);
  return ads.filter((ad) => {
    if (filters.state && ad.state !== filters.state) return false;
    if (filters.city && ad.city !== filters.city) return false;
    if (filters.seeks && ad.seeks !== filters.seeks) return false;
    if (filters.minAge !== undefined && ad.age < filters.minAge) return false;
    if (filters.maxAge !== undefined && ad.age > filters.maxAge) return false;
    if (filters.within !== undefined && ad.postedAt < sinceDay) return false;
    const words = tokens(`${ad.title} ${ad.description}`);
    return [...tokens(filters.words.join(' '))].every((word) => words.has(word));
  });
}

const SEARCHES = [
  '',
  'q=chess',
  'q=jazz+coffee',
  'q=Hello',
  'q=weekends&state=California',
  'q=chess&state=California&city=Los+Angeles',
  'seeks=w4m',
  'seeks=m4w&minAge=30&maxAge=45',
  'minAge=60',
  'maxAge=25&within=30',
  'within=1',
  'within=7&state=Florida',
  'q=coffee&within=7&seeks=w4w',
  'q=nothingmatchesthis',
  'state=Texas',
  // Age ranges are whole fives and single ages in the index: ends on and off a five.
  'minAge=20&maxAge=24',
  'minAge=21&maxAge=21',
  'minAge=18&maxAge=99&seeks=m4m',
  'state=California&seeks=w4m&minAge=25&maxAge=39&within=30',
  'q=fan&state=New+York&city=New+York+City&minAge=19&maxAge=60',
  // Newest first with words: the order too is the brute force's.
  'q=hello&sort=newest',
  'q=weekends&state=California&sort=newest',
  'q=fan&minAge=23&maxAge=41&sort=newest',
  'q=evenings&within=7&sort=newest',
];

test.each(SEARCHES)('"%s": the index finds what a filter over the compiled ads finds', (query) => {
  const parsed = parseSearchQuery(Object.fromEntries(new URLSearchParams(query)));
  if (!parsed.ok) throw new Error(`refused: ${JSON.stringify(parsed.fieldErrors)}`);
  const expected = bruteForce(fixture.compiledAds(), parsed.filters, index.buildDate()!);
  const found: CompiledAd[] = [];
  for (let page = 1; ; page += 1) {
    const { total, ads } = index.search({ ...parsed.filters, page });
    expect(total).toBe(expected.length);
    found.push(...ads);
    if (ads.length === 0 || found.length >= total) break;
  }
  expect(found.map((ad) => ad.id).sort((a, b) => a - b)).toEqual(
    expected.map((ad) => ad.id).sort((a, b) => a - b),
  );
  // The ads are the site's, whole.
  const byId = new Map(expected.map((ad) => [ad.id, ad]));
  for (const ad of found) expect(ad).toEqual(byId.get(ad.id));
  if (parsed.filters.words.length === 0 || parsed.filters.sort === 'newest') {
    const newest = [...expected].sort((a, b) =>
      a.postedAt < b.postedAt ? 1 : a.postedAt > b.postedAt ? -1 : b.id - a.id,
    );
    expect(found.map((ad) => ad.id)).toEqual(newest.map((ad) => ad.id));
  }
});

test('the searches above are not trivial: most find some ads, none finds every ad', () => {
  const all = fixture.compiledAds().length;
  const sizes = SEARCHES.slice(1).map((query) => {
    const parsed = parseSearchQuery(Object.fromEntries(new URLSearchParams(query)));
    return parsed.ok ? index.search(parsed.filters).total : -1;
  });
  expect(sizes.filter((size) => size > 0).length).toBeGreaterThanOrEqual(SEARCHES.length - 3);
  for (const size of sizes) expect(size).toBeLessThan(all);
});

test('best match puts the ads with the word in their title before those with it only in their text', () => {
  const { ads, order, total } = index.search({ words: ['jazz'], page: 1 });
  expect(order).toBe('match');
  const inTitle = (ad: CompiledAd) => /jazz/i.test(ad.title);
  const firstWithout = ads.findIndex((ad) => !inTitle(ad));
  expect(firstWithout).toBeGreaterThan(0);
  expect(ads.slice(firstWithout).some(inTitle)).toBe(false);
  expect(total).toBeGreaterThan(firstWithout);
});

test("more matches than are counted: newest first, exactly the brute force's first page, and said so", () => {
  const small = searchIndex(undefined, { countedMax: 20 });
  try {
    const filters: SearchFilters = { words: ['hello'], page: 1 };
    const expected = bruteForce(fixture.compiledAds(), filters, index.buildDate()!);
    expect(expected.length).toBeGreaterThan(30);
    const first = small.search(filters);
    expect(first).toMatchObject({ total: 20, more: true, order: 'newest', matchUnavailable: true });
    const newest = [...expected].sort((a, b) =>
      a.postedAt < b.postedAt ? 1 : a.postedAt > b.postedAt ? -1 : b.id - a.id,
    );
    expect(first.ads.map((ad) => ad.id)).toEqual(newest.slice(0, 30).map((ad) => ad.id));
    // Asked for newest first, nothing is unavailable; a few matches are ranked.
    expect(small.search({ ...filters, sort: 'newest' }).matchUnavailable).toBe(false);
    expect(small.search({ words: ['barometer'], page: 1 }).order).toBe('match');
  } finally {
    small.close();
  }
});
