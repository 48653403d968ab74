// Password hashing on threads of its own. Node's async scrypt runs on libuv's threadpool (four
// threads), the same threads that read page files and compress them, so a handful of sign-ups used
// to stall every page. Here each hash runs synchronously inside a worker thread of a small pool;
// the threadpool never sees it, and on Linux the threads run at a lower priority, so pages win
// when the cores are short. Requests beyond the pool wait in a queue, admitted by how long they
// are expected to wait there (the hashes ahead × the measured time of one ÷ the threads), not by
// its length: a burst of sign-ups is taken as long as the wait stays under a few seconds, and past
// that refused at once (503 with Retry-After: when its turn is expected) instead of piling up.
// The time of a hash is measured per MiB of scrypt memory (its cost), so hashes of an older, lower
// cost count for what they take.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface HashingPoolSettings {
  /**
   * Worker threads. Default: one a core, at most 2. At nice 10 they take what pages leave of the
   * cores, so on 2 cores a burst of sign-ups is hashed on both while pages still come first.
   */
  threads?: number;
  /**
   * The longest a hash may be expected to wait for a thread; one that would wait longer is refused
   * with HashingBusy. Default 10 s (PASSWORD_HASH_MAX_WAIT_MS); 0 refuses any that cannot start.
   */
  maxWaitMs?: number;
  /**
   * Milliseconds a hash is taken to last per MiB of its memory (128 × N × r bytes) until some
   * have been measured. Default 3 (about 200 ms for the production cost, 64 MiB).
   */
  expectedMsPerMiB?: number;
  /** A thread idle this long is stopped (it is started again on demand). Default 60 s. */
  idleMs?: number;
}

export interface ScryptJob {
  password: string;
  salt: Buffer;
  keyLength: number;
  N: number;
  r: number;
  p: number;
}

/** The hash would wait too long for a thread: try again in `retryAfterSeconds`, its expected turn. */
export class HashingBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Password hashing is at capacity.');
  }
}

/** Niceness of hashing threads: 10 gives them about a tenth of a core that pages also want. */
const HASHING_NICENESS = 10;

/** Weight of the latest hash in the running average of their durations. */
const AVERAGE_WEIGHT = 0.2;

/** The memory of a scrypt hash in MiB: what its time is measured in. */
const mibOf = ({ N, r }: Pick<ScryptJob, 'N' | 'r'>) => (128 * N * r) / 2 ** 20;

