// What the build publishes of the server's data (docs/product.md section 6): the live member ads
// that reports do not hide, and the editors' ads that reports hide, read in one consistent
// snapshot while the server keeps writing, so that the keys and the rows of one build agree.
// - PostgreSQL: one REPEATABLE READ, READ ONLY transaction (every query sees the database as it
//   was at the first one).
// - SQLite: one read transaction (WAL: the reader keeps its snapshot while the server writes).
// The build (src/build/compile/database-ad-source.ts) reads the keys of every ad, and the rows of
// only the ranges of ids whose keys changed since it last read them.
//
// It reads databases of any version, as `npm start` builds before the server migrates: without
// the member_ads table (a database from before it), no member ads; without hidden_ads, none hidden.
import { sql, type Kysely } from 'kysely';
import type { StoreContext } from './store.ts';
import type { Tables } from './tables.ts';

/** What decides a member ad's published row: a change to any of these is a change to the ad. */
export interface PublishedAdKey {
  id: number;
  revision: number;
  updated_at: string;
  posted_on: string | null;
  expires_on: string | null;
}

/** A member ad's published columns. */
export interface PublishedAdRow {
  id: number;
  state: string;
  city: string;
  age: number;
  seeks: string;
  title: string;
  description: string;
  posted_on: string | null;
  expires_on: string | null;
}

/** One consistent view of what is published; valid only while the snapshot's `read` runs. */
export interface PublishedAdsSnapshot {
  /** The live, not hidden member ads' keys with ids above `afterId`, by id, at most `limit`. */
  keys(afterId: number, limit: number): Promise<PublishedAdKey[]>;
  /** The live, not hidden member ads with ids from `fromId` up to (not including) `toId`, by id. */
  rows(fromId: number, toId: number): Promise<PublishedAdRow[]>;
  /** The editors' (CSV) ads that reports keep off the site, by id. */
  hiddenEditorAdIds(): Promise<number[]>;
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
  const tables = await tablesPresent(db, kind);
  const memberAds = tables.has('member_ads');
  const hiddenAds = tables.has('hidden_ads');
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
      return live()
        .select(['id', 'revision', 'updated_at', 'posted_on', 'expires_on'])
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    async rows(fromId, toId) {
      if (!memberAds) return [];
      return live()
        .select([
          'id',
          'state',
          'city',
          'age',
          'seeks',
          'title',
          'description',
          'posted_on',
          'expires_on',
        ])
        .where('id', '>=', fromId)
        .where('id', '<', toId)
        .orderBy('id')
        .execute();
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
  });
}

/** Which of the tables this part reads the database has (in its own schema, on PostgreSQL). */
async function tablesPresent(db: Kysely<Tables>, kind: StoreContext['kind']): Promise<Set<string>> {
  const { rows } = await (
    kind === 'postgres'
      ? sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_name IN ('member_ads', 'hidden_ads')`
      : sql<{ name: string }>`SELECT name FROM sqlite_master
          WHERE type = 'table' AND name IN ('member_ads', 'hidden_ads')`
  ).execute(db);
  return new Set(rows.map((row) => row.name));
}
