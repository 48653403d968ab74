// Photo processing off the server's thread and out of its process: a small pool of worker
// processes (photo-worker.ts), each processing one photo at a time at nice 10. Like password
// hashing (server/auth/hashing-pool.ts), requests beyond the pool wait in a queue, admitted by how
// long they are expected to wait there (the photos ahead × the measured time of one ÷ the
// processes); past the bound they are refused at once with PhotoProcessingBusy (503, Retry-After)
// instead of piling up uploads in memory. A worker that dies or hangs fails its photo only. The
// queue, its admission and the workers' lives are the one admitted worker pool
// (server/workers/admitted-pool.ts); what is photo processing's own is here.
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PhotoOutcome, ProcessedPhoto } from './process-photo.ts';
import type { PhotoAnswerMessage, PhotoJobMessage } from './photo-worker.ts';
import { createAdmittedPool, processWorker } from '../workers/admitted-pool.ts';

/** How a worker process is started: its file and Node's flags for it. */
export interface PhotoWorkerCommand {
  file: string;
  execArgv: string[];
  cwd?: string;
}

export interface PhotoPoolSettings {
  /** Worker processes. Default: one a core, at most 2. */
  processes?: number;
  /** The longest a photo may be expected to wait for a worker. Default 15 s. */
  maxWaitMs?: number;
  /** How long a photo is taken to last until some have been measured. Default 600 ms. */
  expectedMs?: number;
  /** A photo taking longer than this is given up (its worker stopped). Default 60 s. */
  timeoutMs?: number;
  /** An idle worker is stopped after this long (started again on demand). Default 60 s. */
  idleMs?: number;
  /**
   * The worker: the server's build passes its bundled photo-worker.mjs; from the sources (tests,
   * the dev server) photo-worker.ts runs under tsx.
   */
  worker?: PhotoWorkerCommand;
}

/** The photo would wait too long for a worker: try again in `retryAfterSeconds`. */
export class PhotoProcessingBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('Photo processing is at capacity.');
  }
}

export const PROCESSING_FAILED =
  "This photo couldn't be processed. Try again, or choose another photo.";

/** The worker from the sources: photo-worker.ts beside this file, run with tsx. */
export function sourcePhotoWorker(): PhotoWorkerCommand {
  const here = dirname(fileURLToPath(import.meta.url));
  return {
    file: join(here, 'photo-worker.ts'),
    execArgv: ['--import', 'tsx'],
    cwd: resolve(here, '..', '..'),
  };
}

/** The bundled worker of a server build ({out}/server/photo-worker.mjs). */
export const bundledPhotoWorker = (file: string): PhotoWorkerCommand => ({ file, execArgv: [] });

export const defaultPhotoProcesses = () => Math.max(1, Math.min(2, availableParallelism()));

/** Old space of a worker's JavaScript (the pictures themselves are libvips', outside it). */
const WORKER_HEAP_MB = 128;
/**
 * glibc's malloc in a worker, unless the environment says otherwise: at most 2 arenas (not 8 a
 * core: memory libvips freed on one thread is then found again by the next photo), and blocks
 * over 128 KB always mapped apart, so a decoded photo's buffers go back to the system when freed.
 * With the explicit-image model loaded (its WebAssembly memory never shrinks), this is what keeps
 * a worker's peak under 250 MB (docs/benchmarks.md, ## Photos). Ignored by other C libraries.
 */
const WORKER_MALLOC = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };

export function createPhotoPool(settings: PhotoPoolSettings = {}) {
  const processes = Math.max(1, settings.processes ?? defaultPhotoProcesses());
  const worker = settings.worker ?? sourcePhotoWorker();
  const pool = createAdmittedPool({
    workers: processes,
    maxWaitMs: Math.max(0, settings.maxWaitMs ?? 15_000),
    // Every photo counts as one: the time of a photo is the unit.
    expectedMsPerCost: Math.max(1, settings.expectedMs ?? 600),
    idleMs: settings.idleMs ?? 60_000,
    timeoutMs: settings.timeoutMs ?? 60_000,
    start: processWorker<PhotoJobMessage, PhotoAnswerMessage>(
      {
        file: worker.file,
        execArgv: [...worker.execArgv, `--max-old-space-size=${WORKER_HEAP_MB}`],
        cwd: worker.cwd,
        env: () => ({ ...WORKER_MALLOC, ...process.env }),
      },
      {
        stopped: (how) => `the photo worker stopped (${how})`,
        failed: (error) => `the photo worker failed: ${error.message}`,
      },
    ),
    message: (file: string, id) => ({ id, file }),
    settle(answer) {
      if (answer.outcome) return withBuffers(answer.outcome);
      throw new Error(answer.error ?? 'photo processing failed');
    },
    busy: (retryAfterSeconds) => new PhotoProcessingBusy(retryAfterSeconds),
    closedMessage: 'The photo pool was closed.',
  });

  return {
    processes,
    /**
     * Throws PhotoProcessingBusy when `count` photos asked for now would wait longer than the
     * bound: asked before an upload is read, so a refused one costs nothing.
     */
    admit: (count = 1): void => pool.admit(count),
    /**
     * Processes the uploaded file at `file` (the caller deletes it after). Rejects with
     * PhotoProcessingBusy when the pool is full, and with an Error when a worker failed.
     */
    process: (file: string): Promise<PhotoOutcome> => pool.run(file),
    /** Photos running and waiting, and the measured time of one: for tests and the benchmark. */
    load() {
      const { running, queued, workers, msPerCost, waitMs } = pool.load();
      return { running, queued, workers, averageMs: msPerCost, waitMs };
    },
    close: () => pool.close(),
  };
}

export type PhotoPool = ReturnType<typeof createPhotoPool>;

/** Bytes arrive as Uint8Array (structured clone): Buffers again. */
function withBuffers(outcome: PhotoOutcome): PhotoOutcome {
  if (!outcome.ok) return outcome;
  const photo: ProcessedPhoto = {
    ...outcome.photo,
    variants: outcome.photo.variants.map((variant) => ({
      ...variant,
      bytes: Buffer.from(variant.bytes.buffer, variant.bytes.byteOffset, variant.bytes.byteLength),
    })),
  };
  return { ok: true, photo };
}
