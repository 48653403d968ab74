// Known devices: browsers a member has signed up, signed in or reset the password from, stored by
// the hash of their cookie's token (server/auth/known-browser.ts).
import type { Db } from './database.ts';

export const MAX_DEVICES_PER_ACCOUNT = 20;

export interface KnownDevice {
  id: number;
  accountId: number;
}

export function knownDeviceStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO known_devices (token_hash, account_id, created_at, last_used_at)
     VALUES (?, ?, ?, ?)`,
  );
  const find = db.prepare(
    'SELECT id, account_id AS accountId FROM known_devices WHERE token_hash = ? AND last_used_at > ?',
  );
  const touch = db.prepare('UPDATE known_devices SET last_used_at = ? WHERE id = ?');
  const removeUnused = db.prepare('DELETE FROM known_devices WHERE last_used_at <= ?');
  // A script signing in without keeping cookies would add a device each time: keep the latest.
  const keepLatest = db.prepare(
    `DELETE FROM known_devices WHERE account_id = @accountId AND id NOT IN (
       SELECT id FROM known_devices WHERE account_id = @accountId
       ORDER BY last_used_at DESC, id DESC LIMIT @keep)`,
  );
  return {
    remember(tokenHash: Buffer, accountId: number, now: string): void {
      insert.run(tokenHash, accountId, now, now);
      keepLatest.run({ accountId, keep: MAX_DEVICES_PER_ACCOUNT });
    },
    /** The device of a token, when it was used since `usedSince`. */
    find(tokenHash: Buffer, usedSince: string): KnownDevice | undefined {
      return find.get(tokenHash, usedSince) as KnownDevice | undefined;
    },
    touch(id: number, now: string): void {
      touch.run(now, id);
    },
    removeUnusedSince(cutoff: string): number {
      return removeUnused.run(cutoff).changes;
    },
  };
}
