// The one admitted worker pool (server/workers/admitted-pool.ts) on its own, under both its users
// (password hashing, photo processing): what it admits and refuses and with which Retry-After,
// what it measures (not a worker's first job, whose time includes the worker's start-up), and
// that a worker which dies or hangs fails its own job only, idle workers stop, and closing fails
// what is left. Admission runs on workers the test answers when it says (a worker kind of its
// own: the pool is generic over how workers start); the rest on real threads and processes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAdmittedPool,
  processWorker,
  threadWorker,
  type AdmittedPoolSettings,
  type StartWorker,
} from '../../../../server/workers/admitted-pool.ts';

interface Doubling {
  id: number;
  n: number;
}

class Busy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('busy');
  }
}

type Settings = Partial<AdmittedPoolSettings<number, Doubling, Doubling, number>> &
  Pick<AdmittedPoolSettings<number, Doubling, Doubling, number>, 'start'>;

const pools: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function doublingPool(settings: Settings) {
  const pool = createAdmittedPool<number, Doubling, Doubling, number>({
    workers: 1,
    maxWaitMs: 1_500,
    expectedMsPerCost: 1_000,
    idleMs: 60_000,
    message: (n, id) => ({ id, n }),
    settle: ({ n }) => {
      if (n < 0) throw new Error(`cannot double ${n / 2}`);
      return n;
    },
    busy: (seconds) => new Busy(seconds),
    closedMessage: 'The test pool was closed.',
    ...settings,
  });
  pools.push(pool);
  return pool;
}

/** Workers that answer only when the test releases the oldest job they hold. */
function heldWorkers() {
  const held: (() => void)[] = [];
  const stopped = { count: 0 };
  const start: StartWorker<Doubling, Doubling> = (events) => ({
    send: ({ id, n }) => void held.push(() => events.answer({ id, n: n * 2 })),
    keepAlive: () => {},
    kill: () => {},
    stop: async () => void stopped.count++,
  });
  return { start, held, stopped, release: () => held.shift()!() };
}

/** Runs a job whose end the test does not wait for (the pool's closing fails it). */
const leave = (job: Promise<number>) => void job.catch(() => {});

const refusal = (run: () => unknown): Busy => {
  try {
    run();
  } catch (error) {
    if (error instanceof Busy) return error;
    throw error;
  }
  throw new Error('admitted');
};

