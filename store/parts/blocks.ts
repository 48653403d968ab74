// Blocks between members (table blocks; docs/product.md section 7): who blocked whom, and since
// when. What a block refuses (messages both ways, replies to the blocker's ads) is
// server/messages/'s to decide.
import type { StoreContext } from '../store-context.ts';
import { changedOne } from './row-count.ts';

/** The blocks between two members, seen from the first. */
export interface BlocksBetween {
  /** `member` blocked `other`. */
  youBlocked: boolean;
  /** `other` blocked `member`. */
  blockedYou: boolean;
}

export interface BlockStore {
  /** Blocks `blocked` for `blocker`; true when the block is new. */
  block(blockerId: number, blockedId: number, at: string): Promise<boolean>;
  /** Undoes `blocker`'s block of `blocked`; true when there was one. */
  unblock(blockerId: number, blockedId: number): Promise<boolean>;
  between(member: number, other: number): Promise<BlocksBetween>;
}

export function blockStore({ db }: StoreContext): BlockStore {
  return {
    async block(blockerId, blockedId, at) {
      return changedOne(
        db
          .insertInto('blocks')
          .values({ blocker_id: blockerId, blocked_id: blockedId, created_at: at })
          .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing()),
      );
    },
    async unblock(blockerId, blockedId) {
      return changedOne(
        db
          .deleteFrom('blocks')
          .where('blocker_id', '=', blockerId)
          .where('blocked_id', '=', blockedId),
      );
    },
    async between(member, other) {
      const rows = await db
        .selectFrom('blocks')
        .select('blocker_id as blockerId')
        .where((eb) =>
          eb.or([
            eb.and([eb('blocker_id', '=', member), eb('blocked_id', '=', other)]),
            eb.and([eb('blocker_id', '=', other), eb('blocked_id', '=', member)]),
          ]),
        )
        .execute();
      return {
        youBlocked: rows.some((row) => row.blockerId === member),
        blockedYou: rows.some((row) => row.blockerId === other),
      };
    },
  };
}
