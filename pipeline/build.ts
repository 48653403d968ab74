// `npm run build`: validates and compiles the content and prerenders every page into {out}/site.
//   --date YYYY-MM-DD   publication day (which ads are live); default today, or BUILD_DATE
//   --if-needed         skip when nothing the build reads has changed since the last build
//   --full              build everything: Vite's output, the compiled content and every page
//   --content DIR       content folder (default content/)
//   --out DIR           where everything goes (default dist/): the site in DIR/site, Vite's output
//                       in DIR/client and DIR/server, the build manifest beside them
//   --cache DIR         compiled content (default .content/)
//   --database FILE     the server's SQLite database, whose live member ads are published beside
//                       the CSV ads (default DATABASE_PATH, or data/localboard.sqlite); none if it
//                       is absent. Its hidden_ads (reports) leave those ads out, editors' ads included
//   --database-url URL  the server's PostgreSQL database instead (postgres://…); DATABASE_URL in
//                       the environment does the same and keeps the password off the command line.
//                       Either database is opened read-only and read in one snapshot (no migration).
//                       Order: --database-url, --database, DATABASE_URL, DATABASE_PATH
// It runs from Vite's server build ({out}/server/build.mjs), which scripts/build.mjs brings up to
// date first. The steps run one after the other, each a fresh Node, so that their memory never adds
// up and none inherits another's: the content (scripts/compile-content.ts), then the pages
// (scripts/prerender-pages.ts). This process becomes each in turn (hand-over.ts); where Node cannot
// (before 22.15) it runs them as children and waits. A small site (smallSite) runs both in this
// process instead, unless LOCALBOARD_BUILD_STEPS_APART=1 (bench/publish-latency.ts compares the
// two). Builds into different output folders share nothing.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { StoreLocation } from '../store/store-location.ts';
import { buildDateFrom } from './build-date.ts';
import {
  becomeSteps,
  buildStepCommand,
  canHandOver,
  runStepHere,
  type StepCommand,
} from './hand-over.ts';
import { filesStamp } from './fingerprint.mjs';
import { COMPILE_CACHE_FOLDER, MANIFEST_FILE, SITE_FOLDER } from './prerender/output-layout.ts';
import { pageHashFileOf } from './prerender/manifest.ts';
import { copyFilesInto } from './replace-file.ts';
import { finishBuild, FINISH_VARIABLE, notForTheSite, type BuildFinish } from './finish-build.ts';
import { memorySaverFlags } from '../core/node-runtime.mjs';
import { HANDED_OVER_AT_VARIABLE, stepTimer } from './step-timings.ts';

const timer = stepTimer('the start');

// The project folder (scripts/build.mjs says where it is); relative options are relative to here.
const root = process.env.LOCALBOARD_ROOT ?? process.cwd();
const option = (flag: string) => {
  const index = process.argv.indexOf(flag);
  return index === -1 ? undefined : process.argv[index + 1];
};
const full = process.argv.includes('--full');
const buildDate = buildDateFrom(process.argv, process.env);
const contentDir = resolve(option('--content') ?? process.env.CONTENT_DIR ?? join(root, 'content'));
const outDir = resolve(option('--out') ?? join(root, 'dist'));
const siteDir = join(outDir, SITE_FOLDER);
const cacheDir = resolve(
  option('--cache') ?? process.env.COMPILED_CONTENT_DIR ?? join(root, '.content'),
);
const database = databaseOption();
const sources = process.env.LOCALBOARD_SOURCES ?? '';

const siteStampFile = join(outDir, 'build-stamp.json');
const ifNeeded = process.argv.includes('--if-needed') && !full;
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
if (
  ifNeeded &&
  readIfExists(siteStampFile) === siteStamp &&
  existsSync(join(siteDir, 'index.html'))
) {
  console.log(`The build in ${outDir} is up to date (content for ${buildDate}).`);
  process.exit(0);
}
timer.mark('stamps');

