// The benchmark's ads: generateAds over every city of content/cities, weighted by population,
// all live on the build date; and how many of them make a site of about 20,000 pages.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { ADS_PER_PAGE } from '../core/paths.ts';
import { readPolicyTerms } from '../core/policy/term-files.ts';
import { adStream, generateAds, type GeneratedAd } from './generate-ads.ts';

export interface WeightedCity {
  state: string;
  city: string;
  weight: number;
}

export const FIRST_AD_ID = 100_000;
/** Ads are posted within this many days before the build date (and expire 180–365 days later). */
const POSTED_WITHIN_DAYS = 110;
const FEATURED_SHARE = 0.05;
/** Small towns still get the odd ad. */
const MIN_CITY_WEIGHT = 1000;

/** Every city of `{contentDir}/cities/*.csv`, weighted by max(population, 1000). */
export function readWeightedCities(contentDir: string): WeightedCity[] {
  const folder = join(contentDir, 'cities');
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.csv'))
    .sort();
  return files.flatMap((file) => {
    const state = basename(file, '.csv');
    const rows = parse(readFileSync(join(folder, file), 'utf8'), { columns: true }) as Array<{
      name: string;
      population: string;
    }>;
    return rows.map((row) => ({
      state,
      city: row.name,
      weight: Math.max(Number(row.population) || 0, MIN_CITY_WEIGHT),
    }));
  });
}

export interface BenchAdsRequest {
  contentDir: string;
  cities: readonly WeightedCity[];
  count: number;
  seed: number;
  buildDate: string;
}

/** `count` sample ads, ids from 100,000, posted in the 110 days before the build date. */
export function generateBenchAds(request: BenchAdsRequest): GeneratedAd[] {
  return generateAds(generationOptions(request));
}

/** The ads of generateBenchAds(), one at a time. */
export function benchAdStream(request: BenchAdsRequest): Iterable<GeneratedAd> {
  return adStream(generationOptions(request));
}

function generationOptions(request: BenchAdsRequest) {
  const { contentDir, cities, count, seed, buildDate } = request;
  return {
    seed,
    count,
    cities,
    firstId: FIRST_AD_ID,
    postedFrom: addDays(buildDate, -POSTED_WITHIN_DAYS),
    postedTo: addDays(buildDate, -1),
    featuredShare: FEATURED_SHARE,
    sample: true,
    policyTerms: readPolicyTerms(contentDir).terms,
  };
}

/**
 * The smallest n such that a site with the first n of `ads` has at least `targetPages` pages
 * counting the landing page, state pages, city pages (with their further pages) and ad pages.
 * The generator draws ad after ad from one stream, so these n ads are exactly what generateAds
 * gives for count n with the same seed. (The few fixed pages, guides and the like, come on top.)
 */
export function adsForPageTarget(
  ads: readonly GeneratedAd[],
  cities: readonly WeightedCity[],
  targetPages: number,
): number {
  const states = new Set(cities.map((city) => city.state)).size;
  let pages = 1 + states + cities.length;
  const perCity = new Map<string, number>();
  for (const [index, ad] of ads.entries()) {
    if (pages >= targetPages) return index;
    const key = `${ad.state}\u0000${ad.city}`;
    const count = (perCity.get(key) ?? 0) + 1;
    perCity.set(key, count);
    // The ad's own page, and a further list page when it opens one (ad 31, 61, ...).
    pages += count > ADS_PER_PAGE && count % ADS_PER_PAGE === 1 ? 2 : 1;
  }
  return ads.length;
}

function addDays(date: string, days: number): string {
  const ms = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}
