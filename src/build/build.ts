// `npm run build`: validates and compiles the content, builds the client assets with Vite + Vike
// when their sources changed, and prerenders every page into {out}/site.
//   --date YYYY-MM-DD   publication day (which ads are live); default today, or BUILD_DATE
//   --if-needed         skip when nothing the build reads has changed since the last build
//   --full              build everything: content, pages and the client assets
//   --content DIR       content folder (default content/)
//   --out DIR           where the site goes: DIR/site, with the build manifest beside it (default dist/)
//   --cache DIR         compiled content (default .content/)
// Runs bundled, from .build/build.mjs: `npm run build` starts scripts/build.mjs, which bundles this
// file, the content and page steps and their workers when they change.
// The steps run one after the other, each in a Node process of its own, so that their memory never
// adds up and none inherits another's: the content (scripts/compile-content.ts), Vite (only when
// the client's sources changed, or with --full; about a second), then the pages
// (scripts/prerender-pages.ts).
// The client assets do not depend on content: Vite builds them into dist/client (and Vike's server
// build into dist/server), and they are copied into the site. `--full` rebuilds them too.
import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDateFrom } from './build-date.ts';
import { withLock } from './file-lock.mjs';
import { sourceFingerprint } from './fingerprint.mjs';
import { CLIENT_STAMP_FILE } from './prerender/page-assets.ts';
import { SITE_FOLDER } from './prerender/output-layout.ts';

const root = join(import.meta.dirname, '..');
const option = (flag: string) => {
  const index = process.argv.indexOf(flag);
  return index === -1 ? undefined : process.argv[index + 1];
};
const full = process.argv.includes('--full');
const buildDate = buildDateFrom(process.argv, process.env);
const contentDir = resolve(option('--content') ?? process.env.CONTENT_DIR ?? join(root, 'content'));
const distDir = join(root, 'dist');
const outDir = resolve(option('--out') ?? distDir);
const siteDir = join(outDir, SITE_FOLDER);
const cacheDir = resolve(
  option('--cache') ?? process.env.COMPILED_CONTENT_DIR ?? join(root, '.content'),
);

const clientSources = sourceFingerprint(root, [
  'src',
  'renderer',
  'public',
  'vite.config.ts',
  'package-lock.json',
]);
const stepSources = sourceFingerprint(root, [
  'src',
  'renderer',
  'scripts',
  'package.json',
  'package-lock.json',
]);
const clientStampFile = join(distDir, CLIENT_STAMP_FILE);
const siteStampFile = join(outDir, 'build-stamp.json');
const siteStamp = JSON.stringify({
  buildDate,
  content: sourceFingerprint(contentDir, ['.']),
  sources: stepSources,
});

if (
  process.argv.includes('--if-needed') &&
  !full &&
  readIfExists(siteStampFile) === siteStamp &&
  existsSync(join(siteDir, 'index.html'))
) {
  console.log(`The build in ${outDir} is up to date (content for ${buildDate}).`);
  process.exit(0);
}

// Most of Vite's memory is Rolldown's, outside the JavaScript heap, in mimalloc arenas that by
// default are committed whole and backed by huge pages: committing on demand and returning freed
// pages at once takes the client build from about 265 MB to about 175 MB, at no cost in time.
const VITE_ENV = {
  MIMALLOC_ARENA_EAGER_COMMIT: '0',
  MIMALLOC_ALLOW_LARGE_OS_PAGES: '0',
  MIMALLOC_PURGE_DELAY: '0',
};
const VITE_NODE_OPTIONS = ['--max-semi-space-size=2'];
// The content and page steps work one file, one city at a time: a small young generation and a
// capped old one make V8 collect early instead of growing, so memory stays flat however many pages
// there are.
const STEP_NODE_OPTIONS = ['--max-old-space-size=160', '--max-semi-space-size=2'];
// React's production build; glibc's malloc keeps fewer per-thread arenas (less memory held back).
const STEP_ENV = { NODE_ENV: 'production', MALLOC_ARENA_MAX: '2' };

