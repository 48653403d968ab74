// Password hashing on threads of its own. Node's async scrypt runs on libuv's threadpool (four
// threads), the same threads that read page files and compress them, so a handful of sign-ups used
// to stall every page. Here each hash runs synchronously inside a worker thread of a small pool;
// the threadpool never sees it, and on Linux the threads run at a lower priority, so pages win
// when the cores are short. Requests beyond the pool wait in a queue, admitted by how long they
// are expected to wait there (the hashes ahead × the measured time of one ÷ the threads), not by
// its length: a burst of sign-ups is taken as long as the wait stays under a few seconds, and past
// that refused at once (503 with Retry-After: when its turn is expected) instead of piling up.
// The time of a hash is measured per MiB of scrypt memory (its cost), so hashes of an older, lower
// cost count for what they take. The queue, its admission and the threads' lives are the one
// admitted worker pool (server/workers/admitted-pool.ts); what is hashing's own is here.
import { availableParallelism } from 'node:os';
import { createAdmittedPool, threadWorker } from '../workers/admitted-pool.ts';

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
parentPort.on('message', ({ id, password, salt, keyLength, N, r, p }) => {
  try {
    const key = scryptSync(password, salt, keyLength, { N, r, p, maxmem: 256 * N * r });
    parentPort.postMessage({ id, key });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message) });
  }
});
`;

/** What a hashing thread answers: the key, or why not. */
interface HashAnswer {
  id: number;
  key?: Uint8Array;
  error?: string;
}

// One thread on 2 cores cannot keep up with a burst: a hash costs about 140 ms of a core, so 200
// sign-ups are 28 s of it even on an idle machine (docs/benchmarks.md, Sign-up burst).
export const defaultHashingThreads = () => Math.max(1, Math.min(2, availableParallelism()));

export function createHashingPool(settings: HashingPoolSettings = {}) {
  const threads = Math.max(1, settings.threads ?? defaultHashingThreads());
  const pool = createAdmittedPool({
    workers: threads,
    maxWaitMs: Math.max(0, settings.maxWaitMs ?? 10_000),
    // Counted per MiB: the hashes ahead weigh what they take.
    expectedMsPerCost: Math.max(0.001, settings.expectedMsPerMiB ?? 3),
    idleMs: settings.idleMs ?? 60_000,
    start: threadWorker<ScryptJob & { id: number }, HashAnswer>(WORKER_SOURCE, {
      stopped: (how) => `The hashing thread stopped (${how}).`,
    }),
    message: (input: ScryptJob, id) => ({ ...input, id }),
    settle(answer) {
      if (answer.key) return Buffer.from(answer.key);
      throw new Error(answer.error ?? 'scrypt failed');
    },
    busy: (retryAfterSeconds) => new HashingBusy(retryAfterSeconds),
    spreadTurns: true,
    closedMessage: 'The hashing pool was closed.',
  });

  return {
    threads,
    /**
     * Derives a scrypt key on a pool thread; rejects with HashingBusy when it would wait longer
     * than `maxWaitMs` for one.
     */
    scrypt: (input: ScryptJob): Promise<Buffer> => pool.run(input, mibOf(input)),
    /**
     * Hashes running and waiting, the measured time of a hash per MiB and the wait a new one would
     * have, for tests and the benchmark.
     */
    load() {
      const { running, queued, msPerCost, waitMs } = pool.load();
      return { running, queued, msPerMiB: msPerCost, waitMs };
    },
    close: () => pool.close(),
  };
}

export type HashingPool = ReturnType<typeof createHashingPool>;
