// `npm run build`: validates and compiles content, builds the client assets with Vite + Vike,
// then prerenders every page into dist/client. `--date YYYY-MM-DD` sets the publication day.
// `--if-needed` skips the build when nothing it reads has changed since the last one.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDateFrom } from './lib/build-date.ts';
import { sourceFingerprint } from './lib/fingerprint.ts';

const root = join(import.meta.dirname, '..');
const buildDate = buildDateFrom(process.argv, process.env);
const stampFile = join(root, 'dist', 'build-stamp.json');
const stamp = JSON.stringify({ buildDate, sources: sourceFingerprint(root, ['content', 'src', 'renderer', 'public', 'vite.config.ts', 'package-lock.json']) });

if (process.argv.includes('--if-needed') && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
  console.log(`The build in dist/ is up to date (content for ${buildDate}).`);
  process.exit(0);
}

const started = performance.now();
run('Checking and compiling content', ['node', '--import', 'tsx', 'scripts/compile-content.ts', '--date', buildDate]);
run('Building client assets (Vite + Vike)', ['node', 'node_modules/vite/bin/vite.js', 'build']);
run('Prerendering pages', ['node', '--import', 'tsx', 'src/prerender/run.ts', '--out', 'dist/client']);
writeFileSync(stampFile, stamp);
console.log(`Build finished in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

function run(title: string, [command, ...args]: string[]) {
  console.log(`• ${title}`);
  const result = spawnSync(command!, args, { cwd: root, stdio: 'inherit', env: buildEnvironment() });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** This environment minus a test runner's markers: Vike stands aside when it sees Vitest's. */
function buildEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BUILD_DATE: buildDate };
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key];
  return env;
}
