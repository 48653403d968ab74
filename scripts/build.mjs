// `npm run build` starts here. Plain JavaScript, since it runs before anything is built: when the
// sources changed since Vite last built into the output folder (or with --full), Vite builds the
// client assets and the server build, whose entries include the build's own steps
// (pipeline/build-steps.ts, source maps on); then the build runs from there
// ({out}/server/build.mjs, made from pipeline/build.ts), with source maps. This process becomes
// Vite (and then itself again) rather than wait beside it (pipeline/hand-over.ts says why).
// Options: see pipeline/build.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { withLock } from '../pipeline/file-lock.mjs';
import { filesStamp, PROJECT_SOURCES } from '../pipeline/fingerprint.mjs';
import {
  isSupportedNode,
  memorySaverFlags,
  onFetchedNode,
  unsupportedNodeLine,
} from '../core/node-runtime.mjs';

if (!isSupportedNode()) {
  console.error(unsupportedNodeLine());
  process.exit(1);
}
// Said once, by the process the build started as (it may become Vite and the build again).
if (
  onFetchedNode() &&
  !process.env.LOCALBOARD_BUILD_VITE_STEP &&
  !process.env.LOCALBOARD_BUILD_VITE_BUILT
)
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

const VITE_STEP = 'LOCALBOARD_BUILD_VITE_STEP';
// Set by the Vite step when it becomes the build again: the sources' stamp it built.
const VITE_BUILT = 'LOCALBOARD_BUILD_VITE_BUILT';
const viteTitle = 'Building client assets (Vite + Vike)';
// The environment Vite runs in.
const viteEnvironment = {
  BUILD_STEP: viteTitle,
  // vite.config.ts reads it (Vike's command-line parser refuses Vite's --outDir).
  LOCALBOARD_VITE_OUT_DIR: relative(root, outDir) || '.',
  // Most of Vite's memory is Rolldown's, in mimalloc arenas that by default are committed whole,
  // on huge pages: committing on demand and returning freed pages at once takes the build from
  // about 265 MB to about 175 MB, at no cost in time.
  MIMALLOC_ARENA_EAGER_COMMIT: '0',
  MIMALLOC_ALLOW_LARGE_OS_PAGES: '0',
  MIMALLOC_PURGE_DELAY: '0',
};
const viteFlags = [
  ...(process.env.BENCH_RSS_FILE ? ['--import', join(root, 'bench/report-peak-rss.mjs')] : []),
  '--max-semi-space-size=2',
  ...memorySaverFlags(),
];
// One Vite at a time in this project (pipeline/file-lock.mjs says why).
const lockDir = join(root, 'node_modules', '.cache', 'localboard-vite.lock');

if (process.env[VITE_STEP]) await runViteHere();
const viteJustBuilt = process.env[VITE_BUILT] === sources;
delete process.env[VITE_BUILT];
const viteIsCurrent =
  existsSync(stampFile) &&
  readFileSync(stampFile, 'utf8') === sources &&
  existsSync(join(stepsDir, 'build.mjs'));
if (!viteJustBuilt && (process.argv.includes('--full') || !viteIsCurrent)) {
  // This process becomes Vite and then the build again (the build's steps never wait beside one
  // another: pipeline/hand-over.ts); where Node cannot (before 22.15), Vite runs as a child.
  if (typeof process.execve === 'function') {
    becomeNode(viteFlags, {
      ...process.env,
      ...viteEnvironment,
      [VITE_STEP]: JSON.stringify(process.execArgv),
    });
  }
  console.log(`• ${viteTitle}`);
  mkdirSync(dirname(lockDir), { recursive: true });
  const vite = await withLock(lockDir, () =>
    spawnSync(process.execPath, [...viteFlags, 'node_modules/vite/bin/vite.js', 'build'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, ...viteEnvironment },
    }),
  );
  if (vite.status !== 0) process.exit(vite.status ?? 1);
  viteBuilt();
}

process.env.LOCALBOARD_ROOT = root;
process.env.LOCALBOARD_STEPS_DIR = stepsDir;
process.env.LOCALBOARD_SOURCES = sources;
// The build's timings count its start from here, not from this script's own work nor Vite's
// (pipeline/step-timings.ts, HANDED_OVER_AT_VARIABLE: ms since the epoch, CPU µs used so far).
const { user, system } = process.cpuUsage();
process.env.LOCALBOARD_BUILD_HANDED_OVER_AT = `${Date.now()} ${user + system}`;
await import(pathToFileURL(join(stepsDir, 'build.mjs')).href);

/**
 * The Vite step, in the process the build started in: Vite and Vike build the client assets and the
 * build's steps, then this process becomes the build again (with the starter's own Node flags,
 * none of Vite's), which finds them current.
 */
async function runViteHere() {
  const starterFlags = JSON.parse(process.env[VITE_STEP] ?? '[]');
  console.log(`• ${viteTitle}`);
  mkdirSync(dirname(lockDir), { recursive: true });
  const failed = await withLock(lockDir, async () => {
    const { createBuilder } = await import('vite');
    try {
      await (await createBuilder({}, null)).buildApp();
      return false;
    } catch (error) {
      console.error(`error during build:\n${inspect(error)}`);
      return true;
    }
  });
  if (failed) process.exit(1);
  viteBuilt();
  const env = { ...process.env, [VITE_BUILT]: sources };
  for (const key of [VITE_STEP, ...Object.keys(viteEnvironment)]) delete env[key];
  becomeNode(starterFlags, env);
}

/** Vite's output is in place: the link its steps need, and the stamp of the sources it built. */
function viteBuilt() {
  // The steps import their dependencies from the project's node_modules: an output folder outside
  // the project (tests, the benchmark) gets a link to it, where Node looks for packages.
  const link = join(stepsDir, 'node_modules');
  if (relative(root, outDir).startsWith('..') && !existsSync(link)) {
    symlinkSync(join(root, 'node_modules'), link, 'dir');
  }
  writeFileSync(stampFile, sources);
}

/** This process becomes this script again, on `nodeFlags` and `env`: it never returns. */
function becomeNode(nodeFlags, env) {
  process.chdir(root);
  process.execve(
    process.execPath,
    [process.execPath, ...nodeFlags, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    env,
  );
  throw new Error('process.execve returned');
}
