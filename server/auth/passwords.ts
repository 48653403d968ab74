// Password hashing with scrypt (memory-hard, in Node's crypto; no native dependency), run on the
// hashing pool's threads. The stored string carries its parameters, so the cost can rise later
// without breaking old hashes.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Refusal } from '../../core/refusal.ts';
import { HashingBusy, type HashingPool } from './hashing-pool.ts';
import type { CountedAttempt } from './rate-limits.ts';

const KEY_LENGTH = 32;
/** 2^16 × 8 × 128 bytes = 64 MiB per hash. Tests may lower it with PASSWORD_HASH_COST. */
const DEFAULT_COST = 2 ** 16;

/** Lone UTF-16 surrogates: they would all turn into U+FFFD on the way to bytes. */
const LONE_SURROGATE = /\p{Cs}/u;

export function passwordHasher(pool: HashingPool) {
  const derive = (password: string, salt: Buffer, N: number) =>
    pool.scrypt({
      password: password.normalize('NFKC'),
      salt,
      keyLength: KEY_LENGTH,
      N,
      r: 8,
      p: 1,
    });

  return {
    async hash(
      password: string,
      cost = Number(process.env.PASSWORD_HASH_COST ?? DEFAULT_COST),
    ): Promise<string> {
      // The schemas refuse such passwords first; this guards against a caller that skipped them.
      if (LONE_SURROGATE.test(password)) throw new Error('The password is not well-formed text.');
      const salt = randomBytes(16);
      const key = await derive(password, salt, cost);
      return `scrypt$${cost}$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
    },

    /** Compares in constant time. A malformed stored hash or password never matches. */
    async verify(password: string, stored: string): Promise<boolean> {
      const [scheme, cost, r, p, saltText, keyText] = stored.split('$');
      if (scheme !== 'scrypt' || !cost || !saltText || !keyText || r !== '8' || p !== '1')
        return false;
      if (LONE_SURROGATE.test(password)) return false;
      const expected = Buffer.from(keyText, 'base64url');
      const actual = await derive(password, Buffer.from(saltText, 'base64url'), Number(cost));
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}

export type PasswordHasher = ReturnType<typeof passwordHasher>;

/** The 503's message: when to try again, as its Retry-After says (the page without JavaScript). */
export function busyMessage(seconds: number): string {
  const wait =
    seconds < 90
      ? `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`
      : `${Math.ceil(seconds / 60)} minutes`;
  return `The server is busy right now. Please try again in ${wait}.`;
}

/**
 * A hash that the pool could not take now becomes a 503 with Retry-After, and the rate limits the
 * request counted (`attempt`) are given back: trying again when told to costs the client nothing.
 */
export async function hashing<T>(work: Promise<T>, attempt?: CountedAttempt): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof HashingBusy)) throw error;
    await attempt?.giveBack();
    throw new Refusal('busy', busyMessage(error.retryAfterSeconds), {
      retryAfter: error.retryAfterSeconds,
    });
  }
}
