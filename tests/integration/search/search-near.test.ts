// Search by distance (docs/product.md section 9): /search?near=State/City&within=MILES on compiled
// fixture content with ads around Portland, Oregon (and across the Columbia in Vancouver,
// Washington), as a plain GET: exactly the ads of the cities within the distance, nearest city
// first and each city's newest first, each with "N mi away"; ambiguous and unknown city names
// answered with the cities to choose from; the feed and a saved search of the same radius.
import { stringify } from 'csv-stringify/sync';
import { beforeAll, describe, expect, test } from 'vitest';
import { getCity, type CompiledAd } from '../../../core/content/index.ts';
import { AD_COLUMNS } from '../../../core/schemas/ad.ts';
import { cookieHeader, postForm, postJson } from '../../helpers/api.ts';
import { readAtom } from '../../helpers/atom-checks.ts';
import { getPage } from '../../helpers/moderation.ts';
import { saveSearchApiPath } from '../../../core/paths.ts';
import { makeMember } from '../../helpers/posting.ts';
import { writeFixtureFile } from '../../helpers/content-fixture.ts';
import { textOf } from '../../helpers/pages.ts';
import {
  nearestFirst,
  SEARCH_BUILD_DATE,
  searchFixtureForFile,
  searchResults,
} from '../../helpers/search-fixture.ts';
import { parseSearchQuery } from '../../../core/search-query.ts';
import { searchIndex } from '../../../search/search-index.ts';
import { searchIndexFile } from '../../../search/search-index-file.ts';
import { myDataFile } from '../../helpers/my-data.ts';
import { savedSearchPath } from '../../../server/saved-searches/saved-searches.ts';

/** Ads a city, in the fixture's cities around Portland (each city's first 5 by population). */
const AROUND_PORTLAND: Array<[string, string, number]> = [
  ['Oregon', 'Portland', 14],
  ['Washington', 'Vancouver', 10],
  ['Oregon', 'Gresham', 8],
  ['Oregon', 'Hillsboro', 6],
  ['Oregon', 'Salem', 5],
  ['Washington', 'Tacoma', 3],
];

function aroundPortland(): Record<string, string>[] {
  let id = 7000;
  return AROUND_PORTLAND.flatMap(([state, city, count]) =>
    Array.from({ length: count }, (_, index) => {
      id += 1;
      return {
        id: String(id),
        state,
        city,
        age: String(25 + index),
        seeks: index % 2 === 0 ? 'w4m' : 'm4w',
        title: `${index % 3 === 0 ? 'Kayaking' : 'Coffee'} partner in ${city} ${index}`,
        description: `Out on the river most weekends near ${city}. Say hello.`,
        images: '',
        featured: 'false',
        postedAt: `2026-11-${String(22 - ((index * 3) % 20)).padStart(2, '0')}`,
        expiresAt: '2027-12-31',
        sample: 'false',
      };
    }),
  );
}

const fixture = searchFixtureForFile();
beforeAll(async () => {
  writeFixtureFile(
    fixture.contentDir,
    'ads/portland.csv',
    stringify(aroundPortland(), { header: true, columns: [...AD_COLUMNS] }),
  );
  await fixture.publish();
});

async function search(query: string) {
  const results = await searchResults(fixture, query);
  const away = [...results.html.matchAll(/class="ad-card__away">([^<]*)</g)].map(
    (match) => match[1],
  );
  return { ...results, text: textOf(results.html), away };
}

/** The published ads within `miles` of Portland, Oregon: nearest city first, then newest. */
function expectedNearPortland(miles: number, keep: (ad: CompiledAd) => boolean = () => true) {
  const inCity = (state: string, city: string) => getCity(state, city)!;
  return nearestFirst(
    fixture.compiledAds().filter(keep),
    inCity('Oregon', 'Portland'),
    miles,
    inCity,
  );
}

