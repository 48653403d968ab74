// Rate limits on sign-up and sign-in, per client IP and per account (email), with
// rate-limiter-flexible. Limits are counted in memory, per server process.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface Limit {
  /** Attempts allowed in each window. */
  points: number;
  /** Window length in seconds. */
  duration: number;
}

export interface RateLimitSettings {
  signupPerIp: Limit;
  signupPerEmail: Limit;
  signinPerIp: Limit;
  signinPerEmail: Limit;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  signupPerIp: { points: 20, duration: 15 * 60 },
  signupPerEmail: { points: 5, duration: 60 * 60 },
  signinPerIp: { points: 50, duration: 15 * 60 },
  signinPerEmail: { points: 10, duration: 15 * 60 },
};

export type RateLimitName = keyof RateLimitSettings;

export function createRateLimits(settings: RateLimitSettings) {
  const limiters = Object.fromEntries(
    Object.entries(settings).map(([name, limit]) => [
      name,
      new RateLimiterMemory({ keyPrefix: name, ...limit }),
    ]),
  ) as Record<RateLimitName, RateLimiterMemory>;
  return {
    /** Counts one attempt; answers the seconds to wait when the limit is reached, else 0. */
    async consume(name: RateLimitName, key: string): Promise<number> {
      try {
        await limiters[name].consume(key);
        return 0;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes)
          return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        throw rejection;
      }
    },
    /** The seconds to wait before another attempt is allowed, without counting one. */
    async waitFor(name: RateLimitName, key: string): Promise<number> {
      const state = await limiters[name].get(key);
      if (!state || state.consumedPoints < settings[name].points) return 0;
      return Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    },
    async reset(name: RateLimitName, key: string): Promise<void> {
      await limiters[name].delete(key);
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;
