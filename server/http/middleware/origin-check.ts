// Refuses state-changing requests sent from another site (CSRF): a browser always names the page's
// origin on a cross-site POST. Scripts that send no Origin and no Sec-Fetch-Site are let through.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { forwardedProto, type ProxyTrust } from '../../auth/client-address.ts';
import { Refusal } from '../../../core/refusal.ts';
import { type AnswerRefusal } from '../forms/refusal.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function originCheck(
  allowedOrigins: readonly string[],
  trust: ProxyTrust,
  refuse: AnswerRefusal,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    const url = new URL(c.req.url);
    // Behind a TLS-terminating proxy the page's origin is https even though this request is not.
    const proto = forwardedProto(c, trust);
    const protocol = proto ? `${proto}:` : url.protocol;
    const own = [
      url.origin,
      `${protocol}//${url.host}`,
      `${protocol}//${c.req.header('host') ?? url.host}`,
    ];
    const allowed =
      origin === undefined
        ? c.req.header('sec-fetch-site') !== 'cross-site'
        : own.includes(origin) || allowedOrigins.includes(origin);
    if (!allowed)
      return refuse(
        c,
        new Refusal('forbidden', 'This request came from another site and was refused.'),
      );
    return next();
  };
}
