// Password hashing on threads of its own. Node's async scrypt runs on libuv's threadpool (four
// threads), the same threads that read page files and compress them, so a handful of sign-ups used
// to stall every page. Here each hash runs synchronously inside a worker thread of a small pool;
// the threadpool never sees it, and on Linux the threads run at a lower priority, so pages win
// when the cores are short. Requests beyond the pool wait in a bounded queue, and past that
// are refused at once (503 with Retry-After) instead of piling up.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export interface HashingPoolSettings {
  /** Worker threads. Default: one fewer than the cores, between 1 and 2, so a core stays free. */
  threads?: number;
  /** Hashes allowed to wait for a thread; more are refused with HashingBusy. Default 16. */
  maxQueued?: number;
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

/** Every thread is busy and the queue is full: try again in `retryAfterSeconds`. */
export class HashingBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Password hashing is at capacity.');
  }
}

/** Niceness of hashing threads: 10 gives them about a tenth of a core that pages also want. */
const HASHING_NICENESS = 10;

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
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  idleTimer?: NodeJS.Timeout;
}

export const defaultHashingThreads = () => Math.max(1, Math.min(2, availableParallelism() - 1));

export function createHashingPool(settings: HashingPoolSettings = {}) {
  const threads = Math.max(1, settings.threads ?? defaultHashingThreads());
  const maxQueued = Math.max(0, settings.maxQueued ?? 16);
  const idleMs = settings.idleMs ?? 60_000;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  // A running average of one hash's duration, for Retry-After.
  let averageMs = 200;

  function startSlot(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_SOURCE, { eval: true }) };
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
    slot.job = {
      ...job,
      resolve: (key) => {
        averageMs = averageMs * 0.8 + (performance.now() - started) * 0.2;
        job.resolve(key);
      },
    };
    // Only a thread with work keeps the process alive.
    slot.worker.ref();
    slot.worker.postMessage(job.input);
  }

  function next(slot: Slot) {
    const job = queue.shift();
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
      run(slot, queue.shift()!);
    }
  }

  return {
    threads,
    /** Derives a scrypt key on a pool thread; rejects with HashingBusy when the queue is full. */
    scrypt(input: ScryptJob): Promise<Buffer> {
      const busy = slots.length >= threads && slots.every((slot) => slot.job);
      if (busy && queue.length >= maxQueued) {
        const waitMs = ((queue.length + threads) * averageMs) / threads;
        return Promise.reject(new HashingBusy(Math.max(1, Math.ceil(waitMs / 1000))));
      }
      return new Promise<Buffer>((resolve, reject) => {
        queue.push({ input, resolve, reject });
        dispatch();
      });
    },
    /** Hashes running and waiting, for tests and the benchmark. */
    load: () => ({ running: slots.filter((slot) => slot.job).length, queued: queue.length }),
    async close(): Promise<void> {
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
