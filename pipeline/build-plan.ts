// What a build will do, from its options and environment (pipeline/build.ts lists the options):
// the stamp that says whether anything changed, whether the site is small, and the steps with
// their Node flags and environment. Read by the build's starter (pipeline/build.ts) and by the
// warm publisher (pipeline/publish-worker.ts), which plans each publish as a fresh build would.
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { StoreLocation } from '../store/store-location.ts';
import { buildDateFrom } from './build-date.ts';
import { buildStepCommand, type StepCommand } from './hand-over.ts';
import { filesStamp } from './fingerprint.mjs';
import { COMPILE_CACHE_FOLDER, MANIFEST_FILE, SITE_FOLDER } from './prerender/output-layout.ts';
import { pageHashFileOf } from './prerender/manifest.ts';
import { notForTheSite, type BuildFinish } from './finish-build.ts';
import { copyFilesInto } from './replace-file.ts';
import { HANDED_OVER_AT_VARIABLE } from './step-timings.ts';
import { NEW_SEARCH_INDEX_VARIABLE } from './prerender/new-search-index.ts';

export interface BuildPlan {
  outDir: string;
  siteDir: string;
  buildDate: string;
  full: boolean;
  /** --if-needed, and nothing the build reads changed since the last build: nothing to do. */
  upToDate: boolean;
  /**
   * The last build into outDir was of a small site (SMALL_SITE_PAGE_HASH_BYTES): its steps may run
   * in one Node.
   */
  small: boolean;
  /**
   * The steps run in one Node, the starter's: a small site's build that is not --full, unless
   * LOCALBOARD_BUILD_STEPS_APART=1 (bench/publish-latency.ts compares the two).
   */
  inOneNode: boolean;
  /** The content step, then the pages step. */
  steps: StepCommand[];
  /** What the pages step, or whoever runs the steps, does at the end. */
  finish: BuildFinish;
}

/**
 * About 105,000 pages (76 bytes a page): the shipped content (16,600) is small, the 100,000-ad
 * benchmark (117,700 pages, 8.9 MB) not.
 */
const SMALL_SITE_PAGE_HASH_BYTES = 8_000_000;

/**
 * V8's flags for the pages step of a site that is not small, where its two threads render (or
 * one renders and one builds the search index) for minutes on two cores. Measured at a million
 * ads, the step alone, in one run (docs/benchmarks.md, issue 52):
 * - Collections on the thread that needs them: both cores are busy already, and V8's helper
 *   threads only took turns with them (115 s against 127 s; system time 34 s against 45 s).
 * - No pretenuring: V8 allocates an allocation site's objects in the old generation once most of
 *   them outlive a scavenge, which with a young generation of a few MB a page's React objects do
 *   at times. A thread whose sites were tenured compacted its old generation up to five times a
 *   second (57-163 compactions against 9-17 at 100,000 ads), and the step took 20-22 s instead of
 *   17-18 s in 4 runs of 16; in none of 16 runs without it.
 * - The main thread's semi-space at 4 MB rather than 2 (the worker's is prerender.ts's): a
 *   scavenge copies fewer of a page's objects that are still alive, and the step took 92.4 s
 *   against 97.6 s. Alone it took the step's peak to the 300 MB budget; the old generations'
 *   lower caps pay for it (80 MB here, 56 MB in the worker, prerender.ts; each thread keeps
 *   50-61 MB alive): 62 full collections on the main thread instead of 50 (0.6 s more), and a
 *   peak of 277 MB against 283.
 */
const LARGE_SITE_PAGES_STEP_FLAGS = [
  '--max-semi-space-size=4',
  '--single-threaded-gc',
  '--no-allocation-site-pretenuring',
];
/** The content step's young generation where the site is not small (the comment in planBuild). */
const LARGE_SITE_CONTENT_SEMI_SPACE = '--max-semi-space-size=8';
/** Both steps' young generation where the site is small (the comment in planBuild). */
const SMALL_SITE_SEMI_SPACE = '--max-semi-space-size=16';

