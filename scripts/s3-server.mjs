// Finds a real S3 server for the tests, Ceph's RADOS Gateway (`radosgw`, Debian's 16.2), installs
// it when it is missing and this machine can (root, apt-get), as scripts/postgres.mjs does for
// PostgreSQL, and starts a throwaway one in a temp folder: one `ceph-mon`, one `ceph-osd` keeping
// its objects in memory (memstore), no `ceph-mgr`, no authentication inside the cluster, and
// `radosgw` answering the S3 API on 127.0.0.1 only, on a free port. The S3 tests of `npm test`
// run on one (tests/helpers/s3-global-setup.ts). Settings that make it work here, each measured:
// - `ms mon client mode = crc`: with `auth … = none` the clients otherwise hang at connecting;
// - `paxos propose interval = 0.1`: radosgw creates its six pools at start, a second or more
//   each at the default (1 s);
// - pools of size 1 and 8 placement groups (one OSD; the default 32 each crosses its PG limit);
// - a short garbage collection, else deleted objects stay in memory for hours;
// - radosgw is stopped before the OSD, else it hangs at stopping.
// What it answers differently from AWS: CompleteMultipartUpload gives an empty ETag (HEAD gives
// the right one); a stream body with the SDK's default checksums gets 411 (docs/architecture.md).
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isExecutable, whyNoInstall } from './chromium.mjs';
import { freePort } from './postgres.mjs';

export const packages = ['ceph-mon', 'ceph-osd', 'radosgw'];
export const installCommand = `apt-get update && apt-get install -y --no-install-recommends ${packages.join(' ')}`;
const programs = ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'monmaptool', 'ceph'];

/** Where Debian (and a build from source) put Ceph's programs. */
export const usualS3ServerBinDirs = ['/usr/bin', '/usr/local/bin'];

/** The programs a throwaway server runs (startThrowawayS3Server). */
export const s3ServerPrograms = programs;

/**
 * The folder of radosgw and Ceph's programs: S3_SERVER_BIN_DIR when set (and then only it), else
 * the first usual folder that has them all; undefined when none has.
 */
export function findS3ServerBinDir(env = process.env, usual = usualS3ServerBinDirs) {
  const candidates = env.S3_SERVER_BIN_DIR ? [env.S3_SERVER_BIN_DIR] : usual;
  return candidates.find((dir) => programs.every((name) => isExecutable(join(dir, name))));
}

/** The programs' folder, installing Debian's packages when needed and possible; or why not. */
export function ensureS3Server(log = console.log) {
  const found = findS3ServerBinDir();
  if (found) return { binDir: found };
  if (process.env.S3_SERVER_BIN_DIR)
    return {
      problem: `S3_SERVER_BIN_DIR is set to ${process.env.S3_SERVER_BIN_DIR}, which does not hold all of ${programs.join(', ')}.`,
    };
  const reason = whyNoInstall();
  if (reason)
    return {
      problem: `Ceph's S3 server (radosgw, ceph-mon, ceph-osd) is not here and ${reason}, so npm test can't install it. Run as root: ${installCommand}`,
    };
  log(
    "No S3 server found: installing Debian's radosgw, ceph-mon and ceph-osd with apt-get (once; about a minute).",
  );
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) =>
    spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
  const install = () => run(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
  // The package lists are often fresh enough (another install just read them); refresh them
  // only when the install fails without.
  if (!install() && !(run(['update', '-qq']) && install()))
    return {
      problem: `Installing the S3 server with apt-get failed (see above). Try: ${installCommand}`,
    };
  const installed = findS3ServerBinDir();
  return installed
    ? { binDir: installed }
    : {
        problem:
          'apt-get installed radosgw, but its programs were not found. Set S3_SERVER_BIN_DIR.',
      };
}

function configuration(dir, fsid, monPort, s3Port, memoryBytes) {
  return `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
log file = ${dir}/log/$name.log
pid file = ${dir}/run/$name.pid
log to stderr = false
err to stderr = false
[mon]
mon data = ${dir}/mon
paxos propose interval = 0.1
[osd]
osd data = ${dir}/osd
osd objectstore = memstore
memstore device bytes = ${memoryBytes}
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${s3Port}
rgw data = ${dir}/rgw
rgw thread pool size = 32
rgw gc obj min wait = 10
rgw gc processor period = 10
rgw enable usage log = false
rgw enable ops log = false
`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function runOrThrow(binDir, program, args, cwd) {
  const result = spawnSync(join(binDir, program), args, { encoding: 'utf8', cwd, timeout: 60_000 });
  if (result.status !== 0)
    throw new Error(
      `${program} ${args[0] ?? ''} failed: ${(result.stderr || result.stdout || `status ${result.status}`).trim().split('\n').pop()}`,
    );
  return result.stdout;
}

async function until(what, test, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await test()) return;
    if (Date.now() > deadline) throw new Error(`the S3 server did not start: ${what}`);
    await sleep(100);
  }
}

