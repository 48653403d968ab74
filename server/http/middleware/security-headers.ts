// Security headers on every response: a strict Content-Security-Policy, no framing, no powerful
// browser features, HSTS once the request is known to have come over HTTPS, and no caching of
// anything that sets a cookie.
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { isHttps, type ProxyTrust } from '../../auth/client-address.ts';

/** One year. Sent only over HTTPS (browsers ignore it over http anyway). */
export const HSTS = 'max-age=31536000';

const baseHeaders = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
  },
  xFrameOptions: 'DENY',
  referrerPolicy: 'strict-origin-when-cross-origin',
  crossOriginResourcePolicy: 'same-origin',
  strictTransportSecurity: false,
  // A directory of ads needs none of these; a script that slipped in gets none of them either.
  permissionsPolicy: {
    accelerometer: [],
    camera: [],
    geolocation: [],
    gyroscope: [],
    magnetometer: [],
    microphone: [],
    payment: [],
    usb: [],
    browsingTopics: [],
  },
});

export function securityHeaders(trust: ProxyTrust): MiddlewareHandler {
  return async (c, next) => {
    await baseHeaders(c, next);
    if (isHttps(c, trust)) c.res.headers.set('Strict-Transport-Security', HSTS);
    if (c.res.headers.has('set-cookie')) c.res.headers.set('Cache-Control', 'no-store');
  };
}