/** Plans a build from its command-line arguments and environment. */
export async function planBuild(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<BuildPlan> {
  // The project folder (scripts/build.mjs says where it is); relative options are relative to here.
  const root = env.LOCALBOARD_ROOT ?? process.cwd();
  const option = (flag: string) => {
    const index = argv.indexOf(flag);
    return index === -1 ? undefined : argv[index + 1];
  };
  const full = argv.includes('--full');
  const buildDate = buildDateFrom(argv, env);
  const contentDir = resolve(option('--content') ?? env.CONTENT_DIR ?? join(root, 'content'));
  const outDir = resolve(option('--out') ?? join(root, 'dist'));
  const siteDir = join(outDir, SITE_FOLDER);
  const cacheDir = resolve(option('--cache') ?? env.COMPILED_CONTENT_DIR ?? join(root, '.content'));
  const database = databaseOption(option, env, root);
  const sources = env.LOCALBOARD_SOURCES ?? '';

  const siteStampFile = join(outDir, 'build-stamp.json');
  const ifNeeded = argv.includes('--if-needed') && !full;
  // The member ads' stamp is asked of the database only where it decides something (--if-needed):
  // the store's drivers (SQLite's native module) would otherwise stay loaded in this process, which
  // waits beside the steps (about 8 MB more at the build's peak). A build without it records 'not
  // checked', so the next --if-needed build runs (cheaply: unchanged batches and pages are reused).
  const memberAds = ifNeeded
    ? await (await import('./compile/database-ad-source.ts')).memberAdsStamp(database)
    : 'not checked';
  const siteStamp = JSON.stringify({
    buildDate,
    content: filesStamp(contentDir, ['.']),
    memberAds,
    sources,
  });
  const upToDate =
    ifNeeded &&
    readIfExists(siteStampFile) === siteStamp &&
    existsSync(join(siteDir, 'index.html'));

  // The content and page steps work one batch of ads, one city at a time: a small young generation
  // and a capped old one make V8 collect early instead of growing, so memory stays flat however
  // many pages there are. The pages step's main thread holds the content index, the render groups
  // and a window of one city's ads (about 55 MB live at a million ads, as its render worker): a
  // lower cap keeps it, and the build, within its memory budget. Source maps: a failure names the
  // TypeScript line.
  // No V8 memory saver mode (core/node-runtime.mjs says what it is) in either step. In the pages
  // step it cost up to a third of the step's CPU (compacting collections several times a second)
  // and up to twice that when freshly touched memory is slow to come by, as it is on this machine
  // at times. In the content step, with a 2 MB semi-space, its collections were a third of the
  // step's CPU at a million ads (17.0-19.7 s); with an 8 MB semi-space and no saver the step
  // took 13.4-13.6 s and held 258-261 MB at most, under the pages step's peak, which is the
  // build's (docs/benchmarks.md, issue 52).
  // A small site (SMALL_SITE_PAGE_HASH_BYTES) is far from the budget: there the young generation
  // is V8's usual size, which spares a publish most of its garbage collections (a fifth of its
  // CPU at 16,600 pages) for some 25 MB more at its peak.
  const lastSize = lastPageHashBytes(outDir);
  const small = lastSize !== undefined && lastSize < SMALL_SITE_PAGE_HASH_BYTES;
  const nodeOptionsOf: Record<'compile-content' | 'prerender-pages', string[]> = {
    'compile-content': [
      '--max-old-space-size=160',
      small ? SMALL_SITE_SEMI_SPACE : LARGE_SITE_CONTENT_SEMI_SPACE,
      '--enable-source-maps',
    ],
    'prerender-pages': [
      '--max-old-space-size=80',
      ...(small ? [SMALL_SITE_SEMI_SPACE] : LARGE_SITE_PAGES_STEP_FLAGS),
      '--enable-source-maps',
    ],
  };
  // React's production build; glibc's malloc keeps fewer per-thread arenas (less memory held back).
  const stepEnv = {
    NODE_ENV: 'production',
    MALLOC_ARENA_MAX: '2',
    BUILD_DATE: buildDate,
    CONTENT_DIR: contentDir,
    COMPILED_CONTENT_DIR: cacheDir,
    // The content step writes the member ads' photos into this output's site (published-photos.ts).
    BUILD_OUT_DIR: outDir,
    // Node keeps the steps' compiled modules here: each step starts without compiling its code and
    // its dependencies again (a publish starts three Nodes). A cache: stale entries are never used.
    NODE_COMPILE_CACHE: join(outDir, COMPILE_CACHE_FOLDER),
    // A search index built from nothing is built by the pages step, beside its rendering
    // (prerender/new-search-index.ts): a minute of one thread at a million ads, off the wall time.
    [NEW_SEARCH_INDEX_VARIABLE]: '1',
  };
  // The content step finds the database where a server would: DATABASE_URL, else DATABASE_PATH.
  const stepEnvironment: NodeJS.ProcessEnv = { ...env, ...stepEnv };
  delete stepEnvironment.DATABASE_URL;
  delete stepEnvironment[HANDED_OVER_AT_VARIABLE];
  if (database.url) stepEnvironment.DATABASE_URL = database.url;
  else stepEnvironment.DATABASE_PATH = database.path;

  const preload = env.BENCH_RSS_FILE ? ['--import', join(root, 'bench/report-peak-rss.mjs')] : [];
  // The pages step's malloc gives a block of 128 KB or more back to the system when it is freed:
  // by default the threshold rises to the largest block freed (a window of a city's ads, a
  // megabyte), and blocks below it then stay in the arena (15-40 MB more of the step's memory at a
  // million ads). Not the content step's: SQLite's and FTS5's big buffers come and go there.
  // And an arena for each of its threads: with two, the search index's thread (SQLite allocates
  // all the time) waited for an arena's lock a tenth of its time, and took 53.5-57.6 s against
  // 44.5 s at a million ads, for the same memory (docs/benchmarks.md, issue 52).
  const environmentOf = (step: keyof typeof nodeOptionsOf): NodeJS.ProcessEnv =>
    step === 'prerender-pages'
      ? { ...stepEnvironment, MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '131072' }
      : stepEnvironment;
  const stepCommand = (title: string, step: keyof typeof nodeOptionsOf, args: string[]) =>
    buildStepCommand(
      title,
      step,
      [...preload, ...nodeOptionsOf[step]],
      args,
      environmentOf(step),
      root,
    );
  const steps = [
    stepCommand('Compiling content', 'compile-content', full ? ['--full'] : []),
    stepCommand('Prerendering pages', 'prerender-pages', [
      ...['--cache', cacheDir, '--vite', outDir, '--out', outDir],
      ...(full ? ['--full'] : []),
    ]),
  ];
  const finish: BuildFinish = { outDir, siteStampFile, siteStamp, startedAt: Date.now() };
  const inOneNode = small && !full && env.LOCALBOARD_BUILD_STEPS_APART !== '1';
  return { outDir, siteDir, buildDate, full, upToDate, small, inOneNode, steps, finish };
}

/**
 * The client build's files go into the site, each replaced whole and only when it changed (the
 * server may be serving the site: a publish); old assets (their names carry a hash) leave once no
 * page links to them (finish-build.ts). They come first: no page of this build exists yet.
 */
export function placeClientAssets({ outDir, siteDir }: BuildPlan): void {
  mkdirSync(siteDir, { recursive: true });
  copyFilesInto(join(outDir, 'client'), siteDir, notForTheSite);
}

/** The database whose member ads are published: the options, else the environment. */
function databaseOption(
  option: (flag: string) => string | undefined,
  env: NodeJS.ProcessEnv,
  root: string,
): StoreLocation {
  const url = option('--database-url');
  if (url) return { url };
  const path = option('--database');
  if (path) return { path: resolve(path) };
  if (env.DATABASE_URL) return { url: env.DATABASE_URL };
  return { path: resolve(env.DATABASE_PATH ?? join(root, 'data', 'localboard.sqlite')) };
}

/**
 * The size of the last build's page hashes in `outDir` (some 76 bytes a page), the measure of a
 * site's size before its content is read; undefined when there was none (the first build, or
 * --full after a wipe): its size is not known.
 */
function lastPageHashBytes(outDir: string): number | undefined {
  try {
    return statSync(pageHashFileOf(join(outDir, MANIFEST_FILE))).size;
  } catch {
    return undefined;
  }
}

function readIfExists(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
