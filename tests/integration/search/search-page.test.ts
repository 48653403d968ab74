// /search (docs/product.md section 9) on compiled fixture content: the page the server renders from
// the search index the compile step wrote, with filters, pagination, and refused parameters.
import { describe, expect, test } from 'vitest';
import { searchIndex } from '../../../search/search-index.ts';
import { openTestApp } from '../../helpers/api.ts';
import { insertMemberAd, setMemberAdStatus } from '../../helpers/member-ads.ts';
import { formOf } from '../../helpers/pages.ts';
import { editLiveAd } from '../../helpers/posting.ts';
import { searchFixtureForFile, searchResults } from '../../helpers/search-fixture.ts';
import { searchPath } from '../../../core/paths.ts';

const fixture = searchFixtureForFile();

const search = (query: string) => searchResults(fixture, query);

describe('/search', () => {
  test('is rendered on request, noindex, with the form and the newest ads first', async () => {
    const { status, html, ids, count } = await search('');
    expect(status).toBe(200);
    expect(html).toContain('<meta name="robots" content="noindex, follow"');
    expect(formOf(html, searchPath())?.attributes.method).toBe('get');
    const all = fixture.compiledAds();
    expect(count).toBe(all.length);
    expect(ids).toHaveLength(30);
    const newest = [...all].sort((a, b) =>
      a.postedAt < b.postedAt ? 1 : a.postedAt > b.postedAt ? -1 : b.id - a.id,
    );
    expect(ids).toEqual(newest.slice(0, 30).map((ad) => ad.id));
  });

  test('a word finds the one ad that has it, stemmed ("barometer")', async () => {
    const { ids, count } = await search('q=barometer');
    expect(ids).toEqual([5041]);
    expect(count).toBe(1);
  });

  test('each filter narrows the results to ads that match it', async () => {
    const all = fixture.compiledAds();
    const cases: [string, (ad: (typeof all)[number]) => boolean][] = [
      ['state=California', (ad) => ad.state === 'California'],
      ['state=California&city=san+diego', (ad) => ad.city === 'San Diego'],
      ['seeks=w4w', (ad) => ad.seeks === 'w4w'],
      ['minAge=30&maxAge=40', (ad) => ad.age >= 30 && ad.age <= 40],
      ['within=1', (ad) => ad.postedAt === '2026-11-22'],
      ['within=7', (ad) => ad.postedAt >= '2026-11-16'],
      ['q=chess&seeks=m4w', (ad) => /chess/i.test(ad.title + ad.description) && ad.seeks === 'm4w'],
    ];
    for (const [query, matches] of cases) {
      const expected = all.filter(matches);
      const { status, count, ids } = await search(query);
      expect(status, query).toBe(200);
      expect(count, query).toBe(expected.length);
      expect(expected.length, query).toBeLessThan(all.length);
      expect(expected.length, query).toBeGreaterThan(0);
      const expectedIds = new Set(expected.map((ad) => ad.id));
      for (const id of ids) expect(expectedIds.has(id), `${query}: ${id}`).toBe(true);
    }
  });

  test('30 a page, with links to the next and previous pages keeping the filters', async () => {
    const first = await search('q=fan&seeks=w4m');
    expect(first.count).toBeGreaterThan(0);
    expect(first.count).toBeLessThanOrEqual(30);
    expect(first.html).not.toContain('rel="next"');

    const many = await search('q=fan');
    const total = many.count!;
    expect(total).toBeGreaterThan(90);
    expect(total).toBeLessThanOrEqual(120);
    expect(many.ids).toHaveLength(30);
    expect(many.html).toContain('Page 1 of 4');
    expect(many.html).toContain('href="/search?q=fan&amp;page=2" rel="next"');
    const seen = new Set(many.ids);
    for (const page of [2, 3, 4]) {
      const next = await search(`q=fan&page=${page}`);
      expect(next.status).toBe(200);
      expect(next.html).toContain(`Page ${page} of 4`);
      const previous = page === 2 ? '/search?q=fan' : `/search?q=fan&amp;page=${page - 1}`;
      expect(next.html).toContain(`href="${previous}" rel="prev"`);
      expect(next.ids).toHaveLength(page === 4 ? total - 90 : 30);
      for (const id of next.ids) expect(seen.has(id), `page ${page}: ${id}`).toBe(false);
      for (const id of next.ids) seen.add(id);
    }
    expect(seen.size).toBe(total);
  });

  test('a member ad is found once published, and not once removed and published again', async () => {
    const id = await insertMemberAd(fixture, {
      state: 'Florida',
      city: 'Miami',
      title: 'Heliography partner wanted on the bay',
      description: 'Early mornings on the water, then breakfast. Say hello.',
      postedOn: '2026-11-22',
      expiresOn: '2026-12-22',
    });
    expect((await search('q=heliography')).ids).toEqual([]);
    await fixture.publish();
    expect((await search('q=heliography')).ids).toEqual([id]);
    expect((await search('q=heliography&state=Florida&city=Miami')).ids).toEqual([id]);
    // Edited, and the edit approved: the old words leave with the old text.
    await editLiveAd(fixture, id, { title: 'Zephyrology partner wanted on the bay' });
    const { revision } = (await fixture.store.memberAds.find(id))!;
    const at = new Date().toISOString();
    expect(await fixture.store.moderation.approveEdit(id, revision, at)).toBe(true);
    await fixture.publish();
    expect((await search('q=heliography')).ids).toEqual([]);
    expect((await search('q=zephyrology')).ids).toEqual([id]);
    await setMemberAdStatus(fixture, id, 'removed');
    await fixture.publish();
    expect((await search('q=zephyrology')).ids).toEqual([]);
    const after = await search('q=heliography');
    expect(after.ids).toEqual([]);
    expect(after.html).toContain('No ads match this search');
  });
});

