// Content for the search tests: the small content fixture with a generated ads file of known
// shape (cities, seeks, ages, days and words chosen in turn), compiled with a real database's member
// ads into a temp folder, as the build does (compileToDisk writes the search index too), and the app
// reading that compiled content.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { compileToDisk } from '../../pipeline/compile/compile-to-disk.ts';
import { MEMBER_ADS_FOLDER, readMemberAds } from '../../pipeline/compile/database-ad-source.ts';
import { useCompiledContentDir, type CompiledAd } from '../../core/content/index.ts';
import { AD_COLUMNS } from '../../core/schemas/ad.ts';
import { milesBetween, type Coordinates } from '../../core/geo/great-circle.ts';
import { afterAll, beforeAll } from 'vitest';
import { makeTestApp, type TestApp } from './api.ts';
import { makeContentFixture, writeFixtureFile } from './content-fixture.ts';
import { insertMemberAd, type MemberAdFields } from './member-ads.ts';

export const SEARCH_BUILD_DATE = '2026-11-22';

/**
 * The ads within `miles` of `center`, each with its distance (`cityOf` places an ad's city), in
 * the order /search near a city lists them: nearest city first, then newest, then highest id.
 */
export function nearestFirst<Ad extends Pick<CompiledAd, 'state' | 'city' | 'postedAt' | 'id'>>(
  ads: Ad[],
  center: Coordinates,
  miles: number,
  cityOf: (state: string, city: string) => Coordinates,
): Array<{ ad: Ad; miles: number }> {
  return ads
    .map((ad) => ({ ad, miles: milesBetween(center, cityOf(ad.state, ad.city)) }))
    .filter((found) => found.miles <= miles)
    .sort(
      (a, b) =>
        a.miles - b.miles ||
        (a.ad.postedAt < b.ad.postedAt
          ? 1
          : a.ad.postedAt > b.ad.postedAt
            ? -1
            : b.ad.id - a.ad.id),
    );
}
const PLACES = [
  ['California', 'Los Angeles'],
  ['California', 'San Diego'],
  ['New York', 'New York City'],
  ['Florida', 'Miami'],
] as const;
const SEEKS = ['w4m', 'm4w', 'm4m', 'w4w'] as const;
const HOBBIES = ['hiking', 'coffee', 'painting', 'chess', 'sailing', 'baking', 'jazz'] as const;
/** Days before the build date each ad was posted, in turn. */
const DAYS_AGO = [0, 2, 5, 10, 20, 40] as const;
export const GENERATED_ADS = 95;

function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

function generatedAds(): Record<string, string>[] {
  return Array.from({ length: GENERATED_ADS }, (_, index) => {
    const [state, city] = PLACES[index % PLACES.length]!;
    const hobby = HOBBIES[index % HOBBIES.length]!;
    const other = HOBBIES[(index * 3 + 1) % HOBBIES.length]!;
    // One ad alone mentions a rare word.
    const rare = index === 41 ? ' I also collect antique barometers.' : '';
    return {
      id: String(5000 + index),
      state,
      city,
      age: String(20 + ((index * 7) % 50)),
      seeks: SEEKS[index % SEEKS.length]!,
      title: `Looking for company: ${hobby} fan number ${index}`,
      description: `I like ${hobby} on weekends and ${other} in the evenings.${rare} Say hello.`,
      images: '',
      featured: index % 17 === 0 ? 'true' : 'false',
      postedAt: daysBefore(SEARCH_BUILD_DATE, DAYS_AGO[index % DAYS_AGO.length]!),
      expiresAt: '2027-12-31',
      sample: 'false',
    };
  });
}

export interface SearchFixture extends TestApp {
  contentDir: string;
  compiledDir: string;
  /** Compiles again (with the store's member ads as they are now), as a publish does. */
  publish(): Promise<void>;
  /** Every published ad, as the compiled state files hold them. */
  compiledAds(): CompiledAd[];
  cleanup(): void;
}

export async function makeSearchFixture(): Promise<SearchFixture> {
  const content = makeContentFixture();
  writeFixtureFile(
    content.dir,
    'ads/search.csv',
    stringify(generatedAds(), { header: true, columns: [...AD_COLUMNS] }),
  );
  const testApp = await makeTestApp();
  const compiledDir = join(testApp.dir, 'compiled');
  const publish = async () => {
    const memberAds = await readMemberAds(testApp.store, join(compiledDir, MEMBER_ADS_FOLDER));
    const outcome = compileToDisk({
      contentDir: content.dir,
      compiledDir,
      buildDate: SEARCH_BUILD_DATE,
      memberAds,
    });
    if (!outcome.ok) throw new Error(`fixture content did not compile: ${JSON.stringify(outcome)}`);
    useCompiledContentDir(compiledDir);
  };
  await publish();
  return {
    ...testApp,
    contentDir: content.dir,
    compiledDir,
    publish,
    compiledAds() {
      const dir = join(compiledDir, 'ads');
      return readdirSync(dir)
        .filter((name) => name.endsWith('.ndjson'))
        .flatMap((name) =>
          readFileSync(join(dir, name), 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as CompiledAd),
        );
    },
    cleanup() {
      testApp.remove();
      content.cleanup();
    },
  };
}

/**
 * makeSearchFixture for the file's tests: made before them, removed after. The object is filled
 * in by `beforeAll`: read it inside hooks and tests only.
 */
export function searchFixtureForFile(): SearchFixture {
  const fixture = {} as SearchFixture;
  beforeAll(async () => {
    Object.assign(fixture, await makeSearchFixture());
  });
  afterAll(() => fixture.cleanup?.());
  return fixture;
}

/**
 * A member ad approved and published (insertMemberAd, then the fixture's publish): posted on the
 * build date unless `postedOn` says otherwise. Its id.
 */
export async function publishMemberAd(fixture: SearchFixture, ad: MemberAdFields): Promise<number> {
  const id = await insertMemberAd(fixture, { postedOn: SEARCH_BUILD_DATE, ...ad });
  await fixture.publish();
  return id;
}

/** /search with `query`: the answer's status, its HTML, the ids of its cards in order, its count. */
export async function searchResults(fixture: Pick<TestApp, 'app'>, query: string) {
  const response = await fixture.app.request(`http://localhost/search?${query}`);
  const html = await response.text();
  const ids = [...html.matchAll(/id="ad-(\d+)-title"/g)].map((match) => Number(match[1]));
  const count = /<strong>([\d,]+) ads?<\/strong>/.exec(html)?.[1];
  return {
    status: response.status,
    html,
    ids,
    count: count === undefined ? undefined : Number(count.replace(/,/g, '')),
  };
}
