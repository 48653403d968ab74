// Rate limits for servers in the e2e tests.
import type { RateLimitSettings } from '../../server/auth/rate-limits.ts';

/** The browser tests sign up many times from one address: limits that never get in the way. */
export const GENEROUS_RATE_LIMITS: RateLimitSettings = {
  signupPerIp: { points: 10_000, duration: 60 },
  signupPerEmail: { points: 10_000, duration: 60 },
  signinPerIp: { points: 10_000, duration: 60 },
  signinPerEmail: { points: 10_000, duration: 60 },
  signinPerAccountFromNewBrowsers: { points: 10_000, duration: 60 },
  linkPerIp: { points: 10_000, duration: 60 },
  linkPerEmail: { points: 10_000, duration: 60 },
};
