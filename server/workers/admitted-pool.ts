// One admitted worker pool: the mechanism password hashing (server/auth/hashing-pool.ts) and photo
// processing (server/photos/processing-pool.ts) share, so that work which would take the server's
// thread away from pages runs on a few workers of its own instead. Jobs beyond the workers wait in
// a queue, admitted by how long they are expected to wait there (the work ahead × the measured
// time of one unit of it ÷ the workers), not by its length; past the bound a job is refused at
// once with the user's busy error (503, Retry-After) instead of piling up. A worker that dies, or
// hangs past the time limit (then it is killed), fails its own job only; an idle worker is
// stopped and started again on demand, and only a worker with work keeps the process alive.
// Generic over the job and its answer, and over how a worker is started: a thread
// (threadWorker) or a process (processWorker), each at the end of this file.
import { fork } from 'node:child_process';
import { Worker } from 'node:worker_threads';

/** A started worker, as the pool drives it. */
export interface PoolWorker<Message> {
  /** Hands it a job. */
  send(message: Message): void;
  /** Whether it keeps the process alive: only while it has work. */
  keepAlive(busy: boolean): void;
  /** Stops it at once: it hangs, or was lost. */
  kill(): void;
  /** Stops it gently (idle, or the pool closing); resolves once it is gone. */
  stop(): Promise<void>;
}

/** What a worker tells the pool. */
export interface WorkerEvents<Answer> {
  answer(answer: Answer): void;
  /** It failed or stopped: its job, if any, fails with `error`. */
  lost(error: Error): void;
}

export type StartWorker<Message, Answer> = (events: WorkerEvents<Answer>) => PoolWorker<Message>;

export interface AdmittedPoolSettings<Input, Message, Answer extends { id: number }, Output> {
  /** Workers running at most. */
  workers: number;
  /** The longest a job may be expected to wait for a worker; longer, refused. */
  maxWaitMs: number;
  /** Milliseconds one unit of a job's cost is taken to last until some have been measured. */
  expectedMsPerCost: number;
  /** A worker idle this long is stopped. */
  idleMs: number;
  /** A job taking longer than this is given up and its worker killed. Default: no limit. */
  timeoutMs?: number;
  start: StartWorker<Message, Answer>;
  /** The message a worker is sent for a job; its answer carries the same id. */
  message(input: Input, id: number): Message;
  /** The output of an answer; throws the Error the job fails with. */
  settle(answer: Answer): Output;
  /** The error a refused job is rejected with: come back in `retryAfterSeconds`. */
  busy(retryAfterSeconds: number): Error;
  /**
   * Refused jobs are told turns one job apart from when room is expected (see turnFor), rather
   * than all the time by which the wait is over the bound.
   */
  spreadTurns?: boolean;
  /** The message of the error jobs fail with when the pool is closed. */
  closedMessage: string;
}

/** Weight of the latest job in the running average of their durations. */
const AVERAGE_WEIGHT = 0.2;

interface Job<Input, Output> {
  id: number;
  input: Input;
  cost: number;
  resolve: (output: Output) => void;
  reject: (error: Error) => void;
}

interface Slot<Input, Message, Output> {
  worker: PoolWorker<Message>;
  job?: Job<Input, Output>;
  /** When the job it runs was handed to it (performance.now()). */
  startedAt: number;
  /** It has answered a job: its next job's time is the job's alone, without its start-up. */
  warm?: boolean;
  timer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
}

