// Known browsers: a browser its member signed up, signed in or reset the password from carries
// the `lb_device` cookie (session-cookie.ts), stored by its hash (db/known-devices.ts). Sign-in's
// limits (rate-limits.ts) count such a browser on its own: the failures of others on the account
// never hold it back. Sign-in, the password reset and Delete my account ask the same question.
import type { Context } from 'hono';
import { isHttps, type ProxyTrust } from '../client-address.ts';
import type { Db } from '../db/database.ts';
import { knownDeviceStore, type KnownDevice } from '../db/known-devices.ts';
import {
  DEVICE_DAYS,
  deviceTokenOf,
  hashToken,
  newSessionToken,
  setDeviceCookie,
} from './session-cookie.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export function knownBrowsers(db: Db, trust: ProxyTrust) {
  const devices = knownDeviceStore(db);
  const unusedBefore = (now: Date) => new Date(now.getTime() - DEVICE_DAYS * DAY_MS).toISOString();
  return {
    /** This request's browser, when it is one of `accountId`'s; it counts as used now. */
    of(c: Context, accountId: number): KnownDevice | undefined {
      const token = deviceTokenOf(c);
      if (!token) return undefined;
      const now = new Date();
      const device = devices.find(hashToken(token), unusedBefore(now));
      if (device?.accountId !== accountId) return undefined;
      devices.touch(device.id, now.toISOString());
      return device;
    },
    /** Marks this request's browser as `accountId`'s: a new cookie, one year. */
    remember(c: Context, accountId: number): void {
      const token = newSessionToken();
      devices.remember(hashToken(token), accountId, new Date().toISOString());
      setDeviceCookie(c, token, isHttps(c, trust));
    },
    /** Forgets browsers unused for a year (at start-up). */
    removeUnused(): void {
      devices.removeUnusedSince(unusedBefore(new Date()));
    },
  };
}

/**
 * Who is trying a password, for sign-in's limits: a known browser of the account by its device,
 * anyone else by their address (`addressKey`), counted with every other new browser on it.
 */
export function signinClient(
  known: KnownDevice | undefined,
  addressKey: string,
): { key: string; newBrowser: boolean } {
  return known
    ? { key: `device:${known.id}`, newBrowser: false }
    : { key: addressKey, newBrowser: true };
}
