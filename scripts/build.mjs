// `npm run build` starts here. Plain JavaScript, since it runs before anything is built: when the
// sources changed since Vite last built into the output folder (or with --full), Vite builds the
// client assets and the server build, whose entries include the build's own steps
// (src/build/build-steps.ts, source maps on); then the build runs from there ({out}/server/build.mjs, made from
// src/build/build.ts), with source maps. Options: see src/build/build.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { withLock } from '../src/build/file-lock.mjs';
import { filesStamp, PROJECT_SOURCES } from '../src/build/fingerprint.mjs';
import {
  isSupportedNode,
  memorySaverFlags,
  onFetchedNode,
  unsupportedNodeLine,
} from './node-runtime.mjs';

if (!isSupportedNode()) {
  console.error(unsupportedNodeLine());
  process.exit(1);
}
if (onFetchedNode())
  console.log(
    `• On Node.js ${process.versions.node} from .node/, the pinned Node fetched from the npm registry (.node-version)`,
  );

const root = join(import.meta.dirname, '..');
const flag = (name) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
};
const outDir = resolve(flag('--out') ?? join(root, 'dist'));
const stepsDir = join(outDir, 'server');
const stampFile = join(stepsDir, 'sources-stamp.txt');
const sources = filesStamp(root, PROJECT_SOURCES);

// Vike stands aside when it sees a test runner's markers: the build never runs as part of a test.
for (const key of Object.keys(process.env)) {
  if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete process.env[key];
}

const viteIsCurrent =
  existsSync(stampFile) &&
  readFileSync(stampFile, 'utf8') === sources &&
  existsSync(join(stepsDir, 'build.mjs'));
if (process.argv.includes('--full') || !viteIsCurrent) {
  const title = 'Building client assets (Vite + Vike)';
  console.log(`• ${title}`);
  const preload = process.env.BENCH_RSS_FILE
    ? ['--import', join(root, 'bench/report-peak-rss.mjs')]
    : [];
  // One Vite at a time in this project (src/build/file-lock.mjs says why).
  const lockDir = join(root, 'node_modules', '.cache', 'localboard-vite.lock');
  mkdirSync(dirname(lockDir), { recursive: true });
  const vite = await withLock(lockDir, () =>
    spawnSync(
      process.execPath,
      [
        ...preload,
        '--max-semi-space-size=2',
        ...memorySaverFlags(),
        'node_modules/vite/bin/vite.js',
        'build',
      ],
      {
        cwd: root,
        stdio: 'inherit',
        env: {
          ...process.env,
          BUILD_STEP: title,
          // vite.config.ts reads it (Vike's command-line parser refuses Vite's --outDir).
          LOCALBOARD_VITE_OUT_DIR: relative(root, outDir) || '.',
          // Most of Vite's memory is Rolldown's, in mimalloc arenas that by default are committed
          // whole, on huge pages: committing on demand and returning freed pages at once takes the
          // build from about 265 MB to about 175 MB, at no cost in time.
          MIMALLOC_ARENA_EAGER_COMMIT: '0',
          MIMALLOC_ALLOW_LARGE_OS_PAGES: '0',
          MIMALLOC_PURGE_DELAY: '0',
        },
      },
    ),
  );
  if (vite.status !== 0) process.exit(vite.status ?? 1);
  // The steps import their dependencies from the project's node_modules: an output folder outside
  // the project (tests, the benchmark) gets a link to it, where Node looks for packages.
  if (relative(root, outDir).startsWith('..')) {
    symlinkSync(join(root, 'node_modules'), join(stepsDir, 'node_modules'), 'dir');
  }
  writeFileSync(stampFile, sources);
}

process.env.LOCALBOARD_ROOT = root;
process.env.LOCALBOARD_STEPS_DIR = stepsDir;
process.env.LOCALBOARD_SOURCES = sources;
await import(pathToFileURL(join(stepsDir, 'build.mjs')).href);
