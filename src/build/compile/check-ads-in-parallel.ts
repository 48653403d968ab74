// Checks the ads CSVs that changed on both cores before the compiler's own pass: this thread and a
// worker thread take files from a shared counter, biggest first, and summarise them into the
// ad-file cache (ad-file-cache.ts), where the compiler's pass then finds them. The compiler is
// synchronous, so this thread then waits for the worker's last file with Atomics.wait; should the
// worker stop without finishing a file, this thread checks that file itself, so nothing is lost or
// waited on for ever.
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { AdFileContext } from './check-ad-file.ts';

export interface AdFileToCheck {
  /** Name in problems (`content/ads/x.csv`). */
  file: string;
  path: string;
}

/** Summarises one file into the cache. */
export type SummariseFile = (entry: AdFileToCheck, context: AdFileContext) => void;

export interface AdCheckWorkerInput {
  compiledDir: string;
  files: AdFileToCheck[];
  context: AdFileContext;
  /** Int32Array: [next file to take, then one state a file: 0 waiting, 1 taken, 2 done, 3 failed]. */
  shared: SharedArrayBuffer;
}

/** Below this many bytes to check, a worker thread costs more than it saves. */
const BYTES_WORTH_A_WORKER = 4_000_000;
const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };
/** How long to wait for the worker's file before taking it over (it should never come to this). */
const STALL_MS = 60_000;
const WAITING = 0;
const TAKEN = 1;
const DONE = 2;
const FAILED = 3;

/**
 * Checks `files` into the cache on this thread and a worker, when they are big enough and the
 * bundled worker (`workerUrl`) exists; `summarise` checks one file on this thread.
 */
export function checkAdsInParallel(
  compiledDir: string,
  files: readonly AdFileToCheck[],
  context: AdFileContext,
  summarise: SummariseFile,
  workerUrl: URL | undefined,
): void {
  const sized = files
    .map((entry) => ({ entry, bytes: statSync(entry.path).size }))
    .sort((a, b) => b.bytes - a.bytes);
  const total = sized.reduce((sum, { bytes }) => sum + bytes, 0);
  if (!workerUrl || total < BYTES_WORTH_A_WORKER) return; // the compiler's pass checks them one by one
  const ordered = sized.map(({ entry }) => entry);
  const shared = new SharedArrayBuffer(4 * (1 + ordered.length));
  const state = new Int32Array(shared);
  const input: AdCheckWorkerInput = { compiledDir, files: ordered, context, shared };
  const worker = new Worker(workerUrl, { workerData: input, resourceLimits: WORKER_LIMITS });
  worker.on('error', () => {}); // a file it leaves unfinished is checked here, and fails here if it must
  try {
    takeFiles(ordered, state, (entry) => summarise(entry, context));
    let workerAnswers = true;
    ordered.forEach((entry, index) => {
      workerAnswers &&= waitForWorker(state, 1 + index);
      if (Atomics.load(state, 1 + index) !== DONE) summarise(entry, context);
    });
  } finally {
    void worker.terminate();
  }
}

/** Waits while the worker checks the file; false when it stopped answering. */
function waitForWorker(state: Int32Array, slot: number): boolean {
  for (
    let value = Atomics.load(state, slot);
    value === WAITING || value === TAKEN;
    value = Atomics.load(state, slot)
  ) {
    if (Atomics.wait(state, slot, value, STALL_MS) === 'timed-out') {
      console.warn(
        'The ads check worker stopped answering; checking its files on the main thread.',
      );
      return false;
    }
  }
  return true;
}

/**
 * Takes files from the shared counter until none is left, marking each taken, then done (or
 * failed, which stops this thread: the other one checks the file again and reports the error).
 */
export function takeFiles(
  files: readonly AdFileToCheck[],
  state: Int32Array,
  check: (entry: AdFileToCheck) => void,
): void {
  for (let next = Atomics.add(state, 0, 1); next < files.length; next = Atomics.add(state, 0, 1)) {
    const slot = 1 + next;
    Atomics.store(state, slot, TAKEN);
    let outcome = FAILED;
    try {
      check(files[next]!);
      outcome = DONE;
    } finally {
      Atomics.store(state, slot, outcome);
      Atomics.notify(state, slot);
    }
  }
}
