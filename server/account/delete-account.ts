// Delete my account (docs/product.md section 8), once the password is checked: the account and
// what goes with it, in one unit of work (server/store/member-data.ts says what goes and what
// stays).
import type { Store } from '../store/store.ts';

export type AccountDeletion =
  | { kind: 'deleted'; email: string; liveAdIds: number[] }
  | { kind: 'gone' }
  | { kind: 'moderator' };

/**
 * Deletes the member's account. A moderator's account is refused: the role is an operator's to
 * take away first (npm run moderator -- remove). Holds the account's lock, so a second tab
 * deleting it at once finds it gone, and nothing else done for the account under that lock (an ad
 * posted) slips in between.
 */
export function deleteAccount(
  store: Store,
  accountId: number,
  now: Date,
): Promise<AccountDeletion> {
  return store.unitOfWork(async (tx): Promise<AccountDeletion> => {
    await tx.lock(`account:${accountId}`);
    const account = await tx.accounts.findById(accountId);
    if (!account) return { kind: 'gone' };
    if (account.role === 'moderator') return { kind: 'moderator' };
    const liveAdIds = await tx.memberData.removeAccount(accountId, now.toISOString());
    return { kind: 'deleted', email: account.email, liveAdIds };
  });
}
