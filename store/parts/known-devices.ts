// Known devices: browsers a member has signed up, signed in or reset the password from, stored by
// the hash of their cookie's token (server/auth/known-browser.ts says what they are for).
import type { StoreContext } from '../store-context.ts';
import { rowsChanged } from './row-count.ts';

export interface KnownDevice {
  id: number;
  accountId: number;
}

export interface KnownDeviceStore {
  /** Adds a device, then keeps only the account's `keep` most recently used ones. */
  remember(tokenHash: Buffer, accountId: number, now: string, keep: number): Promise<void>;
  /** The device of a token, when it was used since `usedSince`. */
  find(tokenHash: Buffer, usedSince: string): Promise<KnownDevice | undefined>;
  touch(id: number, now: string): Promise<void>;
  removeUnusedSince(cutoff: string): Promise<number>;
}

export function knownDeviceStore({ db }: StoreContext): KnownDeviceStore {
  return {
    async remember(tokenHash, accountId, now, keep) {
      await db
        .insertInto('known_devices')
        .values({
          token_hash: tokenHash,
          account_id: accountId,
          created_at: now,
          last_used_at: now,
        })
        .execute();
      await db
        .deleteFrom('known_devices')
        .where('account_id', '=', accountId)
        .where('id', 'not in', (eb) =>
          eb
            .selectFrom('known_devices')
            .select('id')
            .where('account_id', '=', accountId)
            .orderBy('last_used_at', 'desc')
            .orderBy('id', 'desc')
            .limit(keep),
        )
        .execute();
    },
    find: (tokenHash, usedSince) =>
      db
        .selectFrom('known_devices')
        .select(['id', 'account_id as accountId'])
        .where('token_hash', '=', tokenHash)
        .where('last_used_at', '>', usedSince)
        .executeTakeFirst(),
    async touch(id, now) {
      await db
        .updateTable('known_devices')
        .set({ last_used_at: now })
        .where('id', '=', id)
        .execute();
    },
    async removeUnusedSince(cutoff) {
      return rowsChanged(db.deleteFrom('known_devices').where('last_used_at', '<=', cutoff));
    },
  };
}
