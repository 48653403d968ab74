// Rate limits on sign-up, sign-in and the emailed links (verification, password reset), with
// rate-limiter-flexible, counted where the store keeps counters (StoreHandle.rateLimiter): in the
// process's memory on SQLite, the one-instance default, and in PostgreSQL's rate_limits table when
// several instances share it, so that every limit here, the sign-in backoff included, holds
// however the requests for one account or address are spread over the instances
// (docs/product.md sections 5 and 12). Sign-up is
// limited per client and per email. Sign-in failures slow the one who fails, not the account's
// owner: a client that keeps failing on an account must wait longer after each failure, while a
// client that has not failed on it still gets its try. Guessing from many addresses is bounded per
// account: failures from browsers the account has not signed in from are counted together, and
// enough of them close the account to such browsers for a while, longer each time. A browser the
// owner signed in from before (a known browser) is never refused for them; an owner on a new
// browser has the emailed reset link, which makes that browser a known one.
import { Refusal } from '../../core/refusal.ts';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiter } from '../../store/engine.ts';
import type { StoreHandle } from '../../store/store.ts';

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
  /**
   * Failed sign-ins on one account from browsers it has not signed in from (no known-browser
   * cookie of that account), whatever their addresses, per normalised email whether or not it has
   * an account. After `points` within `duration`, the next attempt is refused and closes the
   * account to such browsers for `duration`. Once it has been closed, such browsers get one try
   * at a time: after a failure the next attempt closes it again, for twice as long as the last
   * time (at most a day), until a day has passed since the last closure ended.
   */
  signinPerAccountFromNewBrowsers?: Limit;
  /** Emailed-link requests (/forgot, /reset, /verify, resending the link) from one client. */
  linkPerIp?: Limit;
  /** Mails asked for one address (reset links, verification links), and resets of one account. */
  linkPerEmail?: Limit;
  /**
   * Photos one member may have processed (kept or refused), whatever the posts: each costs a
   * worker a few hundred milliseconds, and a refused post can be sent again and again.
   */
  photosPerMember?: Limit;
}

export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  signupPerIp: { points: 20, duration: 15 * 60 },
  signupPerEmail: { points: 5, duration: 60 * 60 },
  signinPerIp: { points: 50, duration: 15 * 60 },
  signinPerEmail: { points: 10, duration: 15 * 60 },
  signinPerClientAndEmail: { points: 5, duration: 15 * 60 },
  signinPerAccountFromNewBrowsers: { points: 10, duration: 15 * 60 },
  linkPerIp: { points: 30, duration: 15 * 60 },
  linkPerEmail: { points: 5, duration: 60 * 60 },
  photosPerMember: { points: 60, duration: 60 * 60 },
};

export type CountedLimit =
  | 'signupPerIp'
  | 'signupPerEmail'
  | 'signinPerIp'
  | 'linkPerIp'
  | 'linkPerEmail'
  | 'photosPerMember';

const waitSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Counts one attempt on `limiter`; answers the seconds to wait when its limit is reached, else 0.
 * A store that cannot count (PostgreSQL unreachable) rejects with its error: never a go-ahead.
 */
export async function secondsToWait(
  limiter: RateLimiter,
  key: string,
  points = 1,
): Promise<number> {
  try {
    await limiter.consume(key, points);
    return 0;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return waitSeconds(rejection.msBeforeNext);
    throw rejection;
  }
}

/** The longest closure of an account to new browsers, and how long closures are remembered after. */
const DAY_SECONDS = 24 * 60 * 60;

/**
 * The limits the routes ask. Every answer is a number of seconds to wait (0: go ahead); the
 * counters behind them are the store's (createRateLimits).
 */
export interface RateLimits {
  /** Counts one attempt (or `points`); answers the seconds to wait when the limit is reached, else 0. */
  consume(name: CountedLimit, key: string, points?: number): Promise<number>;
  /**
   * The limits one request counts, remembered so that they can be given back when the server
   * turned the request away, not the limit: a busy hashing pool's 503, which the browser tries
   * again by itself, must not use up a member's sign-ups or sign-ins.
   */
  attempt(): CountedAttempt;
  /** The seconds `client` must wait before trying `email` again; 0 when it may try now. */
  signinWait(email: string, client: string): Promise<number>;
  /** A wrong password for `email` from `client`. */
  signinFailed(email: string, client: string): Promise<void>;
  /**
   * The client knew the password: its own failures on the account are forgotten, and a new
   * browser's attempt no longer counts against the account.
   */
  signinSucceeded(email: string, client: string, fromNewBrowser: boolean): Promise<void>;
}

