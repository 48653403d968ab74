// The real server as the benchmarks run it: a free port to start it on, and a stop that waits for
// it to exit (SIGTERM, then SIGKILL after `graceMs`: a publish under way may finish first).
import type { ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

/** A port no one listens on at `host` right now. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export function stopServer(child: ChildProcess, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    // Exited already: with a code, or killed by a signal (its exit code stays null then).
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Resolves once the server at `base` answers; throws if it exits or after `attempts` tries 100 ms apart. */
export async function waitForServer(base: string, child: ChildProcess, attempts: number) {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode})`);
    try {
      await fetch(`${base}/`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('The server did not start');
}
