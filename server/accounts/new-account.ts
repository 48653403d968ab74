// Opening an account (docs/product.md section 5): the address must be free, and free of a ban too;
// the id comes from the store, taken one sign-up at a time across every instance.
import { NEW_ACCOUNT_ID_LOCK, type NewAccount } from '../../store/parts/accounts.ts';
import type { Store } from '../../store/store.ts';

/** An address that has an account, or had one a moderator banned: answered the same (409). */
export async function isEmailTaken(store: Store, email: string): Promise<boolean> {
  return (
    (await store.accounts.findByEmail(email)) !== undefined ||
    (await store.accounts.isBannedEmail(email))
  );
}

/**
 * The new account's id, or undefined when the address was taken meanwhile (two sign-ups with one
 * address at once: the unique index decides). Two sign-ups at once, on any instances, never take
 * one id: each reads the highest id while holding the lock.
 */
export function openAccount(store: Store, account: NewAccount): Promise<number | undefined> {
  return store.unitOfWork(async (tx) => {
    await tx.lock(NEW_ACCOUNT_ID_LOCK);
    return tx.accounts.create(account);
  });
}
