// What the benchmarks that serve generated ads from the real server share (bench/ad-lookups.ts,
// bench/search.ts): the worktree's build for the generated ads' build date, the ads written one
// file a state, and the build's content step (scripts/compile-content.ts under the build's heap
// cap) compiling them.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { benchAdStream, readWeightedCities } from './ads.ts';
import { writeContentSet } from './content.ts';
import { DEFAULT_BUILD_DATE, DEFAULT_SEED } from './options.ts';

const root = join(import.meta.dirname, '..');

/** The worktree's build (dist/server/serve.mjs) for the build date of the generated ads (the server then publishes nothing). */
export function ensureServerBuild() {
  const build = spawnSync(
    process.execPath,
    ['scripts/build.mjs', '--if-needed', '--date', DEFAULT_BUILD_DATE],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
  );
  if (build.status !== 0) throw new Error(`The build failed:\n${build.stdout}`);
}

/** `count` generated ads (seed and build date the benchmarks' defaults) in `contentDir`, one file a state; the cities they were drawn over. */
export function writeGeneratedAds(contentDir: string, count: number) {
  const cities = readWeightedCities(join(root, 'content'));
  const stream = benchAdStream({
    contentDir: join(root, 'content'),
    cities,
    seed: DEFAULT_SEED,
    count,
    buildDate: DEFAULT_BUILD_DATE,
  });
  writeContentSet(join(root, 'content'), contentDir, stream, count, 'per-state');
  return cities;
}

/** The build's content step on `paths.contentDir`, heap capped as the build caps it; its last line of output. */
export function compileGeneratedContent(paths: {
  contentDir: string;
  compiledDir: string;
  databasePath: string;
}): string {
  const compile = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--max-old-space-size=160',
      '--max-semi-space-size=2',
      'scripts/compile-content.ts',
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      encoding: 'utf8',
      env: {
        ...process.env,
        NODE_ENV: 'production',
        CONTENT_DIR: paths.contentDir,
        COMPILED_CONTENT_DIR: paths.compiledDir,
        DATABASE_PATH: paths.databasePath,
        BUILD_DATE: DEFAULT_BUILD_DATE,
      },
    },
  );
  if (compile.status !== 0) throw new Error(`The content step failed:\n${compile.stdout}`);
  return compile.stdout.trim().split('\n').at(-1) ?? '';
}
