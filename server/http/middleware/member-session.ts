// The HTTP side of the account workflows (server/accounts/): the session a sign-up or sign-in
// starts (a row and its cookies, session-cookie.ts), sign-out, this browser remembered as one of the
// account's known browsers (known-browser.ts), the cookies cleared when the account's sessions end,
// and who sent the request as the workflows ask it (its address, its known browser).
import type { Requester } from '../../accounts/password-check.ts';
import type { AppContext } from '../app-env.ts';
import {
  clientAddress,
  isHttps,
  rateLimitKey,
  type ProxyTrust,
} from '../../auth/client-address.ts';
import type { Store } from '../../../store/store.ts';
import { knownBrowsers } from '../../auth/known-browser.ts';
import { deleteCookie } from 'hono/cookie';
import {
  clearSessionCookies,
  DEVICE_COOKIE,
  SESSION_DAYS,
  sessionTokenOf,
  setSessionCookies,
} from '../../auth/session-cookie.ts';
import { hashToken, newSessionToken } from '../../auth/tokens.ts';
import { DAY_MS } from '../../../core/days.ts';
import { API_PREFIX } from '../../../core/paths.ts';

export function memberSessions(
  store: Pick<Store, 'sessions' | 'knownDevices'>,
  trust: ProxyTrust,
  clock: () => Date,
) {
  const { sessions } = store;
  const browsers = knownBrowsers(store, trust, clock);
  return {
    /** Who sent the request, as the account workflows ask it. */
    requester(c: AppContext): Requester {
      return {
        addressKey: rateLimitKey(clientAddress(c, trust)),
        knownBrowser: (accountId) => browsers.of(c, accountId),
      };
    },
    /** Signs this browser in to `accountId`: a new session, and its cookies. */
    async start(c: AppContext, accountId: number): Promise<void> {
      const token = newSessionToken();
      const now = clock();
      const expires = new Date(now.getTime() + SESSION_DAYS * DAY_MS);
      await sessions.create(hashToken(token), accountId, now.toISOString(), expires.toISOString());
      setSessionCookies(c, token, isHttps(c, trust));
    },
    /** Signs this browser out: its session revoked, its cookies cleared. */
    async end(c: AppContext): Promise<void> {
      const token = sessionTokenOf(c);
      if (token) await sessions.revoke(hashToken(token));
      clearSessionCookies(c, isHttps(c, trust));
    },
    /** Marks this browser as `accountId`'s (sign-up, sign-in from a new browser). */
    remember: (c: AppContext, accountId: number) => browsers.remember(c, accountId),
    /**
     * After a password reset: the account's sessions were revoked, so this browser's cookies go
     * too; whoever had the emailed link is the owner, so this browser is theirs now, for
     * sign-in's limits.
     */
    async afterReset(c: AppContext, accountId: number): Promise<void> {
      clearSessionCookies(c, isHttps(c, trust));
      if (!(await browsers.of(c, accountId))) await browsers.remember(c, accountId);
    },
    /** After the account is deleted: its session and known-browser cookies go. */
    forget(c: AppContext): void {
      const secure = isHttps(c, trust);
      clearSessionCookies(c, secure);
      deleteCookie(c, DEVICE_COOKIE, {
        path: API_PREFIX,
        secure,
        httpOnly: true,
        sameSite: 'Strict',
      });
    },
    /**
     * Expired sessions and long-unused browsers no longer count; cleared out at start-up, in the
     * background (a failure is only logged: the next start clears them).
     */
    cleanUp(): void {
      void sessions.removeExpired(clock().toISOString()).catch(cleanUpFailed);
      void browsers.removeUnused().catch(cleanUpFailed);
    },
  };
}

export type MemberSessions = ReturnType<typeof memberSessions>;

const cleanUpFailed = (error: unknown) =>
  console.error(`Start-up clean-up of sessions and browsers failed: ${(error as Error).message}`);
