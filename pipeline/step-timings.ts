// Where a build step's time goes, in one line at its end (`Timings of …: start-up 0.21 s (0.15 s
// CPU), …`): its start-up (Node, its modules, and the hand-over from the process before it) and
// each part it marks, in time and in CPU time (the process's, its threads' included), which a
// busy machine changes much less. A publish is timed from outside (approve, then ask for the ad's
// URL: docs/benchmarks.md, "Publishing speed"); these lines say which part of it to look at.

/**
 * Set by the process that hands the build over (hand-over.ts): when it did (ms since the epoch)
 * and the CPU time used by then (µs; a process keeps its CPU time across an execve).
 */
export const HANDED_OVER_AT_VARIABLE = 'LOCALBOARD_BUILD_HANDED_OVER_AT';

/** The value of HANDED_OVER_AT_VARIABLE for a hand-over now. */
export const handedOverNow = () => `${Date.now()} ${cpuMicros()}`;

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

export interface StepTimer {
  /** The part that ends now: the time since the last mark (or since start-up). */
  mark(part: string): void;
  /** The step's line: start-up, then each part marked, in seconds. */
  line(): string;
}

/** A timer for `step`, made when the step's own code starts (its modules are loaded). */
export function stepTimer(step: string, env: NodeJS.ProcessEnv = process.env): StepTimer {
  let last = performance.now();
  let lastCpu = cpuMicros();
  const [handedAt = 0, handedCpu = 0] = (env[HANDED_OVER_AT_VARIABLE] ?? '').split(' ').map(Number);
  // Since the process before handed over (execve keeps no clock), else since this Node began.
  const parts: Array<[string, number, number]> = [
    handedAt > 0
      ? ['start-up', Date.now() - handedAt, (lastCpu - handedCpu) / 1000]
      : ['start-up', last, lastCpu / 1000],
  ];
  return {
    mark(part) {
      const [now, cpu] = [performance.now(), cpuMicros()];
      parts.push([part, now - last, (cpu - lastCpu) / 1000]);
      [last, lastCpu] = [now, cpu];
    },
    line() {
      const seconds = (ms: number) => (ms / 1000).toFixed(2);
      const shown = parts.map(
        ([part, ms, cpuMs]) => `${part} ${seconds(ms)} s (${seconds(cpuMs)} s CPU)`,
      );
      return `Timings of ${step}: ${shown.join(', ')}.`;
    },
  };
}
