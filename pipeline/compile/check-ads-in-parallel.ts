// Checks the new batches of ads (ad-source.ts) on both cores before the compiler's own pass: this
// thread and a worker thread take batches from a shared counter, biggest first, and keep each
// outcome in the batch cache (ad-batch-cache.ts), where the compiler's pass then finds it. Batches
// rather than files are shared out, so one file of a million rows keeps both cores as busy as fifty
// files do. The compiler is synchronous, so this thread then waits for the worker's last batch with
// Atomics.wait; should the worker stop without finishing a batch, this thread checks that batch
// itself, so nothing is lost or waited on for ever.
import { Worker } from 'node:worker_threads';
import type { AdCheckContext } from './check-ad-row.ts';
import type { CsvSegmentJob } from './check-csv-segment.ts';

/** A batch to check and keep under `key`: a segment of a CSV file, starting on `line`. */
export interface AdBatchJob {
  key: string;
  line: number;
  segment: CsvSegmentJob;
}

/** Checks one batch into the cache, on this thread. */
export type CheckBatch = (job: AdBatchJob) => void;

export interface AdCheckWorkerInput {
  compiledDir: string;
  jobs: AdBatchJob[];
  context: AdCheckContext;
  /** Int32Array: [next job to take, then one state a job: 0 waiting, 1 taken, 2 done, 3 failed]. */
  shared: SharedArrayBuffer;
}

/** Below this many bytes to check, a worker thread costs more than it saves. */
const BYTES_WORTH_A_WORKER = 4_000_000;
const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };
/** How long to wait for the worker's batch before taking it over (it should never come to this). */
const STALL_MS = 60_000;
const WAITING = 0;
const TAKEN = 1;
const DONE = 2;
const FAILED = 3;

/**
 * Checks `jobs` into the cache on this thread and a worker, when they are big enough and the
 * bundled worker (`workerUrl`) exists; `check` checks one job on this thread. Otherwise it leaves
 * them to the compiler's pass, which checks each batch it does not find in the cache.
 */
export function checkAdsInParallel(
  compiledDir: string,
  jobs: readonly AdBatchJob[],
  context: AdCheckContext,
  check: CheckBatch,
  workerUrl: URL | undefined,
): void {
  const total = jobs.reduce((sum, job) => sum + job.segment.bytes, 0);
  if (!workerUrl || total < BYTES_WORTH_A_WORKER) return;
  const shared = new SharedArrayBuffer(4 * (1 + jobs.length));
  const state = new Int32Array(shared);
  const input: AdCheckWorkerInput = { compiledDir, jobs: [...jobs], context, shared };
  const worker = new Worker(workerUrl, { workerData: input, resourceLimits: WORKER_LIMITS });
  worker.on('error', () => {}); // a batch it leaves unfinished is checked here, and fails here if it must
  try {
    takeJobs(jobs, state, check);
    let workerAnswers = true;
    jobs.forEach((job, index) => {
      workerAnswers &&= waitForWorker(state, 1 + index);
      if (Atomics.load(state, 1 + index) !== DONE) check(job);
    });
  } finally {
    void worker.terminate();
  }
}

/** Waits while the worker checks the batch; false when it stopped answering. */
function waitForWorker(state: Int32Array, slot: number): boolean {
  for (
    let value = Atomics.load(state, slot);
    value === WAITING || value === TAKEN;
    value = Atomics.load(state, slot)
  ) {
    if (Atomics.wait(state, slot, value, STALL_MS) === 'timed-out') {
      console.warn(
        'The ads check worker stopped answering; checking its batches on the main thread.',
      );
      return false;
    }
  }
  return true;
}

/**
 * Takes jobs from the shared counter until none is left, marking each taken, then done (or
 * failed, which stops this thread: the other one checks the job again and reports the error).
 */
export function takeJobs<Job>(
  jobs: readonly Job[],
  state: Int32Array,
  check: (job: Job) => void,
): void {
  for (let next = Atomics.add(state, 0, 1); next < jobs.length; next = Atomics.add(state, 0, 1)) {
    const slot = 1 + next;
    Atomics.store(state, slot, TAKEN);
    let outcome = FAILED;
    try {
      check(jobs[next]!);
      outcome = DONE;
    } finally {
      Atomics.store(state, slot, outcome);
      Atomics.notify(state, slot);
    }
  }
}
