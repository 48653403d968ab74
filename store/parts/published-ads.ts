// What the build publishes of the server's data (docs/product.md section 6): the live member ads
// that reports do not hide, and the editors' ads that reports hide, read in one consistent
// snapshot while the server keeps writing, so that the keys and the rows of one build agree.
// - PostgreSQL: one REPEATABLE READ, READ ONLY transaction (every query sees the database as it
//   was at the first one).
// - SQLite: one read transaction (WAL: the reader keeps its snapshot while the server writes).
// The build (pipeline/compile/database-ad-source.ts) reads the keys of every ad, and the rows of
// only the ranges of ids whose keys changed since it last read them.
//
// It reads databases of any version, as `npm start` builds before the server migrates: without
// the member_ads table (a database from before it), no member ads; without hidden_ads, none hidden;
// without the photos tables (and member_ads.photos, added with them), no photos.
//
// Photos (docs/product.md section 10): each row carries its ad's photos as member_ads.photos lists
// them, in order, those that exist, belong to the ad and are not removed, with their sizes (one
// query a range for all its ads' photos). A change of the list bumps the ad's revision and
// updated_at (store/parts/member-ads.ts: setPhotos, resubmit, an approved edit), so its range's
// key changes with its photos.
import { sql, type Kysely } from 'kysely';
import { parseAdPhotoList, type PhotoVariant } from '../../core/schemas/photos.ts';
import type { StoreContext } from '../store-context.ts';
import { AD_TEXT_COLUMNS, type MemberAdText } from './ad-text.ts';
import type { Tables } from '../tables.ts';
import { readTransparencyTallies, type TransparencyTallies } from './transparency.ts';
import { tablesPresent } from './tables-present.ts';

/** What decides a member ad's published row: a change to any of these is a change to the ad. */
export interface PublishedAdKey {
  id: number;
  revision: number;
  updated_at: string;
  posted_on: string | null;
  expires_on: string | null;
  /** Its member's current verification (null: none), so approving or withdrawing one republishes. */
  verified_id?: number | null;
}

/** A photo of a published ad: the member's own alt text ('' for the default), its sizes. */
export interface PublishedAdPhoto {
  /** The photo's id (photos.id): warnings name it. */
  id: number;
  alt: string;
  /** The largest size's. */
  width: number;
  height: number;
  /** Narrowest first (never empty). */
  variants: PhotoVariant[];
}

/** A member ad's published columns. */
export interface PublishedAdRow extends MemberAdText {
  posted_on: string | null;
  expires_on: string | null;
  /** Its photos in order (none when it has none). */
  photos: PublishedAdPhoto[];
  /**
   * Its member's verification (docs/product.md section 6, "Verified members"): the ids of the
   * photos a moderator saw were the member (none: Real person only); absent when not verified.
   */
  verifiedPhotoIds?: number[];
}

/** One consistent view of what is published; valid only while the snapshot's `read` runs. */
export interface PublishedAdsSnapshot {
  /** The live, not hidden member ads' keys with ids above `afterId`, by id, at most `limit`. */
  keys(afterId: number, limit: number): Promise<PublishedAdKey[]>;
  /** The live, not hidden member ads with ids from `fromId` up to (not including) `toId`, by id. */
  rows(fromId: number, toId: number): Promise<PublishedAdRow[]>;
  /** The editors' (CSV) ads that reports keep off the site, by id. */
  hiddenEditorAdIds(): Promise<number[]>;
  /** What the transparency report counts, in the same snapshot (transparency.ts). */
  transparency(): Promise<TransparencyTallies>;
}

export interface PublishedAdsStore {
  /**
   * Runs `read` on one snapshot of the database: whatever is committed while it runs is not seen.
   * Within a unit of work, the unit's own transaction is the snapshot.
   */
  snapshot<T>(read: (snapshot: PublishedAdsSnapshot) => Promise<T>): Promise<T>;
}

export function publishedAdsStore({ db, kind }: StoreContext): PublishedAdsStore {
  return {
    snapshot(read) {
      if (db.isTransaction) return readOn(db, kind, read);
      // Read only: on SQLite a plain BEGIN, whose snapshot starts at the first read and holds no
      // write lock (sqlite-engine.ts).
      const transaction = db.transaction().setAccessMode('read only');
      return (
        kind === 'postgres' ? transaction.setIsolationLevel('repeatable read') : transaction
      ).execute((trx) => readOn(trx, kind, read));
    },
  };
}

