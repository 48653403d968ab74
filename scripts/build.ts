// `npm run build`: validates and compiles content, builds the client assets with Vite + Vike (the
// two run side by side), then prerenders every page into {out}/client.
//   --date YYYY-MM-DD   publication day (which ads are live); default today, or BUILD_DATE
//   --if-needed         skip when nothing the build reads has changed since the last build
//   --content DIR       content folder (default content/)
//   --out DIR           build output (default dist/): the site goes to DIR/client
//   --cache DIR         compiled content (default .content/)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildDateFrom } from './lib/build-date.ts';
import { sourceFingerprint } from './lib/fingerprint.ts';

const root = join(import.meta.dirname, '..');
const option = (flag: string) => {
  const index = process.argv.indexOf(flag);
  return index === -1 ? undefined : process.argv[index + 1];
};
const buildDate = buildDateFrom(process.argv, process.env);
const contentDir = resolve(option('--content') ?? process.env.CONTENT_DIR ?? join(root, 'content'));
const outDir = resolve(option('--out') ?? join(root, 'dist'));
const cacheDir = resolve(option('--cache') ?? process.env.COMPILED_CONTENT_DIR ?? join(root, '.content'));
const stampFile = join(outDir, 'build-stamp.json');
const stamp = JSON.stringify({
  buildDate,
  content: sourceFingerprint(contentDir, ['.']),
  sources: sourceFingerprint(root, ['src', 'renderer', 'public', 'vite.config.ts', 'package-lock.json']),
});

if (process.argv.includes('--if-needed') && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
  console.log(`The build in ${outDir} is up to date (content for ${buildDate}).`);
  process.exit(0);
}

const started = performance.now();
const env = buildEnvironment();
await Promise.all([
  run('Checking and compiling content', ['--import', 'tsx', 'scripts/compile-content.ts', '--date', buildDate]),
  run('Building client assets (Vite + Vike)', ['node_modules/vite/bin/vite.js', 'build']),
]);
await run('Prerendering pages', ['--import', 'tsx', 'src/prerender/run.ts', '--dist', outDir]);
mkdirSync(outDir, { recursive: true });
writeFileSync(stampFile, stamp);
console.log(`Build finished in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

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
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BUILD_DATE: buildDate,
    CONTENT_DIR: contentDir,
    COMPILED_CONTENT_DIR: cacheDir,
    LOCALBOARD_DIST_DIR: outDir,
  };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key];
  return env;
}
