// Photos of members' ads (photos, photo_variants, blocked_photos; docs/product.md section 10): the
// processed photos (never an uploaded file), their WebP sizes by key, and the perceptual hashes of
// photos moderators removed. Which photos an ad shows, in which order, is the ad's (member_ads.photos);
// the rules (who may attach what, what a removal blocks) are server/photos/'s. The bytes of each
// size are the photo storage's (store/photo-storage/photo-storage.ts, photo-blobs.ts), named by the keys here.
import type { PhotoScore, PhotoVariant } from '../../core/schemas/photos.ts';
import { isStorableId } from '../ids.ts';
import { removedPhotoStore, type RemovedPhotoStore } from './removed-photos.ts';
import { indexPhotoHashes } from './photo-hashes.ts';
import type { StoreContext } from '../store-context.ts';
import { changedOne, rowsChanged } from './row-count.ts';

export interface PhotoRow {
  id: number;
  accountId: number;
  /** Null: an upload not (yet) on an ad. */
  adId: number | null;
  width: number;
  height: number;
  /** Perceptual hash, 16 hex digits. */
  phash: string;
  /** Why a moderator should look at it, if anything. */
  flag: string | null;
  /** The explicit-image score; null: not scored (stored before scoring, or scoring failed). */
  score: PhotoScore | null;
  /** Another member's photo this one looked like when uploaded (photo_hashes.ts); null: none. */
  duplicateOf: number | null;
  createdAt: string;
  removedAt: string | null;
  removedReason: string | null;
  removedNote: string | null;
  /** Narrowest first. */
  variants: PhotoVariant[];
}

export interface NewPhoto {
  accountId: number;
  width: number;
  height: number;
  phash: string;
  flag: string | null;
  /** The explicit-image score; null or left out: not scored. */
  score?: PhotoScore | null;
  /** Another member's photo like it (server/photos/photo-duplicates.ts); left out: none. */
  duplicateOf?: number | null;
  /** With each size's bytes. */
  variants: (PhotoVariant & { size: number })[];
  at: string;
}

/** A removed photo's perceptual hash, and why it was removed. */
export interface BlockedPhoto {
  phash: string;
  /** A moderation reason (core/schemas/moderation-reasons.ts). */
  reason: string;
  photoId: number | null;
  adId: number | null;
  blockedAt: string;
}

export interface PhotoRemoval {
  reason: string;
  note: string | null;
  moderatorId: number;
  at: string;
}

export interface PhotoStore extends RemovedPhotoStore {
  /** A new photo, on no ad yet; its id. */
  insert(photo: NewPhoto): Promise<number>;
  find(id: number): Promise<PhotoRow | undefined>;
  /** The photos of these ids that exist, by id. */
  findMany(ids: readonly number[]): Promise<PhotoRow[]>;
  /** How many of the account's photos not removed matched another member's when uploaded. */
  countDuplicatesOf(accountId: number): Promise<number>;
  /** An ad's photos (removed ones too), by id. */
  listForAd(adId: number): Promise<PhotoRow[]>;
  /** Every photo of the member's (Download my data), by id. */
  listOwned(accountId: number): Promise<PhotoRow[]>;
  /**
   * Puts the member's photos of `ids` on the ad: those that are theirs, not removed, and on no ad
   * or on this one already. Answers how many are (now) on it.
   */
  attach(ids: readonly number[], adId: number, accountId: number): Promise<number>;
  /**
   * A moderator's removal: the photo stays (the member sees why), its sizes kept while the removal
   * can be appealed (shown to moderators only; removedPastKeeping says when they go).
   */
  markRemoved(id: number, removal: PhotoRemoval): Promise<boolean>;
  /**
   * Deletes the photos and their sizes; answers the keys of those sizes no photo uses any more
   * (the storage's bytes to delete).
   */
  delete(ids: readonly number[]): Promise<string[]>;
  /** The sizes of these photos no other photo uses: deleted from the table, their keys answered. */
  deleteVariants(photoIds: readonly number[]): Promise<string[]>;
  /** Of `keys`, those no photo's size (nor a kept verification selfie) uses. */
  unreferencedKeys(keys: readonly string[]): Promise<string[]>;
  /** Uploads on no ad made before `before` (ISO time): abandoned, to be deleted. */
  uploadsBefore(before: string): Promise<number[]>;
  block(entry: BlockedPhoto): Promise<void>;
  /** Every blocked hash, oldest first. */
  blocked(): Promise<BlockedPhoto[]>;
}