// Plain JavaScript run with `eval`, so it works the same under tsx, Vitest and a bundle.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
// Linux: nice this thread only (its id is in /proc/thread-self), so that when the cores are
// short, serving pages wins over hashing. Elsewhere, or if refused, it runs at normal priority.
try {
  const threadId = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(threadId, ${HASHING_NICENESS});
} catch {}
parentPort.on('message', ({ password, salt, keyLength, N, r, p }) => {
  try {
    const key = scryptSync(password, salt, keyLength, { N, r, p, maxmem: 256 * N * r });
    parentPort.postMessage({ key });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message) });
  }
});
`;

interface Job {
  input: ScryptJob;
  mib: number;
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  /** When the job it runs was handed to it (performance.now()). */
  startedAt: number;
  idleTimer?: NodeJS.Timeout;
}

// One thread on 2 cores cannot keep up with a burst: a hash costs about 140 ms of a core, so 200
// sign-ups are 28 s of it even on an idle machine (docs/benchmarks.md, Sign-up burst).
export const defaultHashingThreads = () => Math.max(1, Math.min(2, availableParallelism()));

export function createHashingPool(settings: HashingPoolSettings = {}) {
  const threads = Math.max(1, settings.threads ?? defaultHashingThreads());
  const maxWaitMs = Math.max(0, settings.maxWaitMs ?? 10_000);
  const idleMs = settings.idleMs ?? 60_000;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  // A running average of a hash's duration per MiB (from handing it to a thread to its key): what
  // the expected wait is counted in. It follows the machine: slower while pages take the cores.
  let msPerMiB = Math.max(0.001, settings.expectedMsPerMiB ?? 3);
  // The MiB of the hashes waiting in the queue.
  let queuedMiB = 0;
  // The turn the last refused request was told to come back at (performance.now()).
  let lastTurn = -Infinity;

  /** How long a hash asked for now would wait for a thread, by the hashes ahead of it. */
  function expectedWaitMs(now: number): number {
    const running = slots.filter((slot) => slot.job);
    if (running.length < threads && queue.length === 0) return 0;
    const leftOfRunning = running.reduce(
      (sum, slot) => sum + Math.max(0, slot.job!.mib * msPerMiB - (now - slot.startedAt)),
      0,
    );
    return (leftOfRunning + queuedMiB * msPerMiB) / threads;
  }

  /**
   * When a refused request should come back. Room is expected once the wait has fallen to the
   * bound; the refused are told turns one hash apart from there, so that they come back about as
   * fast as the threads take them, not all in the same second. The turns reach at most the bound
   * beyond the room (the queue holds that much work, so the threads never run dry meanwhile):
   * clients that never come back (an attack) could otherwise push every later turn out without
   * end. Past that, a turn is drawn anywhere in that span, so the overflow does not come back at
   * one instant either, and whoever still finds no room is given a new turn.
   */
  function turnFor(now: number, waitMs: number, mib: number): number {
    const room = now + waitMs - maxWaitMs;
    const next = Math.max(room, lastTurn + (mib * msPerMiB) / threads);
    if (next <= room + maxWaitMs) return (lastTurn = next);
    return room + Math.random() * maxWaitMs;
  }

  function startSlot(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_SOURCE, { eval: true }), startedAt: 0 };
    slot.worker.on('message', (answer: { key?: Uint8Array; error?: string }) => {
      const job = slot.job;
      slot.job = undefined;
      if (job) {
        if (answer.key) job.resolve(Buffer.from(answer.key));
        else job.reject(new Error(answer.error ?? 'scrypt failed'));
      }
      next(slot);
    });
    const lose = (error: Error) => {
      if (slots.includes(slot)) slots.splice(slots.indexOf(slot), 1);
      clearTimeout(slot.idleTimer);
      slot.job?.reject(error);
      slot.job = undefined;
      dispatch();
    };
    slot.worker.on('error', lose);
    slot.worker.on('exit', (code) => {
      if (slots.includes(slot)) lose(new Error(`The hashing thread stopped (exit code ${code}).`));
    });
    slots.push(slot);
    return slot;
  }

  function run(slot: Slot, job: Job) {
    clearTimeout(slot.idleTimer);
    const started = performance.now();
    slot.startedAt = started;
    slot.job = {
      ...job,
      resolve: (key) => {
        const tookMsPerMiB = (performance.now() - started) / job.mib;
        msPerMiB = msPerMiB * (1 - AVERAGE_WEIGHT) + tookMsPerMiB * AVERAGE_WEIGHT;
        job.resolve(key);
      },
    };
    // Only a thread with work keeps the process alive.
    slot.worker.ref();
    slot.worker.postMessage(job.input);
  }

  function takeQueued(): Job | undefined {
    const job = queue.shift();
    // Summed afresh when the queue empties, so rounding never adds up.
    queuedMiB = queue.length === 0 ? 0 : queuedMiB - (job?.mib ?? 0);
    return job;
  }

  function next(slot: Slot) {
    const job = takeQueued();
    if (job) return run(slot, job);
    slot.worker.unref();
    slot.idleTimer = setTimeout(() => {
      slots.splice(slots.indexOf(slot), 1);
      void slot.worker.terminate();
    }, idleMs);
    slot.idleTimer.unref();
  }

  function dispatch() {
    while (queue.length > 0) {
      const slot = slots.find((each) => !each.job) ?? (slots.length < threads ? startSlot() : null);
      if (!slot) return;
      run(slot, takeQueued()!);
    }
  }

  return {
    threads,
    /**
     * Derives a scrypt key on a pool thread; rejects with HashingBusy when it would wait longer
     * than `maxWaitMs` for one.
     */
    scrypt(input: ScryptJob): Promise<Buffer> {
      const now = performance.now();
      const mib = mibOf(input);
      const waitMs = expectedWaitMs(now);
      if (waitMs > maxWaitMs) {
        const turnInMs = turnFor(now, waitMs, mib) - now;
        return Promise.reject(new HashingBusy(Math.max(1, Math.ceil(turnInMs / 1000))));
      }
      return new Promise<Buffer>((resolve, reject) => {
        queue.push({ input, mib, resolve, reject });
        queuedMiB += mib;
        dispatch();
      });
    },
    /**
     * Hashes running and waiting, the measured time of a hash per MiB and the wait a new one would
     * have, for tests and the benchmark.
     */
    load: () => ({
      running: slots.filter((slot) => slot.job).length,
      queued: queue.length,
      msPerMiB,
      waitMs: expectedWaitMs(performance.now()),
    }),
    async close(): Promise<void> {
      queuedMiB = 0;
      for (const job of queue.splice(0)) job.reject(new Error('The hashing pool was closed.'));
      await Promise.all(
        slots.splice(0).map((slot) => {
          clearTimeout(slot.idleTimer);
          return slot.worker.terminate();
        }),
      );
    },
  };
}

export type HashingPool = ReturnType<typeof createHashingPool>;