describe('/search near a city', () => {
  test('within 25 miles of Portland, Oregon: exactly its cities’ ads, Vancouver, WA included, nearest first', async () => {
    const expected = expectedNearPortland(25);
    const cities = new Set(expected.map(({ ad }) => `${ad.city}, ${ad.state}`));
    expect(cities).toEqual(
      new Set([
        'Portland, Oregon',
        'Vancouver, Washington',
        'Gresham, Oregon',
        'Hillsboro, Oregon',
      ]),
    );
    const first = await search('near=Oregon/Portland&within=25');
    expect(first.status).toBe(200);
    expect(first.count).toBe(expected.length);
    expect(first.text).toContain('Nearest first');
    const second = await search('near=Oregon/Portland&within=25&page=2');
    expect([...first.ids, ...second.ids]).toEqual(expected.map(({ ad }) => ad.id));
    // Each card says how far its city is.
    expect([...first.away, ...second.away]).toEqual(
      expected.map(
        ({ ad, miles }) =>
          `${miles < 0.5 ? 'under 1' : Math.round(miles)} mi away, in ${ad.city}, ${ad.state}`,
      ),
    );
    expect(first.away[0]).toBe('under 1 mi away, in Portland, Oregon');
    expect([...first.away, ...second.away]).toContain('8 mi away, in Vancouver, Washington');
  });

  test('a wider distance reaches Salem; 100 miles still not Tacoma', async () => {
    const { ids } = await search('near=Oregon/Portland&within=50');
    expect(ids).toEqual(
      expectedNearPortland(50)
        .slice(0, 30)
        .map(({ ad }) => ad.id),
    );
    const hundred = await search('near=Oregon/Portland&within=100');
    expect(hundred.count).toBe(expectedNearPortland(100).length);
    expect(expectedNearPortland(100).some(({ ad }) => ad.city === 'Salem')).toBe(true);
    expect(expectedNearPortland(100).some(({ ad }) => ad.city === 'Tacoma')).toBe(false);
  });

  test('with words, seeks and days too, across the state line', async () => {
    const query = 'q=kayaking&seeks=w4m&posted=7&near=Washington/Vancouver&within=25';
    const { status, ids } = await search(query);
    expect(status).toBe(200);
    const inCity = (state: string, city: string) => getCity(state, city)!;
    const expected = nearestFirst(
      fixture
        .compiledAds()
        .filter(
          (ad) => /kayaking/i.test(ad.title) && ad.seeks === 'w4m' && ad.postedAt >= '2026-11-16',
        ),
      inCity('Washington', 'Vancouver'),
      25,
      inCity,
    );
    expect(expected.length).toBeGreaterThan(2);
    expect(ids).toEqual(expected.map(({ ad }) => ad.id));
  });

  test('takes "Portland, OR" and "portland, oregon" for Oregon/Portland', async () => {
    const exact = await search('near=Oregon/Portland&within=25');
    for (const typed of ['Portland, OR', 'portland, oregon', 'Oregon / Portland']) {
      const { status, ids, html } = await search(`near=${encodeURIComponent(typed)}&within=25`);
      expect(status, typed).toBe(200);
      expect(ids).toEqual(exact.ids);
      // The form shows the city as the URL names it.
      expect(html).toContain('value="Oregon/Portland"');
    }
  });

  test('a name several cities share is answered with the cities to choose from', async () => {
    const { status, text, html } = await search('near=Portland&within=25');
    expect(status).toBe(400);
    expect(text).toContain('2 cities are called “Portland”: choose one.');
    expect(html).toContain('href="/search?near=Oregon%2FPortland&amp;within=25"');
    expect(html).toContain('href="/search?near=Maine%2FPortland&amp;within=25"');
  });

  test('a name no city has is answered with what it may have meant, or how to write it', async () => {
    const typo = await search('near=Portl&within=25');
    expect(typo.status).toBe(400);
    expect(typo.text).toContain('No city called “Portl” on this site. Did you mean one of these?');
    expect(typo.html).toContain('near=Oregon%2FPortland');
    const nothing = await search('near=Xyzzy&within=10');
    expect(nothing.status).toBe(400);
    expect(nothing.text).toContain(
      'No city called “Xyzzy” on this site. Write it as State/City, e.g. Oregon/Portland.',
    );
    const wrongState = await search('near=Texas/Portland&within=10');
    expect(wrongState.status).toBe(400);
    expect(wrongState.text).toContain('No city called “Portland” in Texas on this site.');
  });

  test('refuses a distance it does not offer, and a state or city beside it', async () => {
    const thirty = await search('near=Oregon/Portland&within=30');
    expect(thirty.status).toBe(400);
    expect(thirty.text).toContain('Choose 10, 25, 50 or 100 miles.');
    const both = await search('near=Oregon/Portland&within=25&state=Oregon');
    expect(both.status).toBe(400);
    expect(both.text).toContain('Search near a city or in a state and city, not both');
  });

  test('the form’s distance without a city is no filter; within=7 alone still means days', async () => {
    const all = await search('');
    const sent = await search('q=&within=25&near=');
    expect(sent.status).toBe(200);
    expect(sent.count).toBe(all.count);
    const days = await search('within=7');
    const posted = await search('posted=7');
    expect(days.ids).toEqual(posted.ids);
    expect(days.count).toBe(
      fixture.compiledAds().filter((ad) => ad.postedAt >= '2026-11-16').length,
    );
  });

  test('the search near a city has a feed of the newest ads within its distance', async () => {
    const response = await fixture.app.request(
      'http://localhost/search/feed.xml?near=Oregon%2FPortland&within=25',
    );
    expect(response.status).toBe(200);
    const feed = readAtom(await response.text());
    expect(feed.title).toBe('New ads: within 25 miles of Portland, Oregon - Localboard');
    const newest = expectedNearPortland(25)
      .map(({ ad }) => ad)
      .sort((a, b) => (a.postedAt < b.postedAt ? 1 : a.postedAt > b.postedAt ? -1 : b.id - a.id))
      .slice(0, 30);
    expect(feed.entries.map((entry) => entry.link.replace(/.*\/ad\//, ''))).toEqual(
      newest.map((ad) => String(ad.id)),
    );
  });

  test('a member saves a search near a city, as a plain form post and as JSON', async () => {
    const member = await makeMember(fixture);
    const page = await (
      await getPage(fixture.app, '/search?near=Portland%2C+OR&within=10', member.session)
    ).text();
    expect(page).toContain(
      '<input type="hidden" name="query" value="near=Oregon%2FPortland&amp;within=10"/>',
    );
    const cookie = cookieHeader(member.session);
    const portland = 'near=Oregon%2FPortland&within=10';
    const posted = await postForm(
      fixture.app,
      saveSearchApiPath(portland),
      { query: portland },
      cookie,
    );
    expect(posted.status).toBe(303);
    const vancouver = 'near=Washington%2FVancouver&within=50';
    const json = await postJson(fixture.app, saveSearchApiPath(''), { query: vancouver }, cookie);
    expect(json.status).toBeLessThan(300);
    // As the member's data lists them: each named, and its address.
    const saved = (await myDataFile(fixture, member)).savedSearches.map(({ search, url }) => {
      const { pathname, search: query } = new URL(url);
      return { search, path: pathname + query };
    });
    expect(saved).toEqual([
      { search: 'within 10 miles of Portland, Oregon', path: savedSearchPath(portland) },
      { search: 'within 50 miles of Vancouver, Washington', path: savedSearchPath(vancouver) },
    ]);
  });

  test('a saved search keeps its radius: the digest reads the ads within it', () => {
    const parsed = parseSearchQuery({ near: 'Oregon/Portland', within: '10' });
    if (!parsed.ok) throw new Error('refused');
    const index = searchIndex(() => searchIndexFile(fixture.compiledDir));
    try {
      const newest = index.newest(parsed.filters, 100);
      expect(new Set(newest.map((ad) => ad.city))).toEqual(
        new Set(expectedNearPortland(10).map(({ ad }) => ad.city)),
      );
      expect(newest).toHaveLength(expectedNearPortland(10).length);
    } finally {
      index.close();
    }
    expect(SEARCH_BUILD_DATE).toBe('2026-11-22');
  });

  test('one lookup of the places’ cells finds the same pages, counts and feeds as place by place', () => {
    const file = () => searchIndexFile(fixture.compiledDir);
    // The first two by cells (their filters leave few matches), the last two place by place.
    const [byCells, byCellsCounting12, byPlace, byPlaceCounting12] = [
      searchIndex(file),
      searchIndex(file, { countedMax: 12 }),
      searchIndex(file, { cellMatchesMax: 0 }),
      searchIndex(file, { countedMax: 12, cellMatchesMax: 0 }),
    ];
    try {
      const queries = [
        { within: '25', seeks: 'w4m' },
        { within: '50', minAge: '26', maxAge: '31' },
        { within: '100', q: 'coffee' },
        { within: '100', q: 'kayaking', seeks: 'm4w', posted: '7' },
        { within: '10', q: 'river' },
      ];
      let compared = 0;
      for (const query of queries)
        for (const page of ['1', '2']) {
          const parsed = parseSearchQuery({ near: 'Oregon/Portland', ...query, page });
          if (!parsed.ok) throw new Error(`refused ${JSON.stringify(query)}`);
          for (const [one, other] of [
            [byCells, byPlace],
            [byCellsCounting12, byPlaceCounting12],
          ] as const) {
            const [cells, places] = [one, other].map((index) => index.search(parsed.filters));
            expect(cells!.ads.map((ad) => ad.id)).toEqual(places!.ads.map((ad) => ad.id));
            expect(cells!.miles).toEqual(places!.miles);
            expect([cells!.total, cells!.more]).toEqual([places!.total, places!.more]);
            expect(one.newest(parsed.filters, 5)).toEqual(other.newest(parsed.filters, 5));
            compared += cells!.ads.length;
          }
        }
      // Not vacuous: pages with ads, and a count past the counted limit among them.
      expect(compared).toBeGreaterThan(40);
      const wide = parseSearchQuery({ near: 'Oregon/Portland', within: '100', q: 'coffee' });
      if (!wide.ok) throw new Error('refused');
      expect(byCellsCounting12.search(wide.filters).more).toBe(true);
    } finally {
      for (const index of [byCells, byCellsCounting12, byPlace, byPlaceCounting12]) index.close();
    }
  });
});
