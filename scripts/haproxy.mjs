// Finds haproxy, installs Debian's `haproxy` when there is none and this machine can (root,
// apt-get), and runs one with a given configuration in the foreground on loopback: the several-
// instance test of `npm test` (tests/e2e/bucket-instances.test.ts) puts it in front of the
// instances and the site's bucket, as README "Serving it" does in production.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isExecutable, whyNoInstall } from './chromium.mjs';

export const installCommand = 'apt-get update && apt-get install -y haproxy';

/** HAPROXY_PATH, else Debian's. */
export function findHaproxy(env = process.env) {
  const candidates = [env.HAPROXY_PATH, '/usr/sbin/haproxy', '/usr/local/sbin/haproxy'];
  return candidates.find((path) => path && isExecutable(path));
}

/** The program, installing Debian's package when needed and possible; or why not. */
export function ensureHaproxy(log = console.log) {
  const found = findHaproxy();
  if (found) return { path: found };
  const reason = whyNoInstall();
  if (reason)
    return {
      problem: `haproxy is not here and ${reason}, so npm test can't install it. Run as root: ${installCommand}`,
    };
  log("No haproxy found: installing Debian's haproxy with apt-get (once; a few seconds).");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) =>
    spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
  if (
    !run(['install', '-y', '-qq', 'haproxy']) &&
    !(run(['update', '-qq']) && run(['install', '-y', '-qq', 'haproxy']))
  )
    return {
      problem: `Installing haproxy with apt-get failed (see above). Try: ${installCommand}`,
    };
  const installed = findHaproxy();
  return installed
    ? { path: installed }
    : { problem: 'haproxy was installed but is not in /usr/sbin.' };
}

/** Whether something accepts connections on 127.0.0.1:port. */
function accepts(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Checks `config` (haproxy -c), then runs haproxy with it until stop(); resolves once it accepts
 * connections on `port` (the port its frontend binds on 127.0.0.1).
 */
export async function startHaproxy(path, config, port) {
  const dir = mkdtempSync(join(tmpdir(), 'localboard-haproxy-'));
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const check = spawnSync(path, ['-c', '-q', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`haproxy refused the configuration:\n${check.stderr || check.stdout}`);
  }
  const output = [];
  const child = spawn(path, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr])
    stream.on('data', (chunk) => output.push(chunk.toString()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`haproxy did not start:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    output,
    async stop() {
      // Not when it has ended already, with a code or by a signal (Ctrl-C reaches it too).
      if (child.exitCode === null && child.signalCode === null) {
        const ended = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await ended;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
