// A password tried for an account (sign-in, and Delete my account asking for it again), with
// sign-in's limits (server/auth/rate-limits.ts): a browser the account's owner signed in from
// before (a known browser, server/auth/known-browser.ts) is counted on its own, so the failures of
// others never hold it back; any other client is counted by its address, and with every other new
// browser on the account, which enough failures close to them for a while.
import {
  throwIfAccountClosed,
  throwIfWaiting,
  type CountedAttempt,
  type RateLimits,
} from '../auth/rate-limits.ts';
import type { Refusal } from '../../core/refusal.ts';
import type { KnownDevice } from '../../store/parts/known-devices.ts';

/** Who sent a request, as the account workflows ask it (the routes make it from the request). */
export interface Requester {
  /** The client's address, as the rate limits count it (server/auth/client-address.ts). */
  addressKey: string;
  /** This browser, when it is one of `accountId`'s known browsers (it counts as used now). */
  knownBrowser(accountId: number): Promise<KnownDevice | undefined>;
}

/** Who is trying a password, for sign-in's limits. */
export interface PasswordClient {
  key: string;
  newBrowser: boolean;
}

/**
 * Who is trying a password, for sign-in's limits: a known browser of the account by its device,
 * anyone else by their address (`addressKey`), counted with every other new browser on it.
 */
export function signinClient(known: KnownDevice | undefined, addressKey: string): PasswordClient {
  return known
    ? { key: `device:${known.id}`, newBrowser: false }
    : { key: addressKey, newBrowser: true };
}

/**
 * Tries a password for `email`'s account, once the limits let `client` try: what `matched` found
 * when the password is right (the account), else a failed sign-in is counted and `wrong` thrown.
 * `attempt` is the request's (a hash the pool could not take gives back what it counted).
 */
export async function tryPassword<Matched>(
  rateLimits: RateLimits,
  attempt: CountedAttempt,
  email: string,
  client: PasswordClient,
  matched: () => Promise<Matched | undefined>,
  wrong: Refusal,
): Promise<Matched> {
  if (client.newBrowser) throwIfWaiting(await attempt.consume('signinPerIp', client.key));
  throwIfWaiting(await rateLimits.signinWait(email, client.key));
  if (client.newBrowser) throwIfAccountClosed(await attempt.newBrowser(email));
  const found = await matched();
  if (found === undefined) {
    await rateLimits.signinFailed(email, client.key);
    throw wrong;
  }
  await rateLimits.signinSucceeded(email, client.key, client.newBrowser);
  return found;
}
