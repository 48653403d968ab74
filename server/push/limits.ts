// How often a member is pushed, and how a push that failed is tried again (docs/product.md
// section 7, "Notifications on this device"). A member is notified, not flooded: a burst of
// messages in one conversation is one notification (the first; the page shows the rest), and
// at most PUSHES_PER_WINDOW notifications reach them in PUSH_WINDOW_MINUTES, whatever they are
// about. A push not sent is dropped: the header's unread count and the mail still say it.
// A push service that fails for now (an error of its own, too many requests, no answer) is tried
// again after 30 s, 2, 8 and 32 minutes (or later, when its Retry-After says so), then given up;
// so is a push still unsent after a day, when it would no longer be news.

/** One notification a conversation (a topic) in this long: a burst of messages is one. */
export const TOPIC_QUIET_SECONDS = 60;
/** At most this many notifications reach a member in PUSH_WINDOW_MINUTES. */
export const PUSHES_PER_WINDOW = 10;
export const PUSH_WINDOW_MINUTES = 10;
/** How long a push service keeps a push for a device that is off (its TTL), and we try it. */
export const PUSH_LIFETIME_SECONDS = 24 * 60 * 60;
/** Tries of one push, the first included. */
export const PUSH_ATTEMPTS = 5;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60_000;

/** Since when the notices that count for a push to be sent now are read. */
export const noticesCountedSince = (now: Date) =>
  new Date(now.getTime() - PUSH_WINDOW_MINUTES * 60_000).toISOString();

/**
 * Why a push of `topic` would be one too many now, given the member's notices since
 * noticesCountedSince (newest first); undefined when it may go.
 */
export function pushLimitReached(
  notices: ReadonlyArray<{ topic: string; at: string }>,
  topic: string,
  now: Date,
): 'same-topic' | 'too-many' | undefined {
  const quietSince = now.getTime() - TOPIC_QUIET_SECONDS * 1000;
  if (notices.some((notice) => notice.topic === topic && Date.parse(notice.at) > quietSince))
    return 'same-topic';
  return notices.length >= PUSHES_PER_WINDOW ? 'too-many' : undefined;
}

/**
 * When a push tried `attempts` times (this one included) is tried next; undefined: given up.
 * `retryAfterMs`: what the push service asked for, if it did.
 */
export function nextAttemptAt(
  attempts: number,
  now: Date,
  createdAt: string,
  retryAfterMs?: number,
): string | undefined {
  if (attempts >= PUSH_ATTEMPTS) return undefined;
  const backoff = FIRST_RETRY_MS * 4 ** (attempts - 1);
  const wait = Math.min(Math.max(backoff, retryAfterMs ?? 0), LONGEST_RETRY_MS);
  const next = now.getTime() + wait;
  return next > Date.parse(createdAt) + PUSH_LIFETIME_SECONDS * 1000
    ? undefined
    : new Date(next).toISOString();
}
