// `npm run build`: builds the client assets with Vite + Vike when their sources changed, then
// validates and compiles the content and prerenders every page into {out}/client.
//   --date YYYY-MM-DD   publication day (which ads are live); default today, or BUILD_DATE
//   --if-needed         skip when nothing the build reads has changed since the last build
//   --full              build everything: content, pages and the client assets
//   --content DIR       content folder (default content/)
//   --out DIR           where the site goes: DIR/client (default dist/)
//   --cache DIR         compiled content (default .content/)
// Runs bundled, from .build/build.mjs: `npm run build` starts scripts/build.mjs, which bundles this
// file, the content and page steps (scripts/build-steps.ts) and their workers when they change.
// The two steps run one after the other, each in its own Node process, so that their memory never
// adds up: Vite (only when the client's sources changed, or with --full; about a second), then
// the content and page steps.
// The client assets do not depend on content: Vite builds them into dist/ and they are copied
// when the site goes elsewhere. `--full` rebuilds them too, which empties dist/client.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildDateFrom } from './lib/build-date.ts';
import { sourceFingerprint } from './lib/fingerprint.ts';
import { CLIENT_STAMP_FILE } from '../src/prerender/page-assets.ts';

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
const cacheDir = resolve(option('--cache') ?? process.env.COMPILED_CONTENT_DIR ?? join(root, '.content'));

const clientSources = sourceFingerprint(root, ['src', 'renderer', 'public', 'vite.config.ts', 'package-lock.json']);
const stepSources = sourceFingerprint(root, ['src', 'renderer', 'scripts', 'package.json', 'package-lock.json']);
const clientStampFile = join(distDir, CLIENT_STAMP_FILE);
const siteStampFile = join(outDir, 'build-stamp.json');
const siteStamp = JSON.stringify({ buildDate, content: sourceFingerprint(contentDir, ['.']), sources: stepSources });

if (process.argv.includes('--if-needed') && !full && readIfExists(siteStampFile) === siteStamp) {
  console.log(`The build in ${outDir} is up to date (content for ${buildDate}).`);
  process.exit(0);
}

// Vite's memory is mostly Rolldown's, outside the JavaScript heap: one thread for each of its
// pools keeps it lower at little cost (the client build is small).
const VITE_ENV = { UV_THREADPOOL_SIZE: '1', RAYON_NUM_THREADS: '1', TOKIO_WORKER_THREADS: '1' };
const VITE_NODE_OPTIONS = ['--max-semi-space-size=2'];
// The steps work one file, one city at a time: a small young generation and a capped old one make
// V8 collect early instead of growing, so memory stays flat however many pages there are.
const STEPS_NODE_OPTIONS = ['--max-old-space-size=160', '--max-semi-space-size=2'];

const started = performance.now();
const env = buildEnvironment();
const clientUpToDate = !full && readIfExists(clientStampFile) === clientSources && existsSync(join(distDir, 'server', 'entry.mjs'));
const stepsEntry = new URL('./build-steps.mjs', import.meta.url);
if (!existsSync(stepsEntry)) throw new Error('Run the build with `npm run build` (scripts/build.mjs), which bundles its steps first.');
if (clientUpToDate) {
  console.log('• Client assets are up to date');
} else {
  const vite = start('Building client assets (Vite + Vike)', 'node_modules/vite/bin/vite.js', VITE_NODE_OPTIONS, VITE_ENV, ['build']);
  await exited(vite);
  if (vite.exitCode !== 0) process.exit(vite.exitCode ?? 1);
  writeFileSync(clientStampFile, clientSources);
}
if (outDir !== distDir) {
  // The client build's own files only: dist/client also holds the pages of the default build.
  cpSync(join(distDir, 'client', 'assets'), join(outDir, 'client', 'assets'), { recursive: true });
  cpSync(join(root, 'public'), join(outDir, 'client'), { recursive: true });
}
const steps = start('Compiling content and prerendering pages', stepsEntry, STEPS_NODE_OPTIONS, { NODE_ENV: 'production' }, [
  ...['--date', buildDate, '--content', contentDir, '--cache', cacheDir, '--dist', distDir, '--out', outDir],
  ...(full ? ['--full'] : []),
]);
await exited(steps);
if (steps.exitCode !== 0) process.exit(steps.exitCode ?? 1);
mkdirSync(outDir, { recursive: true });
writeFileSync(siteStampFile, siteStamp);
console.log(`Build finished in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

function readIfExists(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** Starts one step in its own Node process. */
function start(title: string, script: string | URL, nodeOptions: string[], extraEnv: NodeJS.ProcessEnv, args: string[]): ChildProcess {
  console.log(`• ${title}`);
  const preload = process.env.BENCH_RSS_FILE ? ['--import', join(root, 'scripts/lib/report-peak-rss.mjs')] : [];
  const path = script instanceof URL ? fileURLToPath(script) : script;
  return spawn(process.execPath, [...preload, ...nodeOptions, path, ...args], { cwd: root, stdio: 'inherit', env: { ...env, ...extraEnv, BUILD_STEP: title } });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null) resolvePromise();
    else child.once('exit', () => resolvePromise());
  });
}

/** This environment minus a test runner's markers (Vike stands aside when it sees Vitest's). */
function buildEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BUILD_DATE: buildDate, CONTENT_DIR: contentDir, COMPILED_CONTENT_DIR: cacheDir, LOCALBOARD_SOURCES: clientSources };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key];
  return env;
}