function residentBytes(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
    return line ? Number(line[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Starts a new server, its objects held in at most `memoryBytes` of memory (default 2 GiB; a
 * full store makes every put wait); resolves to `{ endpoint, region, accessKeyId, secretAccessKey, dir,
 * startedInMs, residentBytes(), stop() }`. endpoint: http://127.0.0.1:PORT, path-style addressing
 * (no DNS for bucket names). stop() ends the three daemons (radosgw first) and removes the folder.
 */
export async function startThrowawayS3Server(binDir, { log, memoryBytes = 2 * 1024 ** 3 } = {}) {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'localboard-s3-'));
  for (const folder of ['run', 'log', 'mon', 'osd', 'rgw']) mkdirSync(join(dir, folder));
  const conf = join(dir, 'ceph.conf');
  const daemons = [];
  const launch = (program, args) => {
    const child = spawn(join(binDir, program), ['-f', '-c', conf, ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
    child.exited = new Promise((resolve) => child.once('exit', resolve));
    daemons.unshift(child);
    return child;
  };
  const stop = async () => {
    // radosgw first (it hangs when its OSD is gone), then the OSD, then the monitor. Nothing is
    // kept, so each gets a second to end cleanly before it is killed.
    for (const child of daemons.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGTERM');
      const ended = await Promise.race([child.exited.then(() => true), sleep(1000)]);
      if (!ended) {
        child.kill('SIGKILL');
        await child.exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const fsid = randomUUID();
    const [monPort, s3Port] = [await freePort(), await freePort()];
    writeFileSync(conf, configuration(dir, fsid, monPort, s3Port, memoryBytes));
    const monmap = join(dir, 'monmap');
    runOrThrow(
      binDir,
      'monmaptool',
      ['--create', '--addv', 'a', `[v2:127.0.0.1:${monPort}]`, '--fsid', fsid, monmap],
      dir,
    );
    runOrThrow(binDir, 'ceph-mon', ['-c', conf, '--mkfs', '-i', 'a', '--monmap', monmap], dir);
    launch('ceph-mon', ['-i', 'a']);
    runOrThrow(binDir, 'ceph', ['-c', conf, '--connect-timeout', '20', 'osd', 'create'], dir);
    runOrThrow(binDir, 'ceph-osd', ['-c', conf, '-i', '0', '--mkfs'], dir);
    launch('ceph-osd', ['-i', '0']);
    const rgw = launch('radosgw', ['-n', 'client.rgw']);
    const endpoint = `http://127.0.0.1:${s3Port}`;
    await until(
      'radosgw does not answer (its log is in the temp folder)',
      async () => {
        if (rgw.exitCode !== null)
          throw new Error(`radosgw ended (status ${rgw.exitCode}); see ${dir}/log`);
        return fetch(`${endpoint}/`).then(
          (response) => response.status === 200,
          () => false,
        );
      },
      60_000,
    );
    const accessKeyId = 'localboard-test';
    const secretAccessKey = 'localboard-test-secret';
    runOrThrow(
      binDir,
      'radosgw-admin',
      [
        '-c',
        conf,
        'user',
        'create',
        '--uid=localboard',
        '--display-name=Localboard tests',
        `--access-key=${accessKeyId}`,
        `--secret-key=${secretAccessKey}`,
      ],
      dir,
    );
    const startedInMs = Date.now() - started;
    log?.(`S3 server (radosgw) ready at ${endpoint} in ${(startedInMs / 1000).toFixed(1)} s.`);
    return {
      endpoint,
      region: 'us-east-1',
      accessKeyId,
      secretAccessKey,
      dir,
      startedInMs,
      /** The three daemons' resident memory, in bytes. */
      residentBytes: () => daemons.reduce((sum, child) => sum + residentBytes(child.pid), 0),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
