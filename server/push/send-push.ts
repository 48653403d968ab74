// Sends one push to one device (RFC 8030): web-push encrypts the payload for the device's keys
// (RFC 8291, aes128gcm) and signs the VAPID header (RFC 8292); the request is posted with fetch,
// which takes http: as well as https: (a push service on loopback, in the tests) and a deadline.
// What the push service answered decides what becomes of the push (push-queue.ts):
// - 201 (or another 2xx): sent;
// - 404 or 410: the subscription is gone (the member turned notifications off, or reinstalled
//   the browser): it is deleted, with its waiting pushes;
// - 429 or a 5xx, no answer in time, no connection: tried again later (Retry-After is heeded);
// - anything else (400 a malformed request, 401/403 a VAPID key the subscription was not made
//   with, 413 too large): given up, and logged.
import webpush from 'web-push';
import type { PushDelivery } from '../../store/parts/pushes.ts';
import { PUSH_LIFETIME_SECONDS } from './limits.ts';
import { isAllowedEndpoint, type WebPushSettings } from './web-push-settings.ts';

export type PushOutcome =
  | { kind: 'sent' }
  | { kind: 'gone'; status: number }
  | { kind: 'retry'; reason: string; retryAfterMs?: number }
  | { kind: 'refused'; reason: string };

/** How long a push service has to answer. */
export const PUSH_TIMEOUT_MS = 10_000;

/** Retry-After in milliseconds: seconds, or an HTTP date; undefined when absent or unreadable. */
function retryAfterMs(header: string | null, now: Date): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** What a push service's answer means for the push. */
export function outcomeOf(status: number, retryAfter: string | null, now: Date): PushOutcome {
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 404 || status === 410) return { kind: 'gone', status };
  if (status === 429 || status >= 500) {
    const wait = retryAfterMs(retryAfter, now);
    return {
      kind: 'retry',
      reason: `HTTP ${status}`,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    };
  }
  return { kind: 'refused', reason: `HTTP ${status}` };
}

/** Sends the push, once; what came of it. */
export async function sendPush(
  settings: WebPushSettings,
  delivery: PushDelivery,
  now: Date,
): Promise<PushOutcome> {
  // PUSH_SERVICE_ORIGINS may have changed since the device subscribed.
  if (!isAllowedEndpoint(delivery.endpoint, settings.serviceOrigins))
    return { kind: 'refused', reason: 'its push service is not in PUSH_SERVICE_ORIGINS' };
  // What is left of its day: a push tried again lives no longer than the first try would.
  const age = Math.floor((now.getTime() - Date.parse(delivery.createdAt)) / 1000);
  const request = webpush.generateRequestDetails(
    { endpoint: delivery.endpoint, keys: { p256dh: delivery.p256dh, auth: delivery.auth } },
    delivery.payload,
    {
      vapidDetails: settings.vapid,
      contentEncoding: 'aes128gcm',
      TTL: Math.max(0, PUSH_LIFETIME_SECONDS - age),
      urgency: delivery.urgency,
      topic: delivery.topic,
    },
  );
  const headers = new Headers();
  // fetch counts the body itself.
  for (const [name, value] of Object.entries(request.headers))
    if (name.toLowerCase() !== 'content-length') headers.set(name, String(value));
  let response: Response;
  try {
    response = await fetch(request.endpoint, {
      method: 'POST',
      headers,
      body: new Uint8Array(request.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
  } catch (error) {
    const { message, cause } = error as Error & { cause?: Error };
    return { kind: 'retry', reason: cause?.message ?? message };
  }
  // The answer's body says nothing we act on.
  await response.body?.cancel();
  return outcomeOf(response.status, response.headers.get('retry-after'), now);
}
