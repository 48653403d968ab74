// The Hono app: the accounts API and the prerendered site. A standard fetch handler, so it runs
// on Node (server/index.ts) or any runtime that speaks fetch.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import {
  createHashingPool,
  type HashingPool,
  type HashingPoolSettings,
} from './auth/hashing-pool.ts';
import { passwordHasher } from './auth/passwords.ts';
import {
  createRateLimits,
  DEFAULT_RATE_LIMITS,
  type RateLimitSettings,
} from './auth/rate-limits.ts';
import { proxyTrust, type TrustProxySetting } from './client-address.ts';
import type { Db } from './db/database.ts';
import { formPages } from './form-page.ts';
import { originCheck } from './middleware/origin-check.ts';
import { requestLog } from './middleware/request-log.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { Refusal, refusals } from './refusal.ts';
import { accountsRoutes } from './routes/accounts.ts';
import { staticSite } from './static-site.ts';

export interface AppOptions {
  /** Folder of the prerendered site (dist/site). */
  siteDir: string;
  /** The open database (server/db/database.ts). */
  db: Db;
  rateLimits?: RateLimitSettings;
  /** Other origins allowed to post to the API (a site on another host). */
  allowedOrigins?: readonly string[];
  /**
   * Behind reverse proxies: which hops are ours, so X-Forwarded-For and X-Forwarded-Proto are
   * believed only as far as they were written by them (see client-address.ts). Default: none.
   */
  trustProxy?: TrustProxySetting;
  /**
   * Password hashing threads and queue, or a pool to share. Default: one pool per process, shared
   * by every app in it.
   */
  hashing?: HashingPoolSettings | HashingPool;
  /** Where request lines go; false for none. */
  log?: ((line: string) => void) | false;
}

/** Largest request body the API reads. */
export const MAX_BODY_BYTES = 16 * 1024;

let processHashingPool: HashingPool | undefined;

function hashingPoolFor(option: AppOptions['hashing']): HashingPool {
  if (option && 'scrypt' in option) return option;
  if (option) return createHashingPool(option);
  return (processHashingPool ??= createHashingPool());
}

export function createApp(options: AppOptions) {
  const trust = proxyTrust(options.trustProxy);
  const refuse = refusals(formPages(options.siteDir));
  const app = new Hono();
  if (options.log !== false) app.use(requestLog(options.log));
  app.use(securityHeaders(trust));

  const api = new Hono();
  api.use(async (c, next) => {
    await next();
    // Every API answer is about this visitor (their session, what they typed): never cached.
    c.res.headers.set('Cache-Control', 'no-store');
  });
  // Only the form pages answered to refused form posts are worth compressing: the JSON answers
  // are a few dozen bytes, and gzip-streaming each one costs more than it saves.
  api.use(compress({ contentTypeFilter: /^text\/html/ }));
  api.use(originCheck(options.allowedOrigins ?? [], trust, refuse));
  api.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        refuse(
          c,
          new Refusal(413, `The request body is too large (${MAX_BODY_BYTES / 1024} KB at most).`),
        ),
    }),
  );
  api.route(
    '/',
    accountsRoutes({
      db: options.db,
      rateLimits: createRateLimits(options.rateLimits ?? DEFAULT_RATE_LIMITS),
      passwords: passwordHasher(hashingPoolFor(options.hashing)),
      refuse,
      trust,
    }),
  );
  // A mounted app's notFound handler is not used by Hono, so the catch-all is a route.
  api.all('*', (c) => c.json({ error: 'There is no such API endpoint.' }, 404));
  app.route('/api', api);

  app.use(staticSite(options.siteDir));
  app.onError((error, c) => {
    console.error(error);
    return c.json({ error: 'Something went wrong on our side. Please try again.' }, 500);
  });
  return app;
}