export function createAdmittedPool<Input, Message, Answer extends { id: number }, Output>(
  settings: AdmittedPoolSettings<Input, Message, Answer, Output>,
) {
  const { workers, maxWaitMs, idleMs, timeoutMs } = settings;
  type PoolSlot = Slot<Input, Message, Output>;
  const slots: PoolSlot[] = [];
  const queue: Job<Input, Output>[] = [];
  // A running average of a job's duration per unit of cost (from handing it to a worker to its
  // answer): what the expected wait is counted in. It follows the machine: slower while pages
  // take the cores. A worker's first job is not counted: its time includes the worker's start-up
  // (a thread's Node environment, a process's modules), once a worker and not each job's, and on
  // a loaded machine a thread's start-up took 170–400 ms beside the 2 ms of a 1 MiB hash.
  let msPerCost = settings.expectedMsPerCost;
  // The cost of the jobs waiting in the queue.
  let queuedCost = 0;
  // The turn the last refused job was told to come back at (performance.now()).
  let lastTurn = -Infinity;
  let nextId = 1;
  let closed = false;

  /** How long a job asked for now would wait for a worker, by the jobs ahead of it. */
  function expectedWaitMs(now: number): number {
    const running = slots.filter((slot) => slot.job);
    if (running.length < workers && queue.length === 0) return 0;
    const leftOfRunning = running.reduce(
      (sum, slot) => sum + Math.max(0, slot.job!.cost * msPerCost - (now - slot.startedAt)),
      0,
    );
    return (leftOfRunning + queuedCost * msPerCost) / workers;
  }

  /**
   * When a refused job should come back. Room is expected once the wait has fallen to the bound;
   * the refused are told turns one job apart from there, so that they come back about as fast as
   * the workers take them, not all in the same second. The turns reach at most the bound beyond
   * the room (the queue holds that much work, so the workers never run dry meanwhile): clients
   * that never come back (an attack) could otherwise push every later turn out without end. Past
   * that, a turn is drawn anywhere in that span, so the overflow does not come back at one instant
   * either, and whoever still finds no room is given a new turn.
   */
  function turnFor(now: number, waitMs: number, cost: number): number {
    const room = now + waitMs - maxWaitMs;
    const next = Math.max(room, lastTurn + (cost * msPerCost) / workers);
    if (next <= room + maxWaitMs) return (lastTurn = next);
    return room + Math.random() * maxWaitMs;
  }

  function startSlot(): PoolSlot {
    const slot = { startedAt: 0 } as PoolSlot;
    slot.worker = settings.start({
      answer: (answer) => answered(slot, answer),
      lost: (error) => lose(slot, error),
    });
    slots.push(slot);
    return slot;
  }

  function answered(slot: PoolSlot, answer: Answer) {
    const job = slot.job;
    if (!job || job.id !== answer.id) return;
    finish(slot);
    if (slot.warm) {
      const tookMsPerCost = (performance.now() - slot.startedAt) / job.cost;
      msPerCost = msPerCost * (1 - AVERAGE_WEIGHT) + tookMsPerCost * AVERAGE_WEIGHT;
    }
    slot.warm = true;
    try {
      job.resolve(settings.settle(answer));
    } catch (error) {
      job.reject(error as Error);
    }
    next(slot);
  }

  function lose(slot: PoolSlot, error: Error) {
    if (!slots.includes(slot)) return;
    slots.splice(slots.indexOf(slot), 1);
    clearTimeout(slot.idleTimer);
    const job = slot.job;
    finish(slot);
    job?.reject(error);
    slot.worker.kill();
    dispatch();
  }

  function finish(slot: PoolSlot) {
    clearTimeout(slot.timer);
    slot.job = undefined;
  }

  function run(slot: PoolSlot, job: Job<Input, Output>) {
    clearTimeout(slot.idleTimer);
    slot.job = job;
    slot.startedAt = performance.now();
    slot.worker.keepAlive(true);
    // Hung: the worker goes, and the job with it.
    if (timeoutMs !== undefined) slot.timer = setTimeout(() => slot.worker.kill(), timeoutMs);
    slot.worker.send(settings.message(job.input, job.id));
  }

  function takeQueued(): Job<Input, Output> | undefined {
    const job = queue.shift();
    // Summed afresh when the queue empties, so rounding never adds up.
    queuedCost = queue.length === 0 ? 0 : queuedCost - (job?.cost ?? 0);
    return job;
  }

  function next(slot: PoolSlot) {
    const job = takeQueued();
    if (job) return run(slot, job);
    slot.worker.keepAlive(false);
    slot.idleTimer = setTimeout(() => {
      if (slots.includes(slot)) slots.splice(slots.indexOf(slot), 1);
      void slot.worker.stop();
    }, idleMs);
    slot.idleTimer.unref();
  }

  function dispatch() {
    while (queue.length > 0 && !closed) {
      const slot = slots.find((each) => !each.job) ?? (slots.length < workers ? startSlot() : null);
      if (!slot) return;
      run(slot, takeQueued()!);
    }
  }

  /**
   * Throws the busy error when `count` jobs of `cost` each, asked for now, would wait longer than
   * the bound: a caller can ask before it reads what the jobs need, so a refused one costs nothing.
   */
  function admit(count = 1, cost = 1): void {
    const now = performance.now();
    const waitMs = expectedWaitMs(now) + ((count - 1) * cost * msPerCost) / workers;
    if (waitMs <= maxWaitMs) return;
    const turnInMs = settings.spreadTurns ? turnFor(now, waitMs, cost) - now : waitMs - maxWaitMs;
    throw settings.busy(Math.max(1, Math.ceil(turnInMs / 1000)));
  }

  return {
    workers,
    admit,
    /**
     * Runs `input` on a worker; rejects with the busy error when it would wait longer than the
     * bound, and with an Error when its worker failed, hung or the pool was closed.
     */
    run(input: Input, cost = 1): Promise<Output> {
      if (closed) return Promise.reject(new Error(settings.closedMessage));
      try {
        admit(1, cost);
      } catch (error) {
        return Promise.reject(error as Error);
      }
      return new Promise<Output>((resolve, reject) => {
        queue.push({ id: nextId++, input, cost, resolve, reject });
        queuedCost += cost;
        dispatch();
      });
    },
    /**
     * Jobs running and waiting, workers started, the measured time of a unit of cost and the wait
     * a new job would have.
     */
    load: () => ({
      running: slots.filter((slot) => slot.job).length,
      queued: queue.length,
      workers: slots.length,
      msPerCost,
      waitMs: expectedWaitMs(performance.now()),
    }),
    /** Fails every job waiting or running and stops the workers; the pool takes no more. */
    async close(): Promise<void> {
      closed = true;
      queuedCost = 0;
      for (const job of queue.splice(0)) job.reject(new Error(settings.closedMessage));
      await Promise.all(
        slots.splice(0).map((slot) => {
          clearTimeout(slot.idleTimer);
          clearTimeout(slot.timer);
          slot.job?.reject(new Error(settings.closedMessage));
          return slot.worker.stop();
        }),
      );
    },
  };
}