describe('/search orders by best match with words, or newest first', () => {
  test('words: best match first by default, the choice of order offered; newest first on asking', async () => {
    const best = await search('q=jazz');
    expect(best.html).toContain('Best match first');
    expect(best.html).toMatch(/<select name="sort" id="search-sort">/);
    const newest = await search('q=jazz&sort=newest');
    expect(newest.html).toContain('Newest first');
    const expected = fixture
      .compiledAds()
      .filter((ad) => /jazz/i.test(`${ad.title} ${ad.description}`))
      .sort((a, b) => (a.postedAt < b.postedAt ? 1 : a.postedAt > b.postedAt ? -1 : b.id - a.id));
    expect(newest.ids).toEqual(expected.slice(0, 30).map((ad) => ad.id));
    expect(new Set(best.ids)).toEqual(new Set(newest.ids));
    expect(best.ids).not.toEqual(newest.ids);
  });

  test('no words: newest first, and no choice of order (best match needs words)', async () => {
    const { html } = await search('state=California');
    expect(html).toContain('Newest first');
    expect(html).not.toContain('name="sort"');
  });

  test('more matches than can be ranked: newest first, and the page says why', async () => {
    const index = searchIndex(undefined, { countedMax: 20 });
    // A second app on the fixture's database, whose search ranks at most 20 matches.
    const ranksTwenty = await openTestApp(fixture.dir, { searchIndex: index });
    try {
      const response = await ranksTwenty.app.request('http://localhost/search?q=hello');
      const html = await response.text();
      expect(response.status).toBe(200);
      expect(html).toContain('<strong>More than 20 ads</strong>');
      expect(html).toContain('Newest first');
      expect(html).toContain(
        'Best match ranks searches with up to 20 results, and more ads than that match: these are the newest first.',
      );
    } finally {
      ranksTwenty.close();
      index.close();
    }
  });
});

describe('/search refuses bad parameters with the form and a message beside the field', () => {
  const table: [string, string, string][] = [
    ['minAge=12', 'minAge', 'Enter an age from 18 to 99.'],
    ['maxAge=120', 'maxAge', 'Enter an age from 18 to 99.'],
    ['minAge=abc', 'minAge', 'Enter an age as a whole number.'],
    ['minAge=40&maxAge=30', 'maxAge', 'The highest age must be at least the lowest (40).'],
    ['state=Atlantis', 'state', 'Choose a state from the list.'],
    ['state=Ohio&city=Los+Angeles', 'city', 'Ohio has no city named “Los Angeles” on this site.'],
    ['city=Miami', 'city', 'Choose the state of this city too.'],
    ['seeks=x4y', 'seeks', 'Choose one of the options.'],
    ['within=5', 'within', 'Choose 1, 7 or 30 days, or any time.'],
    ['page=0', 'page', 'Pages are numbered from 1.'],
    ['q=chess&sort=oldest', 'sort', 'Choose best match or newest first.'],
    ['page=99', 'page', 'There are only 4 pages of results for this search.'],
    [`q=${'a'.repeat(10_000)}`, 'q', 'Search for at most 200 characters (this is 10000).'],
    [
      'q=%22%2A%28',
      'q',
      'Search for words made of letters or numbers (punctuation alone finds nothing).',
    ],
  ];
  test.each(table)('%s', async (query, field, message) => {
    const { status, html, ids } = await search(query);
    expect(status).toBe(400);
    expect(html).toContain(message.replace(/“|”/g, (quote) => quote));
    if (field !== 'page') expect(html).toContain(`id="search-${field}-error"`);
    expect(formOf(html, searchPath())).toBeDefined();
    expect(ids).toEqual([]);
  });

  test('FTS syntax is searched as plain words, never an error', async () => {
    for (const q of [
      '"unbalanced',
      'NEAR(hiking',
      'hik*',
      'AND OR NOT',
      'coffee" OR "jazz',
      '^chess',
      'title:chess',
      // Letters newer than SQLite's Unicode tables (Toto, Unicode 14) and combining marks.
      'ab\u{1E290}cd',
      'cafe\u0301 chess',
    ]) {
      const { status, html } = await search(`q=${encodeURIComponent(q)}`);
      expect(status, q).toBe(200);
      expect(html, q).toMatch(/No ads match this search|<strong>[\d,]+ ads?<\/strong>/);
    }
    // Each word must match: "coffee" OR "jazz" is the three words coffee, or, jazz.
    expect((await search('q=title%3Achess')).html).toContain('No ads match this search');
    expect((await search('q=chess')).count).toBeGreaterThan(0);
  });
});
