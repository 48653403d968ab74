// Password hashing with scrypt (memory-hard, in Node's crypto; no native dependency). The
// stored string carries its parameters, so the cost can rise later without breaking old hashes.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
/** 2^16 × 8 × 128 bytes = 64 MiB per hash. Tests may lower it with PASSWORD_HASH_COST. */
const DEFAULT_COST = 2 ** 16;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

const paramsFor = (N: number) => ({ N, r: 8, p: 1, maxmem: 256 * N * 8 });

export async function hashPassword(
  password: string,
  cost = Number(process.env.PASSWORD_HASH_COST ?? DEFAULT_COST),
): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, paramsFor(cost));
  return `scrypt$${cost}$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Compares in constant time. A malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, cost, r, p, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !cost || !saltText || !keyText || r !== '8' || p !== '1') return false;
  const expected = Buffer.from(keyText, 'base64url');
  const actual = await derive(
    password,
    Buffer.from(saltText, 'base64url'),
    paramsFor(Number(cost)),
  );
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
