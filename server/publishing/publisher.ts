// Publishing (docs/product.md section 6): what the server's routes ask for when an ad's state on the
// site changes (approved, removed, deleted, renewed, expired). The implementation runs the
// incremental build, one at a time, coalescing requests that arrive while a build runs.

export interface PublishOutcome {
  /** The build that carried this request succeeded. */
  ok: boolean;
  /** When it failed: why, in one line (the server log has the rest). */
  message?: string;
}

export interface Publisher {
  /**
   * Asks for the site to be published again because of `reason` (for the log: "approved ad
   * 100000001"). Resolves once a build that started after this call has finished. Routes do not
   * wait for it: they answer at once, and the pages follow within seconds.
   */
  publish(reason: string): Promise<PublishOutcome>;
}

/**
 * Asks `publisher` (if the app has one: the API's own tests have none) to publish, without waiting:
 * the member or moderator gets their answer now and the pages follow within seconds. The
 * publisher logs a failed build itself; a rejection would be a bug of its own, logged here.
 */
export function publishSoon(publisher: Publisher | undefined, reason: string): void {
  publisher
    ?.publish(reason)
    .catch((error: unknown) => console.error(`Publishing (${reason}) failed: ${String(error)}`));
}

/** The reasons of one run, for the log: the first, and how many more. */
export const reasonsText = (reasons: readonly string[]) =>
  reasons.length === 1 ? reasons[0]! : `${reasons[0]} and ${reasons.length - 1} more`;

/**
 * Runs `run` one at a time: requests that arrive while it runs share the next run, which starts
 * after this one and carries all their reasons. Each request resolves with the outcome of the run
 * that carried it.
 */
export function oneRunAtATime(run: (reasons: readonly string[]) => Promise<PublishOutcome>) {
  let waiting: { reasons: string[]; answer: Array<(outcome: PublishOutcome) => void> } | undefined;
  let running: Promise<void> | undefined;
  let runs = 0;
  let idleWaiters: Array<() => void> = [];

  function next(): void {
    if (running) return;
    const batch = waiting;
    if (!batch) {
      for (const resolve of idleWaiters) resolve();
      idleWaiters = [];
      return;
    }
    waiting = undefined;
    runs += 1;
    running = run(batch.reasons).then((outcome) => {
      for (const answer of batch.answer) answer(outcome);
      running = undefined;
      next();
    });
  }

  return {
    publish(reason: string): Promise<PublishOutcome> {
      return new Promise<PublishOutcome>((resolve) => {
        waiting ??= { reasons: [], answer: [] };
        waiting.reasons.push(reason);
        waiting.answer.push(resolve);
        next();
      });
    },
    /** Resolves once no run is going on or waiting. */
    idle(): Promise<void> {
      if (!running && !waiting) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    /** Runs so far. */
    get runs() {
      return runs;
    },
  };
}
