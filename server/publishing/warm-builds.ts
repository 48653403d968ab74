// The server's warm publisher (pipeline/publish-worker.ts): one Node process kept between
// publishes, which runs a small site's build with its modules already loaded and compiled (about
// half a publish's time: docs/benchmarks.md, "Publishing speed"). build-publisher.ts hands it each
// build's command; it answers with the build's end, or `cold` when the build must run as a Node of
// its own (a first build, --full, a site past the small size: pipeline/build-plan.ts decides, for
// both). The process is started at the first publish, started again after one that failed (a
// failing step ends it, as it ends a build of its own), and ended after `idleMs` without a
// publish, with the server, or when the build's code changed (another sources stamp).
import { fork, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { PublishAnswer, PublishRequest } from '../../pipeline/publish-worker.ts';

/** How a build in the warm process ended: as a process's exit would say it. */
export interface WarmBuildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface WarmBuilds {
  /** Runs the build command (`args` after build.mjs) in the warm process; `cold`: run it apart. */
  run(args: string[], env: NodeJS.ProcessEnv): Promise<WarmBuildEnd | 'cold'>;
  /** Ends the warm process, once a build under way has ended. */
  stop(): void;
  /** Builds the warm process ran to their end, so far. */
  readonly built: number;
}

export interface WarmBuildsSettings {
  /** The bundled publish worker ({out}/server/publish-worker.mjs). */
  entry: string;
  /** Each line the process writes, stdout and stderr alike. */
  onLine: (line: string) => void;
  /** The process ends after this long without a publish. */
  idleMs: number;
}

/** Node's longest timer (about 24.8 days); a longer one would fire at once. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The sources stamp the process was started for: another one means other code. */
const SOURCES_VARIABLE = 'LOCALBOARD_SOURCES';

export function warmBuilds({ entry, onLine, idleMs }: WarmBuildsSettings): WarmBuilds {
  let worker: { child: ChildProcess; sources: string | undefined } | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let running = false;
  let nextId = 0;
  let built = 0;

  function start(env: NodeJS.ProcessEnv, cwd: string) {
    const child = fork(entry, [], {
      cwd,
      env,
      execArgv: ['--enable-source-maps', '--max-semi-space-size=16', '--expose-gc'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    for (const stream of [child.stdout!, child.stderr!])
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', onLine);
    // Its end is read by the build waiting on it; one that ends between builds is started again.
    child.once('exit', () => {
      if (worker?.child === child) worker = undefined;
    });
    worker = { child, sources: env[SOURCES_VARIABLE] };
    return worker;
  }

  /** Between builds the process keeps nobody waiting: the server may end without ending it. */
  function holdOpen(child: ChildProcess, held: boolean) {
    for (const handle of [child, child.channel, child.stdout, child.stderr] as const) {
      const refs = handle as { ref?: () => void; unref?: () => void } | null | undefined;
      if (held) refs?.ref?.();
      else refs?.unref?.();
    }
  }

  /** Ends the process now, or after the build under way. */
  function end() {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    const child = worker?.child;
    worker = undefined;
    if (!child) return;
    // Closing the channel ends it (pipeline/publish-worker.ts); one that does not listen is killed.
    if (child.connected) child.disconnect();
    else child.kill();
  }

  return {
    run(args, env) {
      if (idleTimer) clearTimeout(idleTimer);
      if (worker && worker.sources !== env[SOURCES_VARIABLE]) end();
      const { child } = worker ?? start(env, process.cwd());
      holdOpen(child, true);
      running = true;
      const request: PublishRequest = { id: (nextId += 1), args, env, cwd: process.cwd() };
      return new Promise<WarmBuildEnd | 'cold'>((resolve) => {
        const answered = (answer: PublishAnswer) => {
          if (answer.id !== request.id) return;
          if (answer.done === 'built') built += 1;
          settle(answer.done === 'cold' ? 'cold' : { code: 0, signal: null });
        };
        // Ended before it answered: a failure, whatever its code.
        const ended = (code: number | null, signal: NodeJS.Signals | null) =>
          settle({ code: code === 0 ? 1 : code, signal });
        const failed = (error: Error) => {
          onLine(`The warm publisher failed: ${error.message}`);
          child.kill();
          settle({ code: 1, signal: null });
        };
        function settle(outcome: WarmBuildEnd | 'cold') {
          child.off('message', answered);
          child.off('close', ended);
          child.off('error', failed);
          running = false;
          if (worker?.child === child) {
            holdOpen(child, false);
            idleTimer = setTimeout(end, Math.min(idleMs, LONGEST_TIMER_MS));
            idleTimer.unref();
          }
          resolve(outcome);
        }
        child.on('message', answered);
        // 'close': its exit, and every line it wrote read (a failure's reasons come last).
        child.once('close', ended);
        child.once('error', failed);
        child.send(request, (error) => {
          if (error) failed(error);
        });
      });
    },
    stop() {
      if (!running) return end();
      // After the build under way: its idle timer ends the process at once.
      idleMs = 0;
    },
    get built() {
      return built;
    },
  };
}
