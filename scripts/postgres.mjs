// Finds PostgreSQL's server programs (initdb, pg_ctl), installs Debian's `postgresql` when there
// are none and this machine can (root, apt-get), and starts a throwaway cluster in a temp folder:
// the PostgreSQL suite of `npm test`, the two-instance end-to-end test and the benchmarks run on
// one. The cluster listens on 127.0.0.1 only, on a free port, trusts local connections, skips
// fsync (nothing in it outlives the run) and is removed by stop().
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isExecutable, whyNoInstall } from './chromium.mjs';

export const installCommand = 'apt-get update && apt-get install -y postgresql';

/** The folder of initdb and pg_ctl: POSTGRES_BIN_DIR, else Debian's newest, else pg_config's. */
export function findPostgresBinDir(env = process.env) {
  const candidates = [];
  if (env.POSTGRES_BIN_DIR) candidates.push(env.POSTGRES_BIN_DIR);
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  }
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (pgConfig.status === 0) candidates.push(pgConfig.stdout.trim());
  return candidates.find(
    (dir) => isExecutable(join(dir, 'initdb')) && isExecutable(join(dir, 'pg_ctl')),
  );
}

/** The programs' folder, installing Debian's package when needed and possible; or why not. */
export function ensurePostgres(log = console.log) {
  const found = findPostgresBinDir();
  if (found) return { binDir: found };
  const reason = whyNoInstall();
  if (reason)
    return {
      problem: `PostgreSQL's server programs (initdb, pg_ctl) are not here and ${reason}, so npm test can't install them. Run as root: ${installCommand}`,
    };
  log("No PostgreSQL found: installing Debian's postgresql with apt-get (once; about a minute).");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) =>
    spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
  if (!run(['update', '-qq']) || !run(['install', '-y', '-qq', 'postgresql']))
    return {
      problem: `Installing PostgreSQL with apt-get failed (see above). Try: ${installCommand}`,
    };
  const installed = findPostgresBinDir();
  return installed
    ? { binDir: installed }
    : { problem: `PostgreSQL was installed but initdb was not found. Set POSTGRES_BIN_DIR.` };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a new cluster; resolves to `{ url, port, dir, stop, stopServer, startServer }` (url:
 * postgres://localboard@127.0.0.1:PORT/localboard). stop() ends it and removes it; stopServer()
 * stops the server at once, as a crash or a lost database host would (pg_ctl stop -m immediate),
 * keeping its data, and startServer() starts it again on the same port (the outage tests).
 * As root, the cluster runs as the `postgres` user (PostgreSQL refuses root).
 */
export async function startThrowawayPostgres(
  binDir,
  { maxConnections = 300, settings: more = [] } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'localboard-pg-'));
  const data = join(dir, 'data');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let runAs = [];
  if (asRoot) {
    const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (id.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error('running as root, and there is no postgres user to run PostgreSQL as');
    }
    chownSync(dir, Number(id.stdout), Number(gid.stdout));
    runAs = ['runuser', '-u', 'postgres', '--'];
  }
  const run = (program, args) => {
    const command = [...runAs, join(binDir, program), ...args];
    const result = spawnSync(command[0], command.slice(1), { encoding: 'utf8', cwd: dir });
    if (result.status !== 0)
      throw new Error(
        `${program} failed: ${(result.stderr || result.stdout || '').trim().split('\n').pop()}`,
      );
  };
  try {
    run('initdb', [
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'localboard',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    const port = await freePort();
    const settings = [
      `-c listen_addresses=127.0.0.1`,
      `-p ${port}`,
      `-c unix_socket_directories=${dir}`,
      `-c fsync=off`,
      `-c synchronous_commit=off`,
      `-c full_page_writes=off`,
      `-c max_connections=${maxConnections}`,
      ...more.map((setting) => `-c ${setting}`),
    ].join(' ');
    const startServer = () =>
      run('pg_ctl', ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', 'start']);
    const stopServer = () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    startServer();
    run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'localboard', 'localboard']);
    return {
      url: `postgres://localboard@127.0.0.1:${port}/localboard`,
      port,
      dir,
      startServer,
      stopServer,
      stop() {
        try {
          stopServer();
        } catch {
          // Already stopped: the folder goes all the same.
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
