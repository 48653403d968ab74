// Blocks between members (migration 5, blocks; docs/product.md section 7): the blocker receives nothing
// more from the blocked member, neither can write in their conversations, and the blocked member
// cannot reply to the blocker's ads. A block is made and undone only by its blocker.
import type { Db } from './database.ts';

/** The blocks between two members, seen from the first. */
export interface BlocksBetween {
  /** `member` blocked `other`. */
  youBlocked: boolean;
  /** `other` blocked `member`. */
  blockedYou: boolean;
}

export function blockStore(db: Db) {
  const insert = db.prepare(
    'INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)',
  );
  const remove = db.prepare('DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?');
  const between = db.prepare(
    `SELECT blocker_id AS blockerId FROM blocks
     WHERE (blocker_id = @member AND blocked_id = @other)
        OR (blocker_id = @other AND blocked_id = @member)`,
  );
  return {
    /** Blocks `blocked` for `blocker`; true when the block is new. */
    block(blockerId: number, blockedId: number, now: Date): boolean {
      return insert.run(blockerId, blockedId, now.toISOString()).changes === 1;
    },
    /** Undoes `blocker`'s block of `blocked`; true when there was one. */
    unblock(blockerId: number, blockedId: number): boolean {
      return remove.run(blockerId, blockedId).changes === 1;
    },
    between(member: number, other: number): BlocksBetween {
      const rows = between.all({ member, other }) as { blockerId: number }[];
      return {
        youBlocked: rows.some((row) => row.blockerId === member),
        blockedYou: rows.some((row) => row.blockerId === other),
      };
    },
  };
}

export type BlockStore = ReturnType<typeof blockStore>;
