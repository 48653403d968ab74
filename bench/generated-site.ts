// The site the publishing benchmarks (bench/publish.ts, bench/instances.ts) publish into: the
// 100,000 ads of `npm run bench` (same seed; live on the build date) written one CSV a state, and
// built once as a user builds (`node scripts/build.mjs`) with the server's database, whose member
// ads are published beside them.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { StoreLocation } from '../store/store-location.ts';
import { benchAdStream, readWeightedCities, type WeightedCity } from './ads.ts';
import { writeContentSet } from './content.ts';
import { DEFAULT_SEED } from './options.ts';

const root = join(import.meta.dirname, '..');

export interface GeneratedContent {
  /** The content folder: a copy of content/ with the generated ads. */
  contentDir: string;
  /** Every city of content/cities, weighted by population. */
  cities: WeightedCity[];
}

/** Writes `ads` generated ads, live on `buildDate`, into `{dir}/content`. */
export function writeGeneratedContent(
  dir: string,
  ads: number,
  buildDate: string,
): GeneratedContent {
  const contentDir = join(dir, 'content');
  const cities = readWeightedCities(join(root, 'content'));
  const stream = benchAdStream({
    contentDir: join(root, 'content'),
    cities,
    seed: DEFAULT_SEED,
    count: ads,
    buildDate,
  });
  writeContentSet(join(root, 'content'), contentDir, stream, ads, 'per-state');
  return { contentDir, cities };
}

export interface BuiltSite {
  /** Pages the build prerendered, as it says ('?' if it did not). */
  pages: string;
  seconds: number;
}

/**
 * `node scripts/build.mjs` from the project folder (or `projectDir`: another checkout, for a
 * comparison), for `buildDate`, reading the member ads of `database` (`--database FILE`, or
 * `--database-url URL`). Throws with the build's output when it fails.
 */
export function buildSite(settings: {
  contentDir: string;
  outDir: string;
  cacheDir: string;
  buildDate: string;
  database: StoreLocation;
  projectDir?: string;
}): BuiltSite {
  const { contentDir, outDir, cacheDir, buildDate, database, projectDir = root } = settings;
  const started = performance.now();
  const env = { ...process.env };
  // The option says which database; none of the calling shell's.
  delete env.DATABASE_URL;
  delete env.DATABASE_PATH;
  const build = spawnSync(
    process.execPath,
    [
      'scripts/build.mjs',
      ...['--date', buildDate, '--content', contentDir, '--out', outDir, '--cache', cacheDir],
      ...(database.url ? ['--database-url', database.url] : ['--database', database.path!]),
    ],
    { cwd: projectDir, env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`The build failed:\n${build.stdout}`);
  const pages = /Prerendered (\d+) pages/.exec(build.stdout)?.[1] ?? '?';
  return { pages, seconds: (performance.now() - started) / 1000 };
}

/** Cities of every size, `count` of them: evenly spaced along the list, most populous first. */
export function citiesOfEverySize(cities: readonly WeightedCity[], count: number): WeightedCity[] {
  const byWeight = [...cities].sort((a, b) => b.weight - a.weight);
  return Array.from(
    { length: count },
    (_, index) => byWeight[Math.floor((index * byWeight.length) / count)]!,
  );
}
