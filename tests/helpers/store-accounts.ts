// A member's account made straight through the store's accounts part, for the tests that need an
// account and not its sign-up (sign-up has tests of its own): a placeholder for the password hash
// (nobody signs in with it), an adult's date of birth, verified unless told otherwise.
import type { Store } from '../../store/store.ts';

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