// A thread that doubles n, exits with code 7 on a negative n, and never answers 0.
const DOUBLING_THREAD = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ id, n }) => {
  if (n < 0) process.exit(7);
  if (n !== 0) parentPort.postMessage({ id, n: n * 2 });
});
`;
const threadTexts = { stopped: (how: string) => `The doubling thread stopped (${how}).` };

describe('admission by the expected wait', () => {
  it('admits while the work ahead ÷ the workers is within the bound, and refuses past it at once', async () => {
    const workers = heldWorkers();
    const pool = doublingPool({ start: workers.start });
    const began = performance.now();
    const first = pool.run(1);
    // One running (about 1 s left) with a free queue: the next waits about 1 s, admitted.
    const second = pool.run(2);
    expect(pool.load()).toMatchObject({ running: 1, queued: 1, workers: 1 });
    // Now about 2 s are ahead: past 1.5 s, refused with the time over the bound, rounded up.
    await expect(pool.run(3)).rejects.toMatchObject({ retryAfterSeconds: 1 });
    expect(refusal(() => pool.admit()).retryAfterSeconds).toBe(1);
    expect(pool.load().queued).toBe(1);
    workers.release();
    expect(await first).toBe(2);
    // A worker's first job is not measured: its time includes the worker's start-up.
    expect(pool.load().msPerCost).toBe(1000);
    expect(() => pool.admit()).not.toThrow();
    workers.release();
    expect(await second).toBe(4);
    // The second took milliseconds (at most what this test saw pass, however busy the machine):
    // the average of a job falls from 1000 ms by a fifth of the way towards it.
    const tookAtMost = performance.now() - began;
    expect(pool.load().msPerCost).toBeGreaterThanOrEqual(800);
    expect(pool.load().msPerCost).toBeLessThanOrEqual(800 + tookAtMost / 5);
    expect(pool.load()).toMatchObject({ running: 0, queued: 0, waitMs: 0 });
  });

  it('counts a job by its cost, and `count` jobs asked for at once', () => {
    const workers = heldWorkers();
    const pool = doublingPool({ start: workers.start, workers: 2, maxWaitMs: 2_500 });
    // Idle: 3 jobs wait (3 - 1) × 1000 ÷ 2 workers = 1 s; 6 jobs 2.5 s; 7 jobs 3 s, refused.
    expect(() => pool.admit(6)).not.toThrow();
    expect(refusal(() => pool.admit(7)).retryAfterSeconds).toBe(1);
    // Costs of 2: 4 of them wait 3 × 2000 ÷ 2 = 3 s.
    expect(refusal(() => pool.admit(4, 2)).retryAfterSeconds).toBe(1);
    leave(pool.run(1, 4));
    leave(pool.run(1, 4));
    // Both workers have about 4 s left: 4 s ahead, refused by 1.5 s → 2.
    expect(pool.load().waitMs).toBeGreaterThan(3_900);
    expect(refusal(() => pool.admit()).retryAfterSeconds).toBe(2);
  });

  it('counts the jobs waiting by their cost', () => {
    const pool = doublingPool({ start: heldWorkers().start });
    leave(pool.run(1));
    // About 1 s ahead: admitted, though it costs 3.
    leave(pool.run(2, 3));
    // About 1 + 3 s ahead: refused by 2.5 s → 3.
    expect(refusal(() => pool.admit()).retryAfterSeconds).toBe(3);
  });

  it('with spread turns, tells the refused turns one job apart, up to the bound beyond the room', () => {
    const workers = heldWorkers();
    const pool = doublingPool({
      start: workers.start,
      spreadTurns: true,
      maxWaitMs: 3_000,
      expectedMsPerCost: 2_000,
    });
    leave(pool.run(1));
    leave(pool.run(2));
    // About 4 s ahead: room in about 1 s, the next turn 2 s later, then at most 1 + 3 s.
    const turns = [1, 2, 3, 4, 5].map(() => refusal(() => pool.admit()).retryAfterSeconds);
    expect(turns.slice(0, 2)).toEqual([1, 3]);
    for (const turn of turns.slice(2)) expect(turn).toBeGreaterThanOrEqual(1);
    for (const turn of turns.slice(2)) expect(turn).toBeLessThanOrEqual(4);
    // Without spreading, every refused is told the same.
    const plain = doublingPool({
      start: heldWorkers().start,
      maxWaitMs: 3_000,
      expectedMsPerCost: 2_000,
    });
    leave(plain.run(1));
    leave(plain.run(2));
    expect([1, 2, 3].map(() => refusal(() => plain.admit()).retryAfterSeconds)).toEqual([1, 1, 1]);
  });

  it("fails a job by its worker's answer, and goes on", async () => {
    const workers = heldWorkers();
    const pool = doublingPool({ start: workers.start });
    const failing = pool.run(-4);
    const next = pool.run(5);
    workers.release();
    await expect(failing).rejects.toThrow('cannot double -4');
    workers.release();
    expect(await next).toBe(10);
  });
});

describe('workers', () => {
  it('stops a worker idle for idleMs and forgets it', async () => {
    const workers = heldWorkers();
    const pool = doublingPool({ start: workers.start, idleMs: 30 });
    const job = pool.run(1);
    workers.release();
    expect(await job).toBe(2);
    expect(pool.load().workers).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(workers.stopped.count).toBe(1);
    expect(pool.load().workers).toBe(0);
  });

  it('a thread that dies fails its job only: the next job gets a new thread', async () => {
    const pool = doublingPool({
      start: threadWorker(DOUBLING_THREAD, threadTexts),
      maxWaitMs: 60_000,
    });
    const dying = pool.run(-1);
    const after = pool.run(21);
    await expect(dying).rejects.toThrow('The doubling thread stopped (exit code 7).');
    expect(await after).toBe(42);
    expect(pool.load()).toMatchObject({ running: 0, queued: 0, workers: 1 });
  });

  it('a thread that hangs past the time limit is stopped, and fails its job only', async () => {
    const pool = doublingPool({
      start: threadWorker(DOUBLING_THREAD, threadTexts),
      timeoutMs: 200,
      maxWaitMs: 60_000,
    });
    const hung = pool.run(0);
    const after = pool.run(4);
    await expect(hung).rejects.toThrow(/The doubling thread stopped \(exit code \d+\)\./);
    expect(await after).toBe(8);
  });

  it('a process that hangs is killed, and fails its job only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admitted-pool-'));
    const file = join(dir, 'doubling.mjs');
    writeFileSync(
      file,
      `process.on('message', ({ id, n }) => { if (n !== 0) process.send({ id, n: n * 2 }); });
       process.on('disconnect', () => process.exit(0));`,
    );
    const pool = doublingPool({
      start: processWorker(
        { file, execArgv: [] },
        {
          stopped: (how) => `the doubling process stopped (${how})`,
          failed: (error) => `the doubling process failed: ${error.message}`,
        },
      ),
      timeoutMs: 300,
      maxWaitMs: 60_000,
    });
    expect(await pool.run(3)).toBe(6);
    const hung = pool.run(0);
    const after = pool.run(5);
    await expect(hung).rejects.toThrow('the doubling process stopped (SIGKILL)');
    expect(await after).toBe(10);
  });

  it('stops a worker idle for idleMs, and starts one again on demand', async () => {
    const pool = doublingPool({
      start: threadWorker(DOUBLING_THREAD, threadTexts),
      idleMs: 50,
      maxWaitMs: 60_000,
    });
    expect(await pool.run(1)).toBe(2);
    expect(pool.load().workers).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pool.load().workers).toBe(0);
    expect(await pool.run(2)).toBe(4);
    expect(pool.load().workers).toBe(1);
  });

  it('closing fails the jobs running and waiting, and takes no more', async () => {
    const pool = doublingPool({
      start: threadWorker(DOUBLING_THREAD, threadTexts),
      maxWaitMs: 60_000,
    });
    const running = pool.run(0);
    const waiting = pool.run(1);
    leave(running);
    leave(waiting);
    await pool.close();
    await expect(running).rejects.toThrow('The test pool was closed.');
    await expect(waiting).rejects.toThrow('The test pool was closed.');
    await expect(pool.run(2)).rejects.toThrow('The test pool was closed.');
    expect(pool.load()).toMatchObject({ running: 0, queued: 0, workers: 0 });
  });
});
