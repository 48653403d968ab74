// Photos a moderator removed, kept while the removal can be appealed (docs/product.md sections 6
// and 10, issue 30): their rows and sizes stay, out of public reach (the build publishes no removed
// photo; the server shows one to moderators only), until the sweeps (server/photos/sweeps.ts) take
// the sizes of those whose removal can no longer be reversed; and a reversal makes one the
// member's again, its hash no longer blocked. Part of the photos store (photos.ts).
import type { Kysely } from 'kysely';
import { isStorableId } from './ids.ts';
import type { Tables } from './tables.ts';

export interface RemovedPhotoStore {
  /** A removal reversed on appeal: the photo is the member's like any other again. */
  unmarkRemoved(id: number): Promise<boolean>;
  /**
   * Removed photos whose sizes are kept no longer (the sweeps delete them): their removal's appeal
   * was upheld, or its window closed (`now`) with no appeal; without a statement, removed before
   * `removedBefore`. One removed as under 18 is kept until `preservedBefore` at least, upheld or not.
   */
  removedPastKeeping(
    now: string,
    removedBefore: string,
    preservedBefore: string,
  ): Promise<number[]>;
  /** Forgets the hashes a photo's removal blocked (the removal reversed); how many. */
  unblock(photo: { id: number; phash: string }): Promise<number>;
}

export function removedPhotoStore(db: Kysely<Tables>): RemovedPhotoStore {
  return {
    async unmarkRemoved(id) {
      if (!isStorableId(id)) return false;
      const result = await db
        .updateTable('photos')
        .set({ removed_at: null, removed_reason: null, removed_note: null, removed_by: null })
        .where('id', '=', id)
        .where('removed_at', 'is not', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async removedPastKeeping(now, removedBefore, preservedBefore) {
      const rows = await db
        .selectFrom('photos as p')
        .leftJoin('decision_statements as s', (join) =>
          join.onRef('s.photo_id', '=', 'p.id').on('s.kind', '=', 'photo-removed'),
        )
        .leftJoin('appeals as a', 'a.statement_id', 's.id')
        .select('p.id as id')
        .distinct()
        .where('p.removed_at', 'is not', null)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('photo_variants as v').select('v.key').whereRef('v.photo_id', '=', 'p.id'),
          ),
        )
        .where((eb) =>
          eb.or([
            eb('a.outcome', '=', 'upheld'),
            eb.and([
              eb('s.id', 'is not', null),
              eb('a.id', 'is', null),
              eb('s.appeal_until', '<', now),
            ]),
            eb.and([eb('s.id', 'is', null), eb('p.removed_at', '<', removedBefore)]),
          ]),
        )
        .where((eb) =>
          eb.or([
            eb('p.removed_reason', '<>', 'under-18'),
            eb('p.removed_at', '<', preservedBefore),
          ]),
        )
        .orderBy('p.id')
        .execute();
      return rows.map((row) => row.id);
    },
    async unblock(photo) {
      if (!isStorableId(photo.id)) return 0;
      const result = await db
        .deleteFrom('blocked_photos')
        .where('photo_id', '=', photo.id)
        .where('phash', '=', photo.phash)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
