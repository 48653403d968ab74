// The queue of pushes (docs/product.md section 7, "Notifications on this device"), kept in the
// database (store/parts/pushes.ts) so that a push survives a restart, any instance may send it, and a
// saved searches' digest run (a process of its own) may queue one for the server to send:
// - `queuePush` queues a push for every device of a member, unless the rate limit says it is one
//   too many (limits.ts), in one unit of work holding the member's push lock (`push:{id}`), so that
//   two messages at once on two instances count each other;
// - `sendDuePushes` claims the pushes due (a lease: an instance that stops mid-way leaves them to
//   another once it runs out), sends a few at a time (send-push.ts), and deletes each sent push, a
//   gone device with its pushes, a push given up; a failure for now is tried again later.
import type { OutgoingPush, PushDelivery } from '../../store/parts/pushes.ts';
import type { Store } from '../../store/store.ts';
import { nextAttemptAt, noticesCountedSince, pushLimitReached } from './limits.ts';
import { sendPush, type PushOutcome } from './send-push.ts';
import type { WebPushSettings } from './web-push-settings.ts';

/** Queues the push for the member's devices; whether it was (false: no device, or the limit). */
export async function queuePush(
  store: Store,
  accountId: number,
  push: OutgoingPush,
  now: Date,
): Promise<boolean> {
  // Most members have no device: no unit of work (a writer, on SQLite) for them.
  if ((await store.pushes.devicesOf(accountId)).length === 0) return false;
  return store.unitOfWork(async (tx) => {
    await tx.lock(`push:${accountId}`);
    const notices = await tx.pushes.noticesSince(accountId, noticesCountedSince(now));
    if (pushLimitReached(notices, push.topic, now)) return false;
    return (await tx.pushes.enqueue(accountId, push, now.toISOString())) > 0;
  });
}

/** Pushes claimed at a time, and sent at once. */
const CLAIM_BATCH = 50;
const IN_FLIGHT = 8;
/** How long a claim holds a push: well past PUSH_TIMEOUT_MS, so it is never sent twice. */
const LEASE_MS = 2 * 60_000;

export interface PushRun {
  sent: number;
  /** Devices whose push service said they are gone: deleted. */
  gone: number;
  retried: number;
  givenUp: number;
}

/** Sends every push due now, batch after batch; what became of them. */
export async function sendDuePushes(
  store: Store,
  settings: WebPushSettings,
  now: () => Date,
  log: (line: string) => void,
): Promise<PushRun> {
  const run: PushRun = { sent: 0, gone: 0, retried: 0, givenUp: 0 };
  const settle = async (delivery: PushDelivery, outcome: PushOutcome, at: Date) => {
    if (outcome.kind === 'sent') {
      run.sent += 1;
      return store.pushes.done(delivery.id);
    }
    if (outcome.kind === 'gone') {
      run.gone += 1;
      return store.pushes.removeSubscription(delivery.subscriptionId);
    }
    const attempts = delivery.attempts + 1;
    const next =
      outcome.kind === 'retry'
        ? nextAttemptAt(attempts, at, delivery.createdAt, outcome.retryAfterMs)
        : undefined;
    // The push service's host only: the endpoint's path is the device's own address.
    const where = `A push to a device on ${new URL(delivery.endpoint).host}`;
    if (next) {
      run.retried += 1;
      log(`${where} failed (${outcome.reason}): tried again at ${next}`);
      return store.pushes.retryAt(delivery.id, attempts, next);
    }
    run.givenUp += 1;
    log(
      `${where} was given up after ${attempts} tr${attempts === 1 ? 'y' : 'ies'}: ${outcome.reason}`,
    );
    return store.pushes.done(delivery.id);
  };
  for (;;) {
    const at = now();
    const claimed = await store.pushes.claimDue(
      at.toISOString(),
      new Date(at.getTime() + LEASE_MS).toISOString(),
      CLAIM_BATCH,
    );
    for (let start = 0; start < claimed.length; start += IN_FLIGHT)
      await Promise.all(
        claimed.slice(start, start + IN_FLIGHT).map(async (delivery) => {
          const outcome = await sendPush(settings, delivery, now());
          await settle(delivery, outcome, now());
        }),
      );
    if (claimed.length < CLAIM_BATCH) return run;
  }
}
