// A member's account made straight through the store's accounts part, for the tests that need an
// account and not its sign-up (sign-up has tests of its own): a placeholder for the password hash
// (nobody signs in with it), an adult's date of birth, verified unless told otherwise.
import type { Store } from '../../store/store.ts';
import type { TestSql } from './test-store.ts';

export interface StoreAccountOptions {
  /** When it was made (and verified); now unless told. */
  at?: string;
  /** True unless told: made as a member who followed the verification link. */
  verified?: boolean;
  dateOfBirth?: string;
}

/** The account's id. */
export async function accountInStore(
  store: Pick<Store, 'accounts'>,
  email: string,
  {
    at = new Date().toISOString(),
    verified = true,
    dateOfBirth = '1990-01-01',
  }: StoreAccountOptions = {},
): Promise<number> {
  const id = await store.accounts.create({
    email,
    passwordHash: 'not a hash',
    dateOfBirth,
    termsAcceptedAt: at,
    createdAt: at,
  });
  if (id === undefined) throw new Error(`The account ${email} was not made`);
  if (verified) await store.accounts.markVerified(id, at);
  return id;
}

export interface AccountRowOptions {
  /** `member-{id}@example.com` unless told. */
  email?: string;
  /** When it was made (terms accepted the same moment): 2026-11-01 unless told. */
  at?: string;
  /** Unverified unless told. */
  verifiedAt?: string | null;
  bannedAt?: string | null;
  role?: 'member' | 'moderator';
}

/**
 * An account with the id a store contract test names (the store's `accounts.create` picks its
 * own, so this one row is written as such): a placeholder for the password hash, an adult.
 */
export async function accountRow(
  sql: TestSql,
  id: number,
  {
    email = `member-${id}@example.com`,
    at = '2026-11-01T00:00:00.000Z',
    verifiedAt = null,
    bannedAt = null,
    role = 'member',
  }: AccountRowOptions = {},
): Promise<void> {
  await sql.run(
    `INSERT INTO accounts (id, email, password_hash, date_of_birth, terms_accepted_at, created_at,
       email_verified_at, banned_at, role) VALUES (?, ?, 'hash', '1990-01-01', ?, ?, ?, ?, ?)`,
    id,
    email,
    at,
    at,
    verifiedAt,
    bannedAt,
    role,
  );
}
