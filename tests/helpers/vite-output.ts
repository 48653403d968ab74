// What Vite makes in a build's output folder (the client assets in {out}/client, the build's own
// steps in {out}/server) depends on the project's sources only, never on the content. A test that
// builds a site into a fresh folder starts it from a copy of dist/'s when that is current (in a
// whole run the e2e set-up has just built it), so that scripts/build.mjs finds Vite's output
// current and goes straight to the content: Vite takes 4–5 s a build here, one at a time in the
// project (pipeline/file-lock.mjs), and the build tests made it a dozen times a run. When dist/ is
// missing or older than the sources, nothing is copied and the build runs Vite itself. The tests
// of the Vite step itself (parallel builds, --full, the pinned Node) do not use this. buildSite
// runs such a build as an operator's `npm run build` does.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { filesStamp, PROJECT_SOURCES } from '../../pipeline/fingerprint.mjs';
import { buildPublisher, type BuildPublisher } from '../../server/publishing/build-publisher.ts';

const root = join(import.meta.dirname, '..', '..');
const dist = join(root, 'dist');

/** Whether dist/ holds Vite's output of the sources as they are now. */
function distViteIsCurrent(): boolean {
  const stamp = join(dist, 'server', 'sources-stamp.txt');
  return (
    existsSync(stamp) &&
    existsSync(join(dist, 'server', 'build.mjs')) &&
    readFileSync(stamp, 'utf8') === filesStamp(root, PROJECT_SOURCES)
  );
}

/**
 * Puts dist/'s current Vite output into `outDir` when it has none yet; answers whether it did (the
 * build then skips its Vite step).
 */
export function withViteOutputOfDist(outDir: string): boolean {
  if (existsSync(join(outDir, 'server', 'sources-stamp.txt')) || !distViteIsCurrent()) return false;
  cpSync(join(dist, 'client'), join(outDir, 'client'), { recursive: true });
  cpSync(join(dist, 'server'), join(outDir, 'server'), {
    recursive: true,
    filter: (path) => basename(path) !== 'node_modules',
  });
  // As scripts/build.mjs links it for an output folder outside the project: the steps import the
  // project's dependencies.
  symlinkSync(join(root, 'node_modules'), join(outDir, 'server', 'node_modules'), 'dir');
  return true;
}

/** This process's environment for a child build: vitest's variables and NODE_ENV left out. */
export function childBuildEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const key of Object.keys(env))
    if (key.startsWith('VITEST') || key === 'NODE_ENV') delete env[key];
  return env;
}

export interface SiteBuild {
  date: string;
  out: string;
  cache: string;
  /** The content folder; the shipped content when not given. */
  content?: string;
  /** `--database {path}` or `--database-url {url}` (see databaseArgs). */
  database: string[];
  /** More options of scripts/build.mjs. */
  options?: string[];
  env?: NodeJS.ProcessEnv;
}

/** The build's options for a test store's database (test-store.ts `env`). */
export const databaseArgs = (env: { DATABASE_URL: string } | { DATABASE_PATH: string }) =>
  'DATABASE_URL' in env ? ['--database-url', env.DATABASE_URL] : ['--database', env.DATABASE_PATH];

/**
 * The build publisher (server/publishing/build-publisher.ts) of a test that builds `content` into
 * `{work}/out`, its compiled content in `{work}/cache` (as buildSite with those folders), and
 * publishes the live member ads of the test's store (test-store.ts `env`).
 */
export function testBuildPublisher(settings: {
  work: string;
  content: string;
  env: { DATABASE_URL: string } | { DATABASE_PATH: string };
  buildDate: () => string;
  log: (line: string) => void;
}): BuildPublisher {
  const { work, env } = settings;
  return buildPublisher({
    outDir: join(work, 'out'),
    database: 'DATABASE_URL' in env ? { url: env.DATABASE_URL } : { path: env.DATABASE_PATH },
    contentDir: settings.content,
    compiledContentDir: join(work, 'cache'),
    buildDate: settings.buildDate,
    log: settings.log,
  });
}

/**
 * scripts/build.mjs into `out`, as `npm run build` runs it, starting from dist/'s Vite output
 * (withViteOutputOfDist); throws with its output when it fails, else answers its output.
 */
export function buildSite(build: SiteBuild): { stdout: string; stderr: string } {
  withViteOutputOfDist(build.out);
  const built = spawnSync(
    process.execPath,
    [
      'scripts/build.mjs',
      ...['--date', build.date, ...(build.content ? ['--content', build.content] : [])],
      ...['--out', build.out, '--cache', build.cache, ...build.database, ...(build.options ?? [])],
    ],
    { cwd: root, encoding: 'utf8', env: build.env ?? childBuildEnv() },
  );
  if (built.status !== 0) throw new Error(`build failed:\n${built.stdout}\n${built.stderr}`);
  return { stdout: built.stdout, stderr: built.stderr };
}

/** Every file under `dir`, by its path there, with a hash of its bytes. */
export function filesWithHashes(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else
        files.set(relative(dir, path), createHash('sha1').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(dir);
  return files;
}

/** The paths added, removed or changed between two of filesWithHashes, sorted. */
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((path) => before.get(path) !== after.get(path)).sort();
}