/** Where the limits keep their counters: the store's rate limiters (engine.ts). */
export type RateLimiterSource = Pick<StoreHandle, 'rateLimiter'>;

/**
 * The limits, their counters kept by `store`. All the sign-in backoff's state is in such counters
 * too, not in this module's variables (docs/product.md section 12: it holds across instances):
 * the failures per account and per client, a client's wait (a key blocked for 1 s, 2 s, 4 s, …),
 * and per account from new browsers the attempts, the closure (a key blocked for its length) and
 * how many closures there were lately (a counter set to that number, kept until a day after the
 * last closure ends), from which the next closure's doubled length is worked out (section 5).
 * Counting is atomic on both engines (one upsert on PostgreSQL), so attempts sent at once, to one
 * instance or several, are counted each once; what is worked out from the counts and then written
 * (a wait, a closure) is written whole, so two instances deciding at once write the same thing or
 * one of two waits, never a mix.
 */
export function createRateLimits(
  settings: RateLimitSettings,
  store: RateLimiterSource,
): RateLimits {
  const perClient =
    settings.signinPerClientAndEmail ?? DEFAULT_RATE_LIMITS.signinPerClientAndEmail!;
  const perAccount =
    settings.signinPerAccountFromNewBrowsers ??
    DEFAULT_RATE_LIMITS.signinPerAccountFromNewBrowsers!;
  // Every limiter has a keyPrefix of its own: on PostgreSQL they share one table.
  const limiter = (keyPrefix: string, limit: Limit) => store.rateLimiter({ keyPrefix, ...limit });
  /** A counter that never refuses: penalty() and reward() count, get() reads. */
  const counter = (keyPrefix: string, duration: number) =>
    limiter(keyPrefix, { points: Number.MAX_SAFE_INTEGER, duration });
  /** A key blocked (block()) for a while: a wait, read with get(). */
  const waits = (keyPrefix: string) => limiter(keyPrefix, { points: 1, duration: 1 });
  const limiters = {
    signupPerIp: limiter('signupPerIp', settings.signupPerIp),
    signupPerEmail: limiter('signupPerEmail', settings.signupPerEmail),
    signinPerIp: limiter('signinPerIp', settings.signinPerIp),
    linkPerIp: limiter('linkPerIp', settings.linkPerIp ?? DEFAULT_RATE_LIMITS.linkPerIp!),
    linkPerEmail: limiter(
      'linkPerEmail',
      settings.linkPerEmail ?? DEFAULT_RATE_LIMITS.linkPerEmail!,
    ),
    photosPerMember: limiter(
      'photosPerMember',
      settings.photosPerMember ?? DEFAULT_RATE_LIMITS.photosPerMember!,
    ),
  } satisfies Record<CountedLimit, RateLimiter>;
  // Failures per account, and per client on an account.
  const accountFailures = counter('signinFailuresPerEmail', settings.signinPerEmail.duration);
  const clientFailures = counter('signinFailuresPerClient', perClient.duration);
  // A client's wait before its next try on an account, set after each failure past the free ones.
  const backoff = waits('signinBackoff');
  const pair = (email: string, client: string) => `${email}\n${client}`;
  // Per account, from new browsers: how many times the account was closed to them lately
  // (remembered for a day after the last closure ends), the closure itself, and their attempts in
  // the window (a success takes its own back), counted apart after each closure: the key names the
  // closures before it (`attemptsKey`), so a closure starts a fresh count without deleting the
  // old one, which an attempt begun before the closure may still be counting on.
  const closures = counter('signinAccountClosures', DAY_SECONDS);
  const closed = waits('signinAccountClosed');
  const newBrowserAttempts = counter('signinNewBrowserAttempts', perAccount.duration);
  const attemptsKey = (email: string, times: number) => `${email}\n${times}`;
  const closuresOf = async (email: string) => (await closures.get(email))?.consumedPoints ?? 0;

  async function newBrowserAttempt(email: string): Promise<{ closedFor: number; key: string }> {
    // The closures first, then the closure: a closure is written in the other order, so an
    // attempt that sees its count also sees it closed.
    const times = await closuresOf(email);
    const key = attemptsKey(email, times);
    const closure = await closed.get(email);
    if (closure && closure.consumedPoints > 1)
      return { closedFor: waitSeconds(closure.msBeforeNext), key };
    // After a closure, one try at a time: the next failure closes the account again.
    const allowed = times > 0 ? 1 : perAccount.points;
    const attempts = await newBrowserAttempts.penalty(key, 1);
    if (attempts.consumedPoints <= allowed) return { closedFor: 0, key };
    // Every attempt over the limit since the last closure (sent at once, to one instance or
    // several, or begun before a closure it did not see) read the same `times`: they all write
    // the same closure, which is counted once.
    const seconds = Math.min(perAccount.duration * 2 ** Math.min(times, 30), DAY_SECONDS);
    await closed.block(email, seconds);
    await closures.set(email, times + 1, seconds + DAY_SECONDS);
    return { closedFor: seconds, key };
  }

  /** Takes back an attempt counted on `key` (its window still open). */
  async function takeBack(key: string) {
    if (await newBrowserAttempts.get(key)) await newBrowserAttempts.reward(key, 1);
  }

  return {
    consume: (name, key, points) => secondsToWait(limiters[name], key, points),

    attempt() {
      const counted: (readonly [CountedLimit, string])[] = [];
      let newBrowserKey: string | undefined;
      return {
        async consume(name, key) {
          const wait = await secondsToWait(limiters[name], key);
          if (wait === 0) counted.push([name, key]);
          return wait;
        },
        async newBrowser(email) {
          const { closedFor, key } = await newBrowserAttempt(email);
          if (closedFor === 0) newBrowserKey = key;
          return closedFor;
        },
        async giveBack() {
          for (const [name, key] of counted.splice(0)) await limiters[name].reward(key, 1);
          // A sign-in the server turned away (busy) was no try on the account either.
          if (newBrowserKey) await takeBack(newBrowserKey);
          newBrowserKey = undefined;
        },
      };
    },

    async signinWait(email, client) {
      const state = await backoff.get(pair(email, client));
      return state && state.consumedPoints > 1 ? waitSeconds(state.msBeforeNext) : 0;
    },

    async signinFailed(email, client) {
      const [account, mine] = await Promise.all([
        accountFailures.penalty(email, 1),
        clientFailures.penalty(pair(email, client), 1),
      ]);
      const underAttack = account.consumedPoints >= settings.signinPerEmail.points;
      const beyondFree = mine.consumedPoints - (underAttack ? 0 : perClient.points);
      if (beyondFree > 0)
        await backoff.block(
          pair(email, client),
          Math.min(2 ** Math.min(beyondFree - 1, 30), perClient.duration),
        );
    },

    async signinSucceeded(email, client, fromNewBrowser) {
      await Promise.all([
        clientFailures.delete(pair(email, client)),
        backoff.delete(pair(email, client)),
      ]);
      if (fromNewBrowser) await takeBack(attemptsKey(email, await closuresOf(email)));
    },
  };
}

