// Photos a moderator removed, kept while the removal can be appealed (docs/product.md sections 6
// and 10): their rows and sizes stay, out of public reach (the build publishes no removed
// photo; the server shows one to moderators only), until the sweeps (server/photos/sweeps.ts) take
// the sizes of those whose removal can no longer be reversed; and a reversal makes one the
// member's again, its hash no longer blocked. Likewise the photos of an ad rejected or removed
// (adDecisionsStillHolding): kept while that decision can be reversed. Part of the photos store
// (photos.ts).
import type { ExpressionBuilder, Kysely } from 'kysely';
import { isStorableId } from '../ids.ts';
import type { Tables } from '../tables.ts';
import { changedOne, rowsChanged } from './row-count.ts';

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
  /**
   * Photos to be deleted with their ads: of ads rejected or removed (last changed) before
   * `before`, and of deleted ads whenever (their deletion deletes them; this is the backstop).
   * Kept still: a removed photo kept for its own appeal; and every photo of a rejected or removed
   * ad whose decision (its rejection or removal, or the ban that removed it) can still be reversed
   * at `keep.now`: appealable (its deadline not passed, no appeal yet) or appealed and in review;
   * or, decided as under 18, decided after `keep.preservedBefore` (kept a year, upheld or not).
   */
  ofAdsGoneBefore(before: string, keep: AdPhotosKept): Promise<number[]>;
  /** Forgets the hashes a photo's removal blocked (the removal reversed); how many. */
  unblock(photo: { id: number; phash: string }): Promise<number>;
}

/** When the photos of a rejected or removed ad are kept for its decision (ofAdsGoneBefore). */
export interface AdPhotosKept {
  /** Now: a decision whose appeal deadline is later can still be appealed. */
  now: string;
  /** A decision as under 18 made after this is kept whatever its appeal (the year's preservation). */
  preservedBefore: string;
}

/**
 * The decisions that still hold a rejected or removed ad's photos (its row in scope as
 * `member_ads`): its rejection or removal, or the ban that removed it (made when the ad last
 * changed, or before), which can still be reversed: appealable (no appeal, the deadline not passed)
 * or appealed and in review; or made as under 18 after `preservedBefore`, whatever its appeal.
 */
export function adDecisionsStillHolding(
  eb: ExpressionBuilder<Tables, 'photos' | 'member_ads'>,
  keep: AdPhotosKept,
) {
  return eb
    .selectFrom('decision_statements as s')
    .leftJoin('appeals as a', 'a.statement_id', 's.id')
    .select('s.id')
    .where((w) =>
      w.or([
        w.and([
          w('s.kind', 'in', ['ad-rejected', 'ad-removed']),
          w('s.ad_id', '=', w.ref('member_ads.id')),
        ]),
        w.and([
          w('s.kind', '=', 'account-banned'),
          w('s.account_id', '=', w.ref('member_ads.account_id')),
          w('s.decided_at', '<=', w.ref('member_ads.updated_at')),
        ]),
      ]),
    )
    .where((w) =>
      w.or([
        w.and([w('a.id', 'is', null), w('s.appeal_until', '>', keep.now)]),
        w.and([w('a.id', 'is not', null), w('a.outcome', 'is', null)]),
        w.and([w('s.reason_key', '=', 'under-18'), w('s.decided_at', '>', keep.preservedBefore)]),
      ]),
    );
}

export function removedPhotoStore(db: Kysely<Tables>): RemovedPhotoStore {
  return {
    async unmarkRemoved(id) {
      if (!isStorableId(id)) return false;
      return changedOne(
        db
          .updateTable('photos')
          .set({ removed_at: null, removed_reason: null, removed_note: null, removed_by: null })
          .where('id', '=', id)
          .where('removed_at', 'is not', null),
      );
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
    async ofAdsGoneBefore(before, keep) {
      const rows = await db
        .selectFrom('photos')
        .innerJoin('member_ads', 'member_ads.id', 'photos.ad_id')
        .select('photos.id as id')
        .where((eb) =>
          eb.or([
            eb('member_ads.status', '=', 'deleted'),
            eb.and([
              eb('member_ads.status', 'in', ['rejected', 'removed']),
              eb('member_ads.updated_at', '<', before),
              eb.not(eb.exists(adDecisionsStillHolding(eb, keep))),
              // A photo removed on its own is kept while its removal can be appealed: it goes
              // once removedPastKeeping's sweep took its sizes.
              eb.or([
                eb('photos.removed_at', 'is', null),
                eb.not(
                  eb.exists(
                    eb
                      .selectFrom('photo_variants')
                      .select('photo_variants.key')
                      .whereRef('photo_variants.photo_id', '=', 'photos.id'),
                  ),
                ),
              ]),
            ]),
          ]),
        )
        .orderBy('photos.id')
        .execute();
      return rows.map((row) => row.id);
    },
    async unblock(photo) {
      if (!isStorableId(photo.id)) return 0;
      return rowsChanged(
        db
          .deleteFrom('blocked_photos')
          .where('photo_id', '=', photo.id)
          .where('phash', '=', photo.phash),
      );
    },
  };
}