const started = performance.now();
const env = buildEnvironment();
const clientIsCurrent = () =>
  readIfExists(clientStampFile) === clientSources &&
  existsSync(join(distDir, 'server', 'entry.mjs'));
const bundled = (name: string) => new URL(`./${name}.mjs`, import.meta.url);
if (!existsSync(bundled('prerender-pages')))
  throw new Error(
    'Run the build with `npm run build` (scripts/build.mjs), which bundles its steps first.',
  );
// Content first: a content problem is reported before anything else is built.
exitIfFailed(
  await run(
    'Compiling content',
    bundled('compile-content'),
    STEP_NODE_OPTIONS,
    STEP_ENV,
    full ? ['--full'] : [],
  ),
);
mkdirSync(distDir, { recursive: true });
// Vike's page-file globs make Rolldown walk every folder of the project but dot-folders, and a
// site of 100,000 pages has 100,000 folders: while Vite runs, a site inside the project waits
// under a dot-name (put back by the next build, should this one be stopped meanwhile).
const siteAside = join(outDir, `.${SITE_FOLDER}-while-vite-runs`);
// Another build of this project may be building the client right now (the test suites start
// several): one at a time, and not again once it is current.
const viteExit = await withLock(join(distDir, '.client-build.lock'), async () => {
  if (existsSync(siteAside) && !existsSync(siteDir)) renameSync(siteAside, siteDir);
  if (!full && clientIsCurrent()) {
    console.log('• Client assets are up to date');
    return 0;
  }
  const hideSite = siteDir.startsWith(`${root}${sep}`) && existsSync(siteDir);
  if (hideSite) renameSync(siteDir, siteAside);
  const code = await run(
    'Building client assets (Vite + Vike)',
    'node_modules/vite/bin/vite.js',
    VITE_NODE_OPTIONS,
    VITE_ENV,
    ['build'],
  );
  if (hideSite) renameSync(siteAside, siteDir);
  if (code === 0) writeFileSync(clientStampFile, clientSources);
  return code;
});
exitIfFailed(viteExit);
// The client build's files go into the site (the old assets out first: their names carry a hash).
rmSync(join(siteDir, 'assets'), { recursive: true, force: true });
cpSync(join(distDir, 'client'), siteDir, {
  recursive: true,
  filter: (path) => !path.includes('/.vite'),
});
exitIfFailed(
  await run('Prerendering pages', bundled('prerender-pages'), STEP_NODE_OPTIONS, STEP_ENV, [
    ...['--cache', cacheDir, '--vite', distDir, '--out', outDir],
    ...(full ? ['--full'] : []),
  ]),
);
mkdirSync(outDir, { recursive: true });
writeFileSync(siteStampFile, siteStamp);
console.log(`Build finished in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

function readIfExists(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** Runs one step in its own Node process; its exit code. */
async function run(
  title: string,
  script: string | URL,
  nodeOptions: string[],
  extraEnv: NodeJS.ProcessEnv,
  args: string[],
): Promise<number> {
  console.log(`• ${title}`);
  const preload = process.env.BENCH_RSS_FILE
    ? ['--import', join(root, 'bench/report-peak-rss.mjs')]
    : [];
  const path = script instanceof URL ? fileURLToPath(script) : script;
  const child = spawn(process.execPath, [...preload, ...nodeOptions, path, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, ...extraEnv, BUILD_STEP: title },
  });
  return new Promise<number>((resolvePromise) =>
    child.once('exit', (exitCode) => resolvePromise(exitCode ?? 1)),
  );
}

/** A step that failed ends the build, with its exit code (it has said what went wrong). */
function exitIfFailed(code: number): void {
  if (code !== 0) process.exit(code);
}

/** This environment minus a test runner's markers (Vike stands aside when it sees Vitest's). */
function buildEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BUILD_DATE: buildDate,
    CONTENT_DIR: contentDir,
    COMPILED_CONTENT_DIR: cacheDir,
    LOCALBOARD_SOURCES: clientSources,
  };
  for (const key of Object.keys(env))
    if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key];
  return env;
}
