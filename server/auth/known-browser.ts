// Known browsers: a browser its member signed up, signed in or reset the password from carries
// the `lb_device` cookie (session-cookie.ts), stored by its hash (store/parts/known-devices.ts). Sign-in's
// limits (rate-limits.ts) count such a browser on its own: the failures of others on the account
// never hold it back (server/accounts/password-check.ts). Sign-in, the password reset and Delete my
// account ask the same question.
import type { Context } from 'hono';
import { isHttps, type ProxyTrust } from './client-address.ts';
import type { KnownDevice } from '../../store/parts/known-devices.ts';
import type { Store } from '../../store/store.ts';
import { DEVICE_DAYS, deviceTokenOf, setDeviceCookie } from './session-cookie.ts';
import { hashToken, newSessionToken } from './tokens.ts';
import { DAY_MS } from '../../core/days.ts';

/** A script signing in without keeping cookies would add a device each time: keep the latest. */
export const MAX_DEVICES_PER_ACCOUNT = 20;

export function knownBrowsers(
  store: Pick<Store, 'knownDevices'>,
  trust: ProxyTrust,
  clock: () => Date,
) {
  const devices = store.knownDevices;
  const unusedBefore = (now: Date) => new Date(now.getTime() - DEVICE_DAYS * DAY_MS).toISOString();
  return {
    /** This request's browser, when it is one of `accountId`'s; it counts as used now. */
    async of(c: Context, accountId: number): Promise<KnownDevice | undefined> {
      const token = deviceTokenOf(c);
      if (!token) return undefined;
      const now = clock();
      const device = await devices.find(hashToken(token), unusedBefore(now));
      if (device?.accountId !== accountId) return undefined;
      await devices.touch(device.id, now.toISOString());
      return device;
    },
    /** Marks this request's browser as `accountId`'s: a new cookie, one year. */
    async remember(c: Context, accountId: number): Promise<void> {
      const token = newSessionToken();
      const now = clock().toISOString();
      await devices.remember(hashToken(token), accountId, now, MAX_DEVICES_PER_ACCOUNT);
      setDeviceCookie(c, token, isHttps(c, trust));
    },
    /** Forgets browsers unused for a year (at start-up). */
    async removeUnused(): Promise<void> {
      await devices.removeUnusedSince(unusedBefore(clock()));
    },
  };
}
