// Time passing in a test, through the one clock: the app's `now` (AppOptions.now) is the
// machine's unless told, so the machine's Date is faked (Date only: timers stay real) from the
// moment the test names, and put back when the test ends. A row is never aged by hand.
import { onTestFinished, vi } from 'vitest';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface TestClock {
  /** The first moment, in ms. */
  start: number;
  /** Moves the clock to `ms` after the first moment (or before it, negative). */
  at(ms: number): void;
}

/** The clock at `start` (now unless told), real again when the test ends. */
export function clockFrom(start = Date.now()): TestClock {
  vi.useFakeTimers({ toFake: ['Date'], now: start });
  onTestFinished(() => {
    vi.useRealTimers();
  });
  return { start, at: (ms) => vi.setSystemTime(start + ms) };
}
