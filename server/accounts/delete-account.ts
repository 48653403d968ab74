// Delete my account (docs/product.md section 8), once the password is checked: the account and
// what goes with it, in one unit of work (store/parts/member-data.ts says what goes and what
// stays). Its photos' and verification selfies' rows go with it through the foreign keys; their bytes, kept apart (the
// photo storage: a table of blobs or a folder), are deleted once the unit is done. Its messages
// stay 30 days for the members it wrote to, to read and report (a legitimate interest, limited
// in time: server/messages/departed-messages.ts), then go.
import { keptUntil } from '../messages/departed-messages.ts';
import { deleteBytesOf, photoKeysOfAccount } from '../photos/ad-photo-lifecycle.ts';
import type { PhotoStorage } from '../../store/photo-storage/photo-storage.ts';
import type { Store } from '../../store/store.ts';

export type AccountDeletion =
  | { kind: 'deleted'; email: string; liveAdIds: number[] }
  | { kind: 'gone' }
  | { kind: 'moderator' };

/**
 * Deletes the member's account. A moderator's account is refused: the role is an operator's to
 * take away first (npm run moderator -- remove). Holds the account's lock, so a second tab
 * deleting it at once finds it gone, and nothing else done for the account under that lock (an ad
 * posted) slips in between. With `photoStorage`, the bytes of the account's photos are deleted
 * after (those no other photo uses); without it (the store's own tests) only the rows go.
 */
export async function deleteAccount(
  store: Store,
  accountId: number,
  now: Date,
  photoStorage?: PhotoStorage,
): Promise<AccountDeletion> {
  let photoKeys: string[] = [];
  const outcome = await store.unitOfWork(async (tx): Promise<AccountDeletion> => {
    await tx.lock(`account:${accountId}`);
    const account = await tx.accounts.findById(accountId);
    if (!account) return { kind: 'gone' };
    if (account.role === 'moderator') return { kind: 'moderator' };
    // Read before the rows go: afterwards nothing says which bytes were the account's.
    // Its verification selfies' bytes go too (docs/product.md section 6, "Verified members").
    photoKeys = [
      ...(await photoKeysOfAccount(tx, accountId)),
      ...(await tx.verifications.selfiesOf(accountId)).map((selfie) => selfie.key),
    ];
    const liveAdIds = await tx.memberData.removeAccount(
      accountId,
      now.toISOString(),
      keptUntil(now),
    );
    return { kind: 'deleted', email: account.email, liveAdIds };
  });
  if (outcome.kind === 'deleted' && photoStorage)
    await deleteBytesOf(photoStorage, photoKeys, `deleted account ${accountId}`);
  return outcome;
}
