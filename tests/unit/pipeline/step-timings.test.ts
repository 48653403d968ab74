// A build step's timing line (pipeline/step-timings.ts): what the build's log says of where a
// publish spends its time.
import { describe, expect, it } from 'vitest';
import {
  HANDED_OVER_AT_VARIABLE,
  handedOverNow,
  stepTimer,
} from '../../../pipeline/step-timings.ts';

const SECONDS = String.raw`\d+\.\d\d s \(\d+\.\d\d s CPU\)`;

describe('a step timing line', () => {
  it('names the step, its start-up and each part marked, in order, with time and CPU time', () => {
    const timer = stepTimer('Compiling content', {});
    timer.mark('member ads');
    timer.mark('content checked');
    expect(timer.line()).toMatch(
      new RegExp(
        `^Timings of Compiling content: start-up ${SECONDS}, member ads ${SECONDS}, content checked ${SECONDS}\\.$`,
      ),
    );
  });

  it('counts a part from the mark before it', () => {
    const timer = stepTimer('Prerendering pages', {});
    const until = Date.now() + 60;
    while (Date.now() < until) {
      // Busy: the part takes time and CPU time.
    }
    timer.mark('render groups');
    const [, seconds, cpu] = /render groups (\d+\.\d\d) s \((\d+\.\d\d) s CPU\)/.exec(
      timer.line(),
    )!;
    expect(Number(seconds)).toBeGreaterThanOrEqual(0.06);
    expect(Number(cpu)).toBeGreaterThan(0);
  });

  it('counts the start-up from the hand-over of the process before', () => {
    const handedOver = handedOverNow().replace(/^\d+/, String(Date.now() - 1500));
    const timer = stepTimer('Prerendering pages', { [HANDED_OVER_AT_VARIABLE]: handedOver });
    const startUp = Number(/start-up (\d+\.\d\d) s/.exec(timer.line())![1]);
    expect(startUp).toBeGreaterThanOrEqual(1.5);
    expect(startUp).toBeLessThan(10);
  });
});
