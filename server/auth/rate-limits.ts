// Rate limits on sign-up, sign-in and the emailed links (verification, password reset), with rate-limiter-flexible, counted in memory per server
// process. Sign-up is limited per client and per email. Sign-in failures slow the one who fails,
// not the account's owner: a client that keeps failing on an account must wait longer after each
// failure, while a client that has not failed on it (or a browser the owner signed in from
// before) still gets its try, however many failures others have piled onto the account.
import { Refusal } from '../forms/refusal.ts';
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
  /** Every sign-in attempt from one client, whatever the account. */
  signinPerIp: Limit;
  /**
   * Failed sign-ins on one account, from anywhere. Past `points` the account is under attack:
   * every client that has failed on it waits after each further failure, with no free tries.
   */
  signinPerEmail: Limit;
  /**
   * Failures one client may make on one account before each further one makes it wait
   * 1 s, 2 s, 4 s, … (at most `duration`). Counted over `duration`; a success clears them.
   */
  signinPerClientAndEmail?: Limit;
  /** Emailed-link requests (/forgot, /reset, /verify, resending the link) from one client. */
  linkPerIp?: Limit;
  /** Mails asked for one address (reset links, verification links), and resets of one account. */
  linkPerEmail?: Limit;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  signupPerIp: { points: 20, duration: 15 * 60 },
  signupPerEmail: { points: 5, duration: 60 * 60 },
  signinPerIp: { points: 50, duration: 15 * 60 },
  signinPerEmail: { points: 10, duration: 15 * 60 },
  signinPerClientAndEmail: { points: 5, duration: 15 * 60 },
  linkPerIp: { points: 30, duration: 15 * 60 },
  linkPerEmail: { points: 5, duration: 60 * 60 },
};

export type CountedLimit =
  'signupPerIp' | 'signupPerEmail' | 'signinPerIp' | 'linkPerIp' | 'linkPerEmail';

const waitSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Counts one attempt on `limiter`; answers the seconds to wait when its limit is reached, else 0. */
export async function secondsToWait(limiter: RateLimiterMemory, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return waitSeconds(rejection.msBeforeNext);
    throw rejection;
  }
}

export function createRateLimits(settings: RateLimitSettings) {
  const perClient =
    settings.signinPerClientAndEmail ?? DEFAULT_RATE_LIMITS.signinPerClientAndEmail!;
  const limiters = {
    signupPerIp: new RateLimiterMemory({ keyPrefix: 'signupPerIp', ...settings.signupPerIp }),
    signupPerEmail: new RateLimiterMemory({
      keyPrefix: 'signupPerEmail',
      ...settings.signupPerEmail,
    }),
    signinPerIp: new RateLimiterMemory({ keyPrefix: 'signinPerIp', ...settings.signinPerIp }),
    linkPerIp: new RateLimiterMemory({
      keyPrefix: 'linkPerIp',
      ...(settings.linkPerIp ?? DEFAULT_RATE_LIMITS.linkPerIp!),
    }),
    linkPerEmail: new RateLimiterMemory({
      keyPrefix: 'linkPerEmail',
      ...(settings.linkPerEmail ?? DEFAULT_RATE_LIMITS.linkPerEmail!),
    }),
  } satisfies Record<CountedLimit, RateLimiterMemory>;
  // Counters only (they never refuse): failures per account, and per client on an account.
  const accountFailures = new RateLimiterMemory({
    keyPrefix: 'signinFailuresPerEmail',
    points: Number.MAX_SAFE_INTEGER,
    duration: settings.signinPerEmail.duration,
  });
  const clientFailures = new RateLimiterMemory({
    keyPrefix: 'signinFailuresPerClient',
    points: Number.MAX_SAFE_INTEGER,
    duration: perClient.duration,
  });
  // A client's wait before its next try on an account, set after each failure past the free ones.
  const backoff = new RateLimiterMemory({ keyPrefix: 'signinBackoff', points: 1, duration: 1 });
  const pair = (email: string, client: string) => `${email}\n${client}`;

  return {
    /** Counts one attempt; answers the seconds to wait when the limit is reached, else 0. */
    consume: (name: CountedLimit, key: string): Promise<number> =>
      secondsToWait(limiters[name], key),

    /**
     * The limits one request counts, remembered so that they can be given back when the server
     * turned the request away, not the limit: a busy hashing pool's 503, which the browser tries
     * again by itself, must not use up a member's sign-ups or sign-ins.
     */
    attempt(): CountedAttempt {
      const counted: (readonly [CountedLimit, string])[] = [];
      return {
        async consume(name, key) {
          const wait = await secondsToWait(limiters[name], key);
          if (wait === 0) counted.push([name, key]);
          return wait;
        },
        async giveBack() {
          for (const [name, key] of counted.splice(0)) await limiters[name].reward(key, 1);
        },
      };
    },

    /** The seconds `client` must wait before trying `email` again; 0 when it may try now. */
    async signinWait(email: string, client: string): Promise<number> {
      const state = await backoff.get(pair(email, client));
      return state && state.consumedPoints > 1 ? waitSeconds(state.msBeforeNext) : 0;
    },

    async signinFailed(email: string, client: string): Promise<void> {
      const account = await accountFailures.penalty(email, 1);
      const mine = await clientFailures.penalty(pair(email, client), 1);
      const underAttack = account.consumedPoints >= settings.signinPerEmail.points;
      const beyondFree = mine.consumedPoints - (underAttack ? 0 : perClient.points);
      if (beyondFree > 0)
        await backoff.block(
          pair(email, client),
          Math.min(2 ** Math.min(beyondFree - 1, 30), perClient.duration),
        );
    },

    /** The client knew the password: its own failures on the account are forgotten. */
    async signinSucceeded(email: string, client: string): Promise<void> {
      await clientFailures.delete(pair(email, client));
      await backoff.delete(pair(email, client));
    },
  };
}

export type RateLimits = ReturnType<typeof createRateLimits>;

/** One request's counted limits (RateLimits.attempt). */
export interface CountedAttempt {
  /** Counts one attempt; answers the seconds to wait when the limit is reached, else 0. */
  consume(name: CountedLimit, key: string): Promise<number>;
  /** Gives back what this request counted (it was not served, through no doing of the client). */
  giveBack(): Promise<void>;
}

/** A rate limit that is reached becomes a 429 with Retry-After. */
export function throwIfWaiting(waitSeconds: number) {
  if (waitSeconds > 0) {
    const minutes = Math.ceil(waitSeconds / 60);
    throw new Refusal(
      429,
      `Too many attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`,
      undefined,
      waitSeconds,
    );
  }
}
