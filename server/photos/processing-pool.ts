// Photo processing off the server's thread and out of its process: a small pool of worker
// processes (photo-worker.ts), each processing one photo at a time at nice 10. Like password
// hashing (server/auth/hashing-pool.ts), requests beyond the pool wait in a queue, admitted by how
// long they are expected to wait there (the photos ahead × the measured time of one ÷ the
// processes); past the bound they are refused at once with PhotoProcessingBusy (503, Retry-After)
// instead of piling up uploads in memory. A worker that dies or hangs fails its photo only.
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PhotoOutcome, ProcessedPhoto } from './process-photo.ts';
import type { PhotoAnswerMessage, PhotoJobMessage } from './photo-worker.ts';

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

/** Weight of the latest photo in the running average of their durations. */
const AVERAGE_WEIGHT = 0.2;
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

interface Job {
  id: number;
  file: string;
  resolve: (outcome: PhotoOutcome) => void;
  reject: (error: Error) => void;
}

interface Slot {
  child: ChildProcess;
  job?: Job;
  startedAt: number;
  timer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
}

export function createPhotoPool(settings: PhotoPoolSettings = {}) {
  const processes = Math.max(1, settings.processes ?? defaultPhotoProcesses());
  const maxWaitMs = Math.max(0, settings.maxWaitMs ?? 15_000);
  const timeoutMs = settings.timeoutMs ?? 60_000;
  const idleMs = settings.idleMs ?? 60_000;
  const worker = settings.worker ?? sourcePhotoWorker();
  let averageMs = Math.max(1, settings.expectedMs ?? 600);
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  function expectedWaitMs(now: number): number {
    const running = slots.filter((slot) => slot.job);
    if (running.length < processes && queue.length === 0) return 0;
    const leftOfRunning = running.reduce(
      (sum, slot) => sum + Math.max(0, averageMs - (now - slot.startedAt)),
      0,
    );
    return (leftOfRunning + queue.length * averageMs) / processes;
  }

  function startSlot(): Slot {
    const child = fork(worker.file, [], {
      execArgv: [...worker.execArgv, `--max-old-space-size=${WORKER_HEAP_MB}`],
      cwd: worker.cwd,
      env: { ...WORKER_MALLOC, ...process.env },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const slot: Slot = { child, startedAt: 0 };
    child.on('message', (message: PhotoAnswerMessage) => {
      const job = slot.job;
      if (!job || job.id !== message.id) return;
      finish(slot);
      averageMs =
        averageMs * (1 - AVERAGE_WEIGHT) + (performance.now() - slot.startedAt) * AVERAGE_WEIGHT;
      if (message.outcome) job.resolve(withBuffers(message.outcome));
      else job.reject(new Error(message.error ?? 'photo processing failed'));
      next(slot);
    });
    const lose = (why: string) => {
      if (!slots.includes(slot)) return;
      slots.splice(slots.indexOf(slot), 1);
      clearTimeout(slot.idleTimer);
      const job = slot.job;
      finish(slot);
      job?.reject(new Error(why));
      if (slot.child.exitCode === null) slot.child.kill('SIGKILL');
      dispatch();
    };
    child.on('error', (error) => lose(`the photo worker failed: ${error.message}`));
    child.on('exit', (code, signal) =>
      lose(`the photo worker stopped (${signal ?? `exit code ${code}`})`),
    );
    slots.push(slot);
    return slot;
  }

  function finish(slot: Slot) {
    clearTimeout(slot.timer);
    slot.job = undefined;
  }

  function run(slot: Slot, job: Job) {
    clearTimeout(slot.idleTimer);
    slot.job = job;
    slot.startedAt = performance.now();
    slot.child.ref();
    slot.timer = setTimeout(() => {
      // Hung on a file: the worker goes, and the photo with it.
      slot.child.kill('SIGKILL');
    }, timeoutMs);
    slot.child.send({ id: job.id, file: job.file } satisfies PhotoJobMessage);
  }

  function next(slot: Slot) {
    const job = queue.shift();
    if (job) return run(slot, job);
    // Only a worker with work keeps the process alive.
    slot.child.unref();
    slot.child.channel?.unref();
    slot.idleTimer = setTimeout(() => {
      if (slots.includes(slot)) slots.splice(slots.indexOf(slot), 1);
      slot.child.kill();
    }, idleMs);
    slot.idleTimer.unref();
  }

  function dispatch() {
    while (queue.length > 0 && !closed) {
      const slot =
        slots.find((each) => !each.job) ?? (slots.length < processes ? startSlot() : null);
      if (!slot) return;
      slot.child.channel?.ref();
      run(slot, queue.shift()!);
    }
  }

  const pool = {
    processes,
    /**
     * Throws PhotoProcessingBusy when `count` photos asked for now would wait longer than the
     * bound: asked before an upload is read, so a refused one costs nothing.
     */
    admit(count = 1): void {
      const now = performance.now();
      const waitMs = expectedWaitMs(now) + ((count - 1) * averageMs) / processes;
      if (waitMs > maxWaitMs)
        throw new PhotoProcessingBusy(Math.max(1, Math.ceil((waitMs - maxWaitMs) / 1000)));
    },
    /**
     * Processes the uploaded file at `file` (the caller deletes it after). Rejects with
     * PhotoProcessingBusy when the pool is full, and with an Error when a worker failed.
     */
    process(file: string): Promise<PhotoOutcome> {
      if (closed) return Promise.reject(new Error('The photo pool was closed.'));
      try {
        pool.admit();
      } catch (error) {
        return Promise.reject(error as Error);
      }
      return new Promise<PhotoOutcome>((resolve, reject) => {
        queue.push({ id: nextId++, file, resolve, reject });
        dispatch();
      });
    },
    /** Photos running and waiting, and the measured time of one: for tests and the benchmark. */
    load: () => ({
      running: slots.filter((slot) => slot.job).length,
      queued: queue.length,
      workers: slots.length,
      averageMs,
      waitMs: expectedWaitMs(performance.now()),
    }),
    async close(): Promise<void> {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('The photo pool was closed.'));
      await Promise.all(
        slots.splice(0).map(
          (slot) =>
            new Promise<void>((done) => {
              clearTimeout(slot.idleTimer);
              clearTimeout(slot.timer);
              slot.job?.reject(new Error('The photo pool was closed.'));
              if (slot.child.exitCode !== null || slot.child.signalCode !== null) return done();
              slot.child.once('exit', () => done());
              // Waited for: the process stays until the worker is gone.
              slot.child.ref();
              slot.child.kill();
            }),
        ),
      );
    },
  };
  return pool;
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
