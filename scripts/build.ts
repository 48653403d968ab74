// `npm run build`: validates and compiles content and builds the client assets with Vite + Vike
// (side by side), then prerenders every page into {out}/client.
//   --date YYYY-MM-DD   publication day (which ads are live); default today, or BUILD_DATE
//   --if-needed         skip when nothing the build reads has changed since the last build
//   --full              build everything, even the client assets when their sources are unchanged
//   --content DIR       content folder (default content/)
//   --out DIR           where the site goes: DIR/client (default dist/)
//   --cache DIR         compiled content (default .content/)
// The client assets do not depend on content: Vite builds them into dist/ and they are copied
// when the site goes elsewhere. `--full` rebuilds them too, which empties dist/client.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildDateFrom } from './lib/build-date.ts';
import { bundlePrerenderer } from './lib/bundle-prerender.ts';
import { sourceFingerprint } from './lib/fingerprint.ts';

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
const clientStampFile = join(distDir, 'client-build-stamp.txt');
const siteStampFile = join(outDir, 'build-stamp.json');
const siteStamp = JSON.stringify({ buildDate, content: sourceFingerprint(contentDir, ['.']), sources: clientSources });

if (process.argv.includes('--if-needed') && !full && readIfExists(siteStampFile) === siteStamp) {
  console.log(`The build in ${outDir} is up to date (content for ${buildDate}).`);
  process.exit(0);
}

// A small old generation makes V8 collect garbage early instead of growing: memory stays flat
// however much content there is (each step works one file or one state at a time).
const HEAP_LIMIT = ['--max-old-space-size=128'];
const started = performance.now();
const env = buildEnvironment();
const clientUpToDate = !full && readIfExists(clientStampFile) === clientSources && existsSync(join(distDir, 'server', 'entry.mjs'));
await Promise.all([
  bundlePrerenderer(root),
  // Compile reads one file at a time; a roomier heap spares it garbage collection, not memory.
  run('Checking and compiling content', ['--max-old-space-size=512', '--import', 'tsx', 'scripts/compile-content.ts', '--date', buildDate, ...(full ? ['--full'] : [])]),
  clientUpToDate
    ? console.log('• Client assets are up to date')
    : run('Building client assets (Vite + Vike)', [...HEAP_LIMIT, 'node_modules/vite/bin/vite.js', 'build']).then(() => writeFileSync(clientStampFile, clientSources)),
]);
if (outDir !== distDir) {
  // The client build's own files only: dist/client also holds the pages of the default build.
  cpSync(join(distDir, 'client', 'assets'), join(outDir, 'client', 'assets'), { recursive: true });
  cpSync(join(root, 'public'), join(outDir, 'client'), { recursive: true });
}
await run('Prerendering pages', [...HEAP_LIMIT, '.prerender/run.mjs', '--dist', distDir, '--out', join(outDir, 'client'), ...(full ? ['--full'] : [])]);
mkdirSync(outDir, { recursive: true });
writeFileSync(siteStampFile, siteStamp);
console.log(`Build finished in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

function readIfExists(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** Runs one step in its own Node process; the build stops at the first step that fails. */
function run(title: string, args: string[]): Promise<void> {
  console.log(`• ${title}`);
  const preload = process.env.BENCH_RSS_FILE ? ['--import', join(root, 'scripts/lib/report-peak-rss.mjs')] : [];
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [...preload, ...args], { cwd: root, stdio: 'inherit', env: { ...env, BUILD_STEP: title } });
    child.on('exit', (code) => {
      if (code !== 0) process.exit(code ?? 1);
      resolvePromise();
    });
  });
}

/** This environment minus a test runner's markers (Vike stands aside when it sees Vitest's). */
function buildEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BUILD_DATE: buildDate, CONTENT_DIR: contentDir, COMPILED_CONTENT_DIR: cacheDir, LOCALBOARD_SOURCES: clientSources };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key];
  return env;
}