async function readOn<T>(
  db: Kysely<Tables>,
  kind: StoreContext['kind'],
  read: (snapshot: PublishedAdsSnapshot) => Promise<T>,
): Promise<T> {
  // The first query of the transaction: from here on, the snapshot holds.
  const tables = await tablesPresent(db, kind, [
    'member_ads',
    'hidden_ads',
    'photo_variants',
    'verifications',
  ]);
  const memberAds = tables.has('member_ads');
  const verifications = tables.has('verifications');
  const hiddenAds = tables.has('hidden_ads');
  const photos = tables.has('photo_variants');
  const live = () => {
    // Read in the order of ids, a range at a time: by the primary key. `status || ''` keeps
    // SQLite from choosing the index on status instead, whose live ads it would sort again for
    // every page (about three times slower on 100,000 ads). PostgreSQL plans the same by itself.
    let query = db.selectFrom('member_ads').where(sql<string>`status || ''`, '=', 'live');
    // A live ad that reports hide (hidden_ads) is not published until a moderator decides.
    if (hiddenAds)
      query = query.where('id', 'not in', (eb) => eb.selectFrom('hidden_ads').select('ad_id'));
    return query;
  };
  return read({
    async keys(afterId, limit) {
      if (!memberAds) return [];
      const query = live()
        .select(['id', 'revision', 'updated_at', 'posted_on', 'expires_on'])
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit);
      if (!verifications) return query.execute();
      const rows = await query
        .select((eb) =>
          eb
            .selectFrom('verifications')
            .select((inner) => inner.fn.max('verifications.id').as('verified_id'))
            .whereRef('verifications.account_id', '=', 'member_ads.account_id')
            .where('verifications.status', '=', 'approved')
            .as('verified_id'),
        )
        .execute();
      // Only a verified member's ad names its verification: the others' keys stay as they were.
      return rows.map(({ verified_id, ...key }) =>
        verified_id === null || verified_id === undefined
          ? key
          : { ...key, verified_id: Number(verified_id) },
      );
    },
    async rows(fromId, toId) {
      if (!memberAds) return [];
      const rows = await live()
        .select([
          ...AD_TEXT_COLUMNS,
          'posted_on',
          'expires_on',
          'account_id',
          ...(photos ? (['photos'] as const) : []),
        ])
        .where('id', '>=', fromId)
        .where('id', '<', toId)
        .orderBy('id')
        .execute();
      const lists = new Map(
        rows.map((row) => [row.id, parseAdPhotoList((row as { photos?: string }).photos)]),
      );
      const shown = photos && [...lists.values()].some((list) => list.length > 0);
      const sizes = shown ? await photoSizes(db, fromId, toId) : new Map<string, PhotoSizes>();
      const verified = verifications
        ? await verifiedPhotos(db, [...new Set(rows.map((row) => row.account_id))])
        : new Map<number, number[]>();
      return rows.map(
        ({
          photos: _list,
          account_id: accountId,
          ...row
        }: (typeof rows)[number] & { photos?: string }) => ({
          ...row,
          ...(verified.has(accountId) ? { verifiedPhotoIds: verified.get(accountId)! } : {}),
          photos: (lists.get(row.id) ?? []).flatMap(({ id, alt }) => {
            const variants = sizes.get(`${row.id}:${id}`);
            const largest = variants?.at(-1);
            return variants && largest
              ? [{ id, alt, width: largest.width, height: largest.height, variants }]
              : [];
          }),
        }),
      );
    },
    async hiddenEditorAdIds() {
      if (!hiddenAds) return [];
      const rows = await db
        .selectFrom('hidden_ads')
        .select('ad_id')
        .where('kind', '=', 'editor')
        .orderBy('ad_id')
        .execute();
      return rows.map((row) => row.ad_id);
    },
    transparency: () => readTransparencyTallies(db, kind),
  });
}

type PhotoSizes = PhotoVariant[];

/** The current verification's photos of each verified member among `accountIds` (newest wins). */
async function verifiedPhotos(
  db: Kysely<Tables>,
  accountIds: readonly number[],
): Promise<Map<number, number[]>> {
  const verified = new Map<number, number[]>();
  if (accountIds.length === 0) return verified;
  const rows = await db
    .selectFrom('verifications')
    .select(['account_id', 'photo_ids'])
    .where('account_id', 'in', [...accountIds])
    .where('status', '=', 'approved')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const ids: unknown = JSON.parse(row.photo_ids);
    verified.set(
      Number(row.account_id),
      Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id)) : [],
    );
  }
  return verified;
}

/**
 * The sizes of the photos of the ads with ids from `fromId` up to `toId` that are not removed, by
 * `{adId}:{photoId}` (a photo counts only on its own ad), narrowest first: one query for them all.
 */
async function photoSizes(
  db: Kysely<Tables>,
  fromId: number,
  toId: number,
): Promise<Map<string, PhotoSizes>> {
  const rows = await db
    .selectFrom('photos')
    .innerJoin('photo_variants', 'photo_variants.photo_id', 'photos.id')
    .select([
      'photos.ad_id as adId',
      'photos.id as photoId',
      'photo_variants.width as width',
      'photo_variants.height as height',
      'photo_variants.key as key',
    ])
    .where('photos.ad_id', '>=', fromId)
    .where('photos.ad_id', '<', toId)
    .where('photos.removed_at', 'is', null)
    .orderBy('photos.id')
    .orderBy('photo_variants.width')
    .execute();
  const sizes = new Map<string, PhotoSizes>();
  for (const { adId, photoId, width, height, key } of rows) {
    const name = `${adId}:${photoId}`;
    const list = sizes.get(name) ?? [];
    list.push({ width: Number(width), height: Number(height), key });
    sizes.set(name, list);
  }
  return sizes;
}