/** How a lost worker's error reads: it stopped (`how`: an exit code or signal), or failed. */
export interface LostWorkerTexts {
  stopped(how: string): string;
  /** Default: the worker's own error. */
  failed?(error: Error): string;
}

const failedError = (texts: LostWorkerTexts, error: Error) =>
  texts.failed ? new Error(texts.failed(error)) : error;

/** A worker thread running `source` (plain JavaScript, run with `eval`). */
export function threadWorker<Message, Answer>(
  source: string,
  texts: LostWorkerTexts,
): StartWorker<Message, Answer> {
  return (events) => {
    const worker = new Worker(source, { eval: true });
    worker.on('message', (answer: Answer) => events.answer(answer));
    worker.on('error', (error) => events.lost(failedError(texts, error)));
    worker.on('exit', (code) => events.lost(new Error(texts.stopped(`exit code ${code}`))));
    return {
      send: (message) => worker.postMessage(message),
      keepAlive: (busy) => (busy ? worker.ref() : worker.unref()),
      kill: () => void worker.terminate(),
      stop: async () => void (await worker.terminate()),
    };
  };
}

/** How a worker process is started: its file, Node's flags, its folder and environment. */
export interface ProcessCommand {
  file: string;
  execArgv: string[];
  cwd?: string;
  /** Its environment, read each time a worker starts (so that it follows process.env). */
  env?: () => NodeJS.ProcessEnv;
}

/** A worker process, forked with an IPC channel in Node's advanced serialization. */
export function processWorker<Message, Answer>(
  command: ProcessCommand,
  texts: LostWorkerTexts,
): StartWorker<Message, Answer> {
  return (events) => {
    const child = fork(command.file, [], {
      execArgv: command.execArgv,
      cwd: command.cwd,
      env: command.env?.(),
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (answer: Answer) => events.answer(answer));
    child.on('error', (error) => events.lost(failedError(texts, error)));
    child.on('exit', (code, signal) =>
      events.lost(new Error(texts.stopped(signal ?? `exit code ${code}`))),
    );
    return {
      send: (message) => void child.send(message as never),
      keepAlive(busy) {
        if (busy) {
          child.ref();
          child.channel?.ref();
        } else {
          child.unref();
          child.channel?.unref();
        }
      },
      kill() {
        if (child.exitCode === null) child.kill('SIGKILL');
      },
      stop: () =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', () => done());
          // Waited for: the process stays until the worker is gone.
          child.ref();
          child.kill();
        }),
    };
  };
}
