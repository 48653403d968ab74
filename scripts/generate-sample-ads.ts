// Writes the shipped sample ads, content/ads/sample.csv (every row marked sample=true).
// Run: npx tsx scripts/generate-sample-ads.ts. Deterministic: the same code writes the same file.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { findFirstPolicyTerm } from '../core/policy/terms.ts';
import { readPolicyTerms } from '../core/policy/term-files.ts';
import { generateAds, type AdGenerationOptions, type GeneratedAd } from '../bench/generate-ads.ts';
import { AD_COLUMNS } from '../core/schemas/ad.ts';

const root = join(import.meta.dirname, '..');
const SEED = 20261122;
const FIRST_ID = 1001;

/** Ads per city, in the order ids are given out. */
const DISTRIBUTION: ReadonlyArray<readonly [state: string, city: string, count: number]> = [
  ['California', 'Los Angeles', 72], // > 60: three pages of 30
  ['New York', 'New York City', 48],
  ['Florida', 'Miami', 32],
  ['Nevada', 'Las Vegas', 26],
  ['Illinois', 'Chicago', 7],
  ['Texas', 'Houston', 5],
  ['Texas', 'Austin', 5],
  ['Texas', 'Dallas', 5],
  ['Texas', 'San Antonio', 3],
  ['Texas', 'El Paso', 3],
  ['California', 'San Diego', 5],
  ['California', 'San Francisco', 5],
  ['California', 'Sacramento', 3],
  ['California', 'Fresno', 3],
  ['Washington', 'Seattle', 5],
  ['Washington', 'Spokane', 3],
  ['Colorado', 'Denver', 5],
  ['Colorado', 'Cañon City', 3],
  ['Arizona', 'Phoenix', 5],
  ['Arizona', 'Tucson', 3],
  ['Georgia', 'Atlanta', 5],
  ['Oregon', 'Portland', 5],
  ['Massachusetts', 'Boston', 5],
  ['Pennsylvania', 'Philadelphia', 5],
  ['Pennsylvania', 'Pittsburgh', 3],
  ['Missouri', 'St. Louis', 3],
  ['North Carolina', 'Winston-Salem', 3],
  ['North Carolina', 'Asheville', 3],
  ['Idaho', "Coeur d'Alene", 3],
  ['Idaho', 'Boise', 3],
  ['Tennessee', 'Nashville', 3],
  ['Minnesota', 'Minneapolis', 3],
  ['Louisiana', 'New Orleans', 3],
  ['Utah', 'Salt Lake City', 3],
  ['Vermont', 'Burlington', 3],
  ['Montana', 'Bozeman', 3],
  ['New Mexico', 'Santa Fe', 3],
  ['Michigan', 'Ann Arbor', 3],
  ['Wisconsin', 'Madison', 3],
  ['Ohio', 'Columbus', 3],
  ['Florida', 'Orlando', 3],
  ['Florida', 'Tampa', 3],
];
const MIN_FEATURED_IN_LOS_ANGELES = 3;

const cityNamesByState = new Map<string, Set<string>>();
function cityExists(state: string, city: string): boolean {
  let names = cityNamesByState.get(state);
  if (!names) {
    const rows = parse(readFileSync(join(root, 'content', 'cities', `${state}.csv`), 'utf8'), {
      columns: true,
    }) as Array<{ name: string }>;
    names = new Set(rows.map((row) => row.name));
    cityNamesByState.set(state, names);
  }
  return names.has(city);
}

/** FNV-1a of the place and attempt, mixed with the base seed: each city gets its own stream. */
function citySeed(state: string, city: string, attempt: number): number {
  let h = 0x811c9dc5 ^ SEED;
  for (const ch of `${state}/${city}#${attempt}`)
    h = Math.imul(h ^ (ch.codePointAt(0) as number), 0x01000193);
  return h >>> 0;
}

const { terms: policyTerms } = readPolicyTerms(join(root, 'content'));
const base: Omit<AdGenerationOptions, 'seed' | 'count' | 'cities' | 'firstId'> = {
  postedFrom: '2026-08-01',
  postedTo: '2026-11-20',
  featuredShare: 0.08,
  sample: true,
  policyTerms,
};

const ads: GeneratedAd[] = [];
let nextId = FIRST_ID;
for (const [state, city, count] of DISTRIBUTION) {
  if (!cityExists(state, city))
    throw new Error(`${city}, ${state} is not in content/cities/${state}.csv`);
  const minFeatured = city === 'Los Angeles' ? MIN_FEATURED_IN_LOS_ANGELES : 0;
  let batch: GeneratedAd[] = [];
  // Deterministic retry: the first attempt whose ads have enough featured ones is kept.
  for (let attempt = 0; ; attempt++) {
    if (attempt > 100) throw new Error(`no seed gives ${minFeatured} featured ads in ${city}`);
    batch = generateAds({
      ...base,
      seed: citySeed(state, city, attempt),
      count,
      cities: [{ state, city, weight: 1 }],
      firstId: nextId,
    });
    if (batch.filter((ad) => ad.featured).length >= minFeatured) break;
  }
  ads.push(...batch);
  nextId += count;
}

// Self-check: the validator's rules for ads, policy terms first.
for (const ad of ads) {
  for (const field of ['title', 'description'] as const) {
    const found = findFirstPolicyTerm(ad[field], policyTerms, [ad.city, ad.state]);
    if (found)
      throw new Error(`ad ${ad.id}: ${field} contains blocked term "${found.term}": ${ad[field]}`);
  }
  if (ad.age < 18) throw new Error(`ad ${ad.id}: age ${ad.age} is under 18`);
  if (ad.title.length < 15 || ad.title.length > 80)
    throw new Error(`ad ${ad.id}: title length ${ad.title.length}`);
  if (ad.description.length < 120 || ad.description.length > 900)
    throw new Error(`ad ${ad.id}: description length ${ad.description.length}`);
  if (!(ad.expiresAt > ad.postedAt))
    throw new Error(`ad ${ad.id}: expiresAt is not after postedAt`);
}

const csv = stringify(ads, {
  header: true,
  columns: [...AD_COLUMNS],
  cast: { boolean: (value) => (value ? 'true' : 'false') },
});
mkdirSync(join(root, 'content', 'ads'), { recursive: true });
writeFileSync(join(root, 'content', 'ads', 'sample.csv'), csv);

const featured = ads.filter((ad) => ad.featured).length;
const cityCount = new Set(ads.map((ad) => `${ad.state}/${ad.city}`)).size;
console.log(
  `Wrote ${ads.length} sample ads in ${cityCount} cities (${featured} featured) to content/ads/sample.csv`,
);
