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