// The content and page steps work one batch of ads, one city at a time: a small young generation
// and a capped old one make V8 collect early instead of growing, so memory stays flat however many
// pages there are. The pages step's main thread holds the content index, the render groups and one
// city's ads (about 60 MB at a million ads): a lower cap keeps it, and the build, within its
// memory budget. Source maps: a failure names the TypeScript line.
// On Node 24, V8's memory saver mode too (core/node-runtime.mjs says why).
// A small site (smallSite()) is far from the budget: there the young generation is V8's usual size
// and memory saver mode is off, which spares a publish most of its garbage collections (a fifth
// of its CPU at 16,600 pages) for some 25 MB more at its peak.
/** About 55,000 pages: the shipped content (16,600) is small, the 100,000-ad benchmark (117,000) not. */
const SMALL_SITE_PAGE_HASH_BYTES = 8_000_000;
const small = smallSite(outDir);
const youngGeneration = small ? '--max-semi-space-size=16' : '--max-semi-space-size=2';
const saver = small ? [] : memorySaverFlags();
const NODE_OPTIONS_OF: Record<'compile-content' | 'prerender-pages', string[]> = {
  'compile-content': [
    '--max-old-space-size=160',
    youngGeneration,
    ...saver,
    '--enable-source-maps',
  ],
  'prerender-pages': [
    '--max-old-space-size=112',
    youngGeneration,
    ...saver,
    '--enable-source-maps',
  ],
};
// React's production build; glibc's malloc keeps fewer per-thread arenas (less memory held back).
const STEP_ENV = {
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
};
// The content step finds the database where a server would: DATABASE_URL, else DATABASE_PATH.
const stepEnvironment: NodeJS.ProcessEnv = { ...process.env, ...STEP_ENV };
delete stepEnvironment.DATABASE_URL;
delete stepEnvironment[HANDED_OVER_AT_VARIABLE];
if (database.url) stepEnvironment.DATABASE_URL = database.url;
else stepEnvironment.DATABASE_PATH = database.path;

const finish: BuildFinish = { outDir, siteStampFile, siteStamp, startedAt: Date.now() };
// The client build's files go into the site, each replaced whole and only when it changed (the
// server may be serving the site: a publish); old assets (their names carry a hash) leave once no
// page links to them (finish-build.ts). They come first: no page of this build exists yet.
mkdirSync(siteDir, { recursive: true });
copyFilesInto(join(outDir, 'client'), siteDir, notForTheSite);
timer.mark('client assets');
console.log(timer.line());
const steps = [
  stepCommand('Compiling content', 'compile-content', full ? ['--full'] : []),
  stepCommand('Prerendering pages', 'prerender-pages', [
    ...['--cache', cacheDir, '--vite', outDir, '--out', outDir],
    ...(full ? ['--full'] : []),
  ]),
];
// A small site's publish runs both steps in this process: two Node start-ups and their modules
// were most of its time (docs/benchmarks.md, "Publishing speed"), and its memory is far from the
// budget. Otherwise this process becomes the content step, which becomes the pages step, which
// finishes the build (hand-over.ts): no step runs beside a waiting one, and the budget counts
// every process at once.
if (small && !full && process.env.LOCALBOARD_BUILD_STEPS_APART !== '1') {
  for (const step of steps) await runStepHere(step);
  await finishBuild(finish);
  process.exit(0);
}
if (canHandOver()) {
  steps.at(-1)!.env[FINISH_VARIABLE] = JSON.stringify(finish);
  becomeSteps(steps);
}
for (const step of steps) exitIfFailed(await run(step));
await finishBuild(finish);

/** The database whose member ads are published: the options, else the environment. */
function databaseOption(): StoreLocation {
  const url = option('--database-url');
  if (url) return { url };
  const path = option('--database');
  if (path) return { path: resolve(path) };
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  return { path: resolve(process.env.DATABASE_PATH ?? join(root, 'data', 'localboard.sqlite')) };
}

/**
 * Whether the last build into `outDir` was of a small site: its page hashes (some 140 bytes a
 * page) under SMALL_SITE_PAGE_HASH_BYTES. No last build (the first, or --full after a wipe): not
 * known to be small.
 */
function smallSite(outDir: string): boolean {
  try {
    return statSync(pageHashFileOf(join(outDir, MANIFEST_FILE))).size < SMALL_SITE_PAGE_HASH_BYTES;
  } catch {
    return false;
  }
}

function readIfExists(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** A step of the build, as hand-over.ts runs it. */
function stepCommand(
  title: string,
  step: keyof typeof NODE_OPTIONS_OF,
  args: string[],
): StepCommand {
  const preload = process.env.BENCH_RSS_FILE
    ? ['--import', join(root, 'bench/report-peak-rss.mjs')]
    : [];
  const flags = [...preload, ...NODE_OPTIONS_OF[step]];
  return buildStepCommand(title, step, flags, args, stepEnvironment, root);
}

/** Runs one step in its own Node process (where Node cannot hand over); its exit code. */
async function run(step: StepCommand): Promise<number> {
  console.log(`• ${step.title}`);
  const child = spawn(process.execPath, step.args, {
    cwd: step.cwd,
    stdio: 'inherit',
    env: step.env,
  });
  return new Promise<number>((resolvePromise) =>
    child.once('exit', (exitCode) => resolvePromise(exitCode ?? 1)),
  );
}

/** A step that failed ends the build, with its exit code (it has said what went wrong). */
function exitIfFailed(code: number): void {
  if (code !== 0) process.exit(code);
}