/** One request's counted limits (RateLimits.attempt). */
export interface CountedAttempt {
  /** Counts one attempt (or `points`); answers the seconds to wait when the limit is reached, else 0. */
  consume(name: CountedLimit, key: string, points?: number): Promise<number>;
  /**
   * Counts an attempt on `email` from a browser that has not signed in to it before, as it begins
   * (so that attempts sent at once are counted at once); answers the seconds the account is closed
   * to such browsers, this attempt refused, or 0 to go ahead. Never asked for a known browser.
   */
  newBrowser(email: string): Promise<number>;
  /** Gives back what this request counted (it was not served, through no doing of the client). */
  giveBack(): Promise<void>;
}

/** A rate limit that is reached becomes a 429 with Retry-After. */
export function throwIfWaiting(waitSeconds: number) {
  if (waitSeconds > 0) {
    const minutes = Math.ceil(waitSeconds / 60);
    throw new Refusal(
      'too-many',
      `Too many attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`,
      { retryAfter: waitSeconds },
    );
  }
}

/** "15 minutes", "2 hours": how long a wait is, as a person says it. */
function waitWords(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  return `${Math.ceil(minutes / 60)} hours`;
}

/**
 * An account closed to new browsers becomes a 429 with Retry-After, the same for an email with
 * no account. The owner can still get in: by the emailed reset link, or from a known browser.
 */
export function throwIfAccountClosed(waitSeconds: number) {
  if (waitSeconds > 0)
    throw new Refusal(
      'too-many',
      `Too many attempts for this account. Please wait ${waitWords(waitSeconds)} and try again, or use Forgot your password? to get a reset link.`,
      { retryAfter: waitSeconds },
    );
}
