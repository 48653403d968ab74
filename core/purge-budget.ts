// The CDN's purge budget (docs/product.md section 6, "The site in a bucket"): at most `perMinute`
// purge requests in any minute, as a CDN counts them (Cloudflare's free plan: 5). One rule, kept
// wherever the times are: in the store, shared by every instance on the database
// (store/parts/purge-budget.ts), or in one process's memory (server/publishing/site-bucket/purge-hook.ts).

export const PURGE_WINDOW_MS = 60_000;

/**
 * When the next request may go, in ms: `now`, or later when `perMinute` requests already have
 * their times within a minute of it. `latest` are the times of the requests taken before (sent,
 * or due to be), newest first, at least the last `perMinute` of them. Times only grow: a request
 * never goes before one taken earlier, so the window holds whatever order the takers sleep in.
 */
export function nextPurgeAt(latest: readonly number[], perMinute: number, now: number): number {
  const newest = latest[0] ?? now;
  const oldestCounted = latest[perMinute - 1];
  return Math.max(now, newest, oldestCounted === undefined ? now : oldestCounted + PURGE_WINDOW_MS);
}
