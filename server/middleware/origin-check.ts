// Refuses state-changing requests sent from another site (CSRF): a browser always names the page's
// origin on a cross-site POST. Scripts that send no Origin and no Sec-Fetch-Site are let through.
import type { MiddlewareHandler } from 'hono';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function originCheck(allowedOrigins: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const own = new URL(c.req.url).origin;
    const hostOrigin = `${new URL(c.req.url).protocol}//${c.req.header('host') ?? ''}`;
    const allowed = origin === undefined
      ? c.req.header('sec-fetch-site') !== 'cross-site'
      : origin === own || origin === hostOrigin || allowedOrigins.includes(origin);
    if (!allowed) return c.json({ error: 'This request came from another site and was refused.' }, 403);
    return next();
  };
}
