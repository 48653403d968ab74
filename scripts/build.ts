// `npm run build`: validates and compiles the content and builds the client assets with Vite +
// Vike, side by side, then prerenders every page into {out}/client.
//   --date YYYY-MM-DD   publication day (which ads are live); default today, or BUILD_DATE
//   --if-needed         skip when nothing the build reads has changed since the last build
//   --full              build everything: content, pages and the client assets
//   --content DIR       content folder (default content/)
//   --out DIR           where the site goes: DIR/client (default dist/)
//   --cache DIR         compiled content (default .content/)
// Runs bundled, from .build/build.mjs: `npm run build` starts scripts/build.mjs, which bundles this
// file, the content and page steps (scripts/build-steps.ts) and their worker when they change.
// Two processes at most: Vite (only when the client's sources changed, or with --full) and the
// content and page steps.
// The client assets do not depend on content: Vite builds them into dist/ and they are copied
// when the site goes elsewhere. `--full` rebuilds them too, which empties dist/client.
import { fork, type ChildProcess } from 'node:child_process';
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

const started = performance.now();
const env = buildEnvironment();
const clientUpToDate = !full && readIfExists(clientStampFile) === clientSources && existsSync(join(distDir, 'server', 'entry.mjs'));
const stepsEntry = new URL('./build-steps.mjs', import.meta.url);
if (!existsSync(stepsEntry)) throw new Error('Run the build with `npm run build` (scripts/build.mjs), which bundles its steps first.');
// The steps work one file, one city at a time, so a small old generation keeps memory flat; the
// compile step's garbage is collected early instead of growing the heap.
const steps = start('Compiling content and prerendering pages', stepsEntry, ['--max-old-space-size=160'], { NODE_ENV: 'production' }, [
  ...['--date', buildDate, '--content', contentDir, '--cache', cacheDir, '--dist', distDir, '--out', outDir],
  ...(full ? ['--full'] : []),
]);
const stepsDone = exited(steps);
if (clientUpToDate) {
  console.log('• Client assets are up to date');
} else {
  const vite = start('Building client assets (Vite + Vike)', 'node_modules/vite/bin/vite.js', ['--max-old-space-size=128'], {}, ['build']);
  await Promise.race([exited(vite), stepsDone]);
  // The first step that fails ends the build (content problems usually come first).
  if (steps.exitCode !== null && steps.exitCode !== 0) stop(vite, steps.exitCode);
  await exited(vite);
  if (vite.exitCode !== 0) stop(steps, vite.exitCode ?? 1);
  writeFileSync(clientStampFile, clientSources);
}
if (outDir !== distDir) {
  // The client build's own files only: dist/client also holds the pages of the default build.
  cpSync(join(distDir, 'client', 'assets'), join(outDir, 'client', 'assets'), { recursive: true });
  cpSync(join(root, 'public'), join(outDir, 'client'), { recursive: true });
}
if (steps.exitCode === null) steps.send('client-ready');
await stepsDone;
if (steps.exitCode !== 0) process.exit(steps.exitCode ?? 1);
mkdirSync(outDir, { recursive: true });
writeFileSync(siteStampFile, siteStamp);
console.log(`Build finished in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

function readIfExists(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** Starts one step in its own Node process, with an IPC channel. */
function start(title: string, script: string | URL, nodeOptions: string[], extraEnv: NodeJS.ProcessEnv, args: string[]): ChildProcess {
  console.log(`• ${title}`);
  const preload = process.env.BENCH_RSS_FILE ? ['--import', join(root, 'scripts/lib/report-peak-rss.mjs')] : [];
  return fork(script, args, { cwd: root, stdio: 'inherit', execArgv: [...preload, ...nodeOptions], env: { ...env, ...extraEnv, BUILD_STEP: title } });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null) resolvePromise();
    else child.once('exit', () => resolvePromise());
  });
}

/** Stops the other step and the build. */
function stop(other: ChildProcess, code: number): never {
  other.kill();
  process.exit(code);
}

/** This environment minus a test runner's markers (Vike stands aside when it sees Vitest's). */
function buildEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BUILD_DATE: buildDate, CONTENT_DIR: contentDir, COMPILED_CONTENT_DIR: cacheDir, LOCALBOARD_SOURCES: clientSources };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key];
  return env;
}
