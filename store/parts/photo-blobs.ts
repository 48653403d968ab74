// The bytes of photos' sizes when the photo storage keeps them in the database (photo_blobs; the
// other place is a folder: store/photo-storage/photo-storage.ts), named by the keys of photo_variants
// (photos.ts). A key's bytes go only when no photo's size names it.
import type { ExpressionBuilder } from 'kysely';
import type { StoreContext } from '../store-context.ts';
import type { Tables } from '../tables.ts';

/** The bytes of photos' sizes, when they are stored in the database (photo_blobs). */
export interface PhotoBlobStore {
  /** Keeps `bytes` under `key`; a key already there is left as it is (same key, same bytes). */
  put(key: string, bytes: Buffer, at: string): Promise<void>;
  get(key: string): Promise<Buffer | undefined>;
  /** Deletes the bytes of those keys no photo's size uses (a key used again meanwhile stays). */
  delete(keys: readonly string[]): Promise<void>;
  /** Keys no photo's size uses, kept before `before`: left by an upload that failed half-way. */
  orphansBefore(before: string): Promise<string[]>;
  /** Up to `limit` keys after `after`, in order: every key, used or not (a move of them all). */
  keysAfter(after: string, limit: number): Promise<string[]>;
  /** Deletes the bytes of `key` whatever uses it: they are kept elsewhere now (a move). */
  deleteMoved(key: string): Promise<void>;
}

/** A blob no photo's size names, nor a kept verification selfie (server/verification/). */
const usedByNoPhoto = (eb: ExpressionBuilder<Tables, 'photo_blobs'>) =>
  eb.and([
    eb.not(
      eb.exists(
        eb
          .selectFrom('photo_variants')
          .select('photo_variants.key')
          .whereRef('photo_variants.key', '=', 'photo_blobs.key'),
      ),
    ),
    eb.not(
      eb.exists(
        eb
          .selectFrom('verifications')
          .select('verifications.selfie_key')
          .whereRef('verifications.selfie_key', '=', 'photo_blobs.key'),
      ),
    ),
  ]);

export function photoBlobStore({ db }: StoreContext): PhotoBlobStore {
  const blobs = () => db.selectFrom('photo_blobs');
  /** The keys of the blobs `found` finds. */
  const keysOf = async (found: ReturnType<typeof blobs>) =>
    (await found.select('key').execute()).map((row) => row.key);
  return {
    async put(key, bytes, at) {
      await db
        .insertInto('photo_blobs')
        .values({ key, bytes, created_at: at })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
    },
    async get(key) {
      const row = await blobs().select('bytes').where('key', '=', key).executeTakeFirst();
      return row ? Buffer.from(row.bytes) : undefined;
    },
    async delete(keys) {
      if (keys.length === 0) return;
      await db
        .deleteFrom('photo_blobs')
        .where('key', 'in', [...keys])
        .where(usedByNoPhoto)
        .execute();
    },
    orphansBefore: (before) =>
      keysOf(blobs().where('created_at', '<', before).where(usedByNoPhoto)),
    keysAfter: (after, limit) =>
      keysOf(blobs().where('key', '>', after).orderBy('key').limit(limit)),
    async deleteMoved(key) {
      await db.deleteFrom('photo_blobs').where('key', '=', key).execute();
    },
  };
}