export function photoStore({ db }: StoreContext): PhotoStore {
  const select = () =>
    db
      .selectFrom('photos')
      .select([
        'id',
        'account_id as accountId',
        'ad_id as adId',
        'width',
        'height',
        'phash',
        'flag',
        'explicit_score',
        'sexy_score',
        'duplicate_of as duplicateOf',
        'created_at as createdAt',
        'removed_at as removedAt',
        'removed_reason as removedReason',
        'removed_note as removedNote',
      ]);
  type Selected = Awaited<ReturnType<ReturnType<typeof select>['execute']>>;

  /** The rows with their sizes, one query for all of them. */
  async function withVariants(rows: Selected): Promise<PhotoRow[]> {
    if (rows.length === 0) return [];
    const variants = await db
      .selectFrom('photo_variants')
      .select(['photo_id', 'width', 'height', 'key'])
      .where(
        'photo_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('photo_id')
      .orderBy('width')
      .execute();
    const byPhoto = new Map<number, PhotoVariant[]>();
    for (const { photo_id, ...variant } of variants) {
      const list = byPhoto.get(photo_id) ?? [];
      list.push(variant);
      byPhoto.set(photo_id, list);
    }
    return rows.map(({ explicit_score: explicit, sexy_score: sexy, ...row }) => ({
      ...row,
      // Both or neither: written together.
      score: explicit === null || sexy === null ? null : { explicit, sexy },
      variants: byPhoto.get(row.id) ?? [],
    }));
  }

  async function keysOf(photoIds: readonly number[]): Promise<string[]> {
    if (photoIds.length === 0) return [];
    const rows = await db
      .selectFrom('photo_variants')
      .select('key')
      .where('photo_id', 'in', photoIds)
      .execute();
    return [...new Set(rows.map((row) => row.key))];
  }

  const storable = (ids: readonly number[]) => ids.filter(isStorableId);

  const part: PhotoStore = {
    ...removedPhotoStore(db),
    async insert(photo) {
      const { id } = await db
        .insertInto('photos')
        .values({
          account_id: photo.accountId,
          width: photo.width,
          height: photo.height,
          phash: photo.phash,
          flag: photo.flag,
          explicit_score: photo.score?.explicit ?? null,
          sexy_score: photo.score?.sexy ?? null,
          duplicate_of: photo.duplicateOf ?? null,
          created_at: photo.at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await indexPhotoHashes(db, [{ id, accountId: photo.accountId, phash: photo.phash }]);
      if (photo.variants.length > 0)
        await db
          .insertInto('photo_variants')
          .values(
            photo.variants.map((variant) => ({
              photo_id: id,
              width: variant.width,
              height: variant.height,
              key: variant.key,
              size: variant.size,
            })),
          )
          .execute();
      return id;
    },
    async countDuplicatesOf(accountId) {
      const row = await db
        .selectFrom('photos')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('account_id', '=', accountId)
        .where('duplicate_of', 'is not', null)
        .where('removed_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async find(id) {
      if (!isStorableId(id)) return undefined;
      const rows = await select().where('id', '=', id).execute();
      return (await withVariants(rows))[0];
    },
    async findMany(ids) {
      const wanted = storable(ids);
      if (wanted.length === 0) return [];
      return withVariants(await select().where('id', 'in', wanted).orderBy('id').execute());
    },
    async listForAd(adId) {
      if (!isStorableId(adId)) return [];
      return withVariants(await select().where('ad_id', '=', adId).orderBy('id').execute());
    },
    async listOwned(accountId) {
      return withVariants(
        await select().where('account_id', '=', accountId).orderBy('id').execute(),
      );
    },
    async attach(ids, adId, accountId) {
      const wanted = storable(ids);
      if (wanted.length === 0) return 0;
      return rowsChanged(
        db
          .updateTable('photos')
          .set({ ad_id: adId })
          .where('id', 'in', wanted)
          .where('account_id', '=', accountId)
          .where('removed_at', 'is', null)
          .where((eb) => eb.or([eb('ad_id', 'is', null), eb('ad_id', '=', adId)])),
      );
    },
    async markRemoved(id, removal) {
      if (!isStorableId(id)) return false;
      return changedOne(
        db
          .updateTable('photos')
          .set({
            removed_at: removal.at,
            removed_reason: removal.reason,
            removed_note: removal.note,
            removed_by: removal.moderatorId,
          })
          .where('id', '=', id)
          .where('removed_at', 'is', null),
      );
    },
    async delete(ids) {
      const wanted = storable(ids);
      if (wanted.length === 0) return [];
      const keys = await keysOf(wanted);
      await db.deleteFrom('photo_variants').where('photo_id', 'in', wanted).execute();
      await db.deleteFrom('photos').where('id', 'in', wanted).execute();
      return part.unreferencedKeys(keys);
    },
    async deleteVariants(photoIds) {
      const wanted = storable(photoIds);
      if (wanted.length === 0) return [];
      const keys = await keysOf(wanted);
      await db.deleteFrom('photo_variants').where('photo_id', 'in', wanted).execute();
      return part.unreferencedKeys(keys);
    },
    async unreferencedKeys(keys) {
      if (keys.length === 0) return [];
      const used = await db
        .selectFrom('photo_variants')
        .select('key')
        .where('key', 'in', [...keys])
        .execute();
      // A verification selfie's bytes are kept under a key of the same storage (never published).
      const selfies = await db
        .selectFrom('verifications')
        .select('selfie_key as key')
        .where('selfie_key', 'in', [...keys])
        .execute();
      const usedKeys = new Set([...used, ...selfies].map((row) => row.key));
      return keys.filter((key) => !usedKeys.has(key));
    },
    async uploadsBefore(before) {
      const rows = await db
        .selectFrom('photos')
        .select('id')
        .where('ad_id', 'is', null)
        .where('created_at', '<', before)
        .orderBy('id')
        .execute();
      return rows.map((row) => row.id);
    },
    async block(entry) {
      await db
        .insertInto('blocked_photos')
        .values({
          phash: entry.phash,
          reason: entry.reason,
          photo_id: entry.photoId,
          ad_id: entry.adId,
          blocked_at: entry.blockedAt,
        })
        .execute();
    },
    async blocked() {
      return db
        .selectFrom('blocked_photos')
        .select([
          'phash',
          'reason',
          'photo_id as photoId',
          'ad_id as adId',
          'blocked_at as blockedAt',
        ])
        .orderBy('id')
        .execute();
    },
  };
  return part;
}
