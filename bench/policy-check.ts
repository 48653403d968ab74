// How long the strict policy check of editors' ads (findFirstPolicyTerm on title and description,
// the ad's city and state exempt) takes on a million typical ads: the content step runs it on
// every ad. Texts come from the bench generator (100,000 ads, checked ten times over), so this
// measures the check alone. `npx tsx bench/policy-check.ts [content dir]`.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { findFirstPolicyTerm } from '../core/policy/terms.ts';
import { readPolicyTerms } from '../core/policy/term-files.ts';
import { benchAdStream, readWeightedCities } from './ads.ts';

const contentDir = process.argv[2] ?? join(process.cwd(), 'content');
const DISTINCT_ADS = 100_000;
const PASSES = 10;

const { terms } = readPolicyTerms(contentDir);
const ads = [
  ...benchAdStream({
    contentDir,
    cities: readWeightedCities(contentDir),
    count: DISTINCT_ADS,
    seed: 42,
    buildDate: '2026-11-22',
  }),
];

/** Ms to check every ad `PASSES` times; and how many checks found a term. */
function time(
  list: ReadonlyArray<{ state: string; city: string; title: string; description: string }>,
) {
  let hits = 0;
  const started = performance.now();
  for (let pass = 0; pass < PASSES; pass += 1) {
    for (const ad of list) {
      const places = [ad.city, ad.state];
      if (findFirstPolicyTerm(ad.title, terms, places)) hits += 1;
      if (findFirstPolicyTerm(ad.description, terms, places)) hits += 1;
    }
  }
  return { ms: performance.now() - started, hits };
}

time(ads.slice(0, 5_000)); // warm up the regular expressions
const typical = time(ads);
// The same ads with a typographic apostrophe in every tenth description: the slower path.
const someUnicode = time(
  ads.map((ad, index) =>
    index % 10 === 0 ? { ...ad, description: `${ad.description} It’s me.` } : ad,
  ),
);
const perMillion = (ms: number) =>
  `${(((ms / (DISTINCT_ADS * PASSES)) * 1e6) / 1000).toFixed(2)} s`;
console.log(`${DISTINCT_ADS * PASSES} ads (title and description each):`);
console.log(`  typical ads:                    ${perMillion(typical.ms)} (${typical.hits} hits)`);
console.log(
  `  one in ten with a non-ASCII ’:  ${perMillion(someUnicode.ms)} (${someUnicode.hits} hits)`,
);
