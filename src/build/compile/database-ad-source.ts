// Member ads as a source of ads (ad-source.ts), beside the CSV files: the ads moderators approved,
// read from the server's SQLite database (member_ads, migration 4 of server/db/migrations.ts),
// read-only, in one read transaction, so that the build sees one consistent snapshot while the
// server keeps writing (WAL mode). Each is turned into the cells of a CSV row and checked by the
// same checkAdRow() as an editor's ad, so it lands on the same pages and in the same counts.
//
// What differs from the CSV ads, on purpose:
// - A member ad's problem (its city taken off the list since it was approved, say) must not stop
//   the site from publishing: the ad is left out with one warning naming it (`lenient`).
// - Its text is held to the refused terms (content/policy/refused-terms.txt) but not to the terms
//   for review (review-terms.txt, ambiguous: "arrangement", "teens"): the policy scanner marked
//   those when the ad was posted, and a moderator saw them and approved it (docs/product.md §6).
//
// The SQL is here rather than in server/db/ because the build must never open the database the
// way the server does (read-write, migrating): it only reads the published columns of live ads.
// Batches are ranges of ids of a thousand; a batch's key is a digest of what decides its rows
// (id, revision, updated_at, posted_on, expires_on), so an unchanged range is not checked again.
//
// Ads kept off the site by reports (hidden_ads, migration 5) are left out: a member's here, with
// the live ads (a hidden one leaves its range's digest, so that range is checked again); an
// editor's by the compiler, from hiddenEditorAdIds() (rare: a change checks every CSV batch again).
import Database from 'better-sqlite3';
import { hash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AdBatch, AdSource } from './ad-source.ts';
import { checkAdRow, type AdCheckContext } from './check-ad-row.ts';
import type { ContentProblem } from './report.ts';

/** How problems name the database, and each of its ads. */
export const DATABASE_ORIGIN = 'database';
export const memberAdName = (id: number) => `member ad ${id} (database)`;

/** Ids a batch: member ads are numbered from 100,000,001 up, a range of them a batch. */
const IDS_PER_BATCH = 1000;

interface KeyRow {
  id: number;
  revision: number;
  updated_at: string;
  posted_on: string | null;
  expires_on: string | null;
}

interface AdRow {
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

/**
 * The live member ads of the database at `path`; none when there is no such file (the build never
 * creates it) or it has no member ads table yet (a database from before migration 4).
 */
export function databaseAdSource(path: string): AdSource {
  let db: Database.Database | undefined;
  return {
    batches() {
      if (!existsSync(path)) return { batches: [], problems: [] };
      try {
        db = new Database(path, { readonly: true, fileMustExist: true });
        db.pragma('busy_timeout = 5000');
        // Every read of this build in one snapshot: the keys and the rows agree.
        db.exec('BEGIN');
        const hasTable = db
          .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'member_ads'")
          .get();
        if (!hasTable) return { batches: [], problems: [] };
        return { batches: batchesOf(db, hasHiddenAds(db)), problems: [] };
      } catch (error) {
        return { batches: [], problems: [unreadable(path, error)] };
      }
    },
    close() {
      if (db?.inTransaction) db.exec('COMMIT');
      db?.close();
      db = undefined;
    },
  };
}

/**
 * The ids of editors' (CSV) ads that reports keep off the site, in order; none without the
 * database or its hidden_ads table. Unreadable, it hides nothing: databaseAdSource() reports it.
 */
export function hiddenEditorAdIds(path: string): number[] {
  if (!existsSync(path)) return [];
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    if (!hasHiddenAds(db)) return [];
    return db
      .prepare<[], number>(`SELECT ad_id FROM hidden_ads WHERE kind = 'editor' ORDER BY ad_id`)
      .pluck()
      .all();
  } catch {
    return [];
  } finally {
    db?.close();
  }
}

/** What the database publishes, as far as publishing goes: equal stamps, the same ads (`--if-needed`). */
export function memberAdsStamp(path: string): string {
  const source = databaseAdSource(path);
  try {
    const { batches, problems } = source.batches();
    return hash(
      'sha1',
      JSON.stringify([batches.map((batch) => batch.key), problems, hiddenEditorAdIds(path)]),
      'base64url',
    );
  } finally {
    source.close?.();
  }
}

/** Whether the database has hidden_ads (migration 5): the build reads databases of any version. */
const hasHiddenAds = (db: Database.Database) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'hidden_ads'").get() !==
  undefined;

function batchesOf(db: Database.Database, hiddenAds: boolean): AdBatch[] {
  // A live ad that reports hide (hidden_ads) is not published until a moderator dismisses them.
  const live = hiddenAds
    ? `status = 'live' AND id NOT IN (SELECT ad_id FROM hidden_ads)`
    : `status = 'live'`;
  const keys = db.prepare<[], KeyRow>(
    `SELECT id, revision, updated_at, posted_on, expires_on FROM member_ads
     WHERE ${live} ORDER BY id`,
  );
  const rows = db.prepare<[number, number], AdRow>(
    `SELECT id, state, city, age, seeks, title, description, posted_on, expires_on
     FROM member_ads WHERE ${live} AND id >= ? AND id < ? ORDER BY id`,
  );
  const batches: AdBatch[] = [];
  let range = -1;
  let digest = '';
  const close = () => {
    if (range < 0) return;
    const from = range * IDS_PER_BATCH;
    batches.push({
      origin: DATABASE_ORIGIN,
      line: from,
      key: hash('sha1', `member-ads\0${digest}`, 'base64url'),
      lenient: true,
      rowName: memberAdName,
      check(context, visit) {
        const memberContext = memberContextOf(context);
        for (const row of rows.iterate(from, from + IDS_PER_BATCH)) {
          const outcome = checkAdRow(cellsOf(row), row.id, DATABASE_ORIGIN, memberContext);
          // With a problem the ad is left out (a warning), never published as it is.
          visit(row.id, outcome.problems.length > 0 ? { problems: outcome.problems } : outcome);
        }
        return [];
      },
    });
  };
  for (const row of keys.iterate()) {
    const rowRange = Math.floor(row.id / IDS_PER_BATCH);
    if (rowRange !== range) {
      close();
      range = rowRange;
      digest = '';
    }
    digest += `${row.id},${row.revision},${row.updated_at},${row.posted_on},${row.expires_on};`;
  }
  close();
  return batches;
}

const memberContexts = new WeakMap<AdCheckContext, AdCheckContext>();

/** The build's check context without the terms for review (one object a build: its terms' patterns are compiled once). */
function memberContextOf(context: AdCheckContext): AdCheckContext {
  let member = memberContexts.get(context);
  if (!member) {
    member = { ...context, policyTerms: { refuse: context.policyTerms.refuse, review: [] } };
    memberContexts.set(context, member);
  }
  return member;
}

/** A member ad as the cells of a CSV row (src/schemas/ad.ts): no images, not featured, no sample. */
function cellsOf(row: AdRow): Record<string, string> {
  return {
    id: String(row.id),
    state: row.state,
    city: row.city,
    age: String(row.age),
    seeks: row.seeks,
    title: row.title,
    description: row.description,
    images: '',
    featured: 'false',
    postedAt: row.posted_on ?? '',
    expiresAt: row.expires_on ?? '',
    sample: 'false',
  };
}

function unreadable(path: string, error: unknown): ContentProblem {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return {
    file: DATABASE_ORIGIN,
    line: 1,
    field: 'file',
    message: `${path} cannot be read as the member ads' database (${typeof code === 'string' ? code : String(message)})`,
  };
}
