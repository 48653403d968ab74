// The duplicate-photo index in the store (photo_hash_chunks; docs/product.md section 10):
// shared by every instance on the database, written with each photo (photos.ts insert), probed
// when a photo is uploaded (server/photos/photo-duplicates.ts), filled for photos stored before it
// existed, and emptied of photos removed long ago. The layout and the pigeonhole reasoning are
// photo-hash-index.ts's; rows go with their photo through the foreign key.
import { sql, type Kysely } from 'kysely';
import { chunkProbes, hammingDistance, hashChunks } from './photo-hash-index.ts';
import { rowsChanged } from './row-count.ts';
import type { StoreContext } from '../store-context.ts';
import type { Tables } from '../tables.ts';

/** A photo as the index knows it. */
export interface HashedPhoto {
  id: number;
  accountId: number;
  phash: string;
}

/** A photo found near a hash: whose, and how many bits apart. */
export interface NearPhoto {
  photoId: number;
  accountId: number;
  distance: number;
}

export interface PhotoHashStore {
  /** Puts the photos in the index (a photo there already is left as it is). */
  index(photos: readonly HashedPhoto[]): Promise<void>;
  /**
   * The photos of any account but `exceptAccount` whose hash is within `maxBits` of `phash`,
   * nearest first. Exact for any maxBits: every photo within floor(maxBits / 3) bits in one piece
   * is read, then measured (the cost grows fast with it: 718 probes at 8, 4,918 at 11).
   */
  near(phash: string, maxBits: number, exceptAccount: number): Promise<NearPhoto[]>;
  /** Up to `limit` photos not in the index and not removed, by id (stored before it existed). */
  unindexed(limit: number): Promise<HashedPhoto[]>;
  /** Takes out of the index the photos a moderator removed before `before` (ISO time). */
  forgetRemovedBefore(before: string): Promise<number>;
}

/** The chunk rows of `photos`, written through `db` (photos.ts writes a new photo's with it). */
export async function indexPhotoHashes(
  db: Kysely<Tables>,
  photos: readonly HashedPhoto[],
): Promise<void> {
  const rows = photos.flatMap((photo) =>
    hashChunks(photo.phash).map((value, chunk) => ({
      chunk,
      value,
      photo_id: photo.id,
      account_id: photo.accountId,
      phash: photo.phash,
    })),
  );
  // 5 values a row: 300 rows keep a statement's parameters well under both engines' limits.
  for (let start = 0; start < rows.length; start += 300)
    await db
      .insertInto('photo_hash_chunks')
      .values(rows.slice(start, start + 300))
      .onConflict((oc) => oc.columns(['chunk', 'value', 'photo_id']).doNothing())
      .execute();
}

export function photoHashStore({ db, kind }: StoreContext): PhotoHashStore {
  // A piece's few thousand values as ONE parameter (a JSON array on SQLite, an array on
  // PostgreSQL): as thousands of parameters, building and binding the statement took longer than
  // running it.
  const valueIn = (values: number[]) =>
    kind === 'sqlite'
      ? sql<boolean>`value IN (SELECT value FROM json_each(${JSON.stringify(values)}))`
      : sql<boolean>`value = ANY(${values}::integer[])`;
  return {
    index: (photos) => indexPhotoHashes(db, photos),
    async near(phash, maxBits, exceptAccount) {
      const found = new Map<number, NearPhoto>();
      for (const { chunk, values } of chunkProbes(phash, maxBits)) {
        const rows = await db
          .selectFrom('photo_hash_chunks')
          .select(['photo_id', 'account_id', 'phash'])
          .where('chunk', '=', chunk)
          .where(valueIn(values))
          .where('account_id', '!=', exceptAccount)
          .execute();
        for (const row of rows) {
          if (found.has(row.photo_id)) continue;
          const distance = hammingDistance(phash, row.phash);
          if (distance <= maxBits)
            found.set(row.photo_id, {
              photoId: Number(row.photo_id),
              accountId: Number(row.account_id),
              distance,
            });
        }
      }
      return [...found.values()].sort((a, b) => a.distance - b.distance || a.photoId - b.photoId);
    },
    async unindexed(limit) {
      const rows = await db
        .selectFrom('photos')
        .select(['id', 'account_id as accountId', 'phash'])
        // A photo a moderator removed is left out: the sweep takes such photos out of the index,
        // and a start must not put them back (a reversal puts its photo back itself).
        .where('removed_at', 'is', null)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('photo_hash_chunks')
                .select('photo_hash_chunks.photo_id')
                .whereRef('photo_hash_chunks.photo_id', '=', 'photos.id'),
            ),
          ),
        )
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => ({ ...row, id: Number(row.id), accountId: Number(row.accountId) }));
    },
    async forgetRemovedBefore(before) {
      const chunks = await rowsChanged(
        db
          .deleteFrom('photo_hash_chunks')
          .where('photo_id', 'in', (eb) =>
            eb.selectFrom('photos').select('id').where('removed_at', '<', before),
          ),
      );
      return Math.ceil(chunks / 3);
    },
  };
}
