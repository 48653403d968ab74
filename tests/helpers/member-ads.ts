// Member ads written straight into the database (member_ads, migration 4), as the posting and
// moderation routes will: for the tests of publishing and search.
//
// Through the test's store (`t.sql`: either engine), awaited; or, for the publishing and search
// tests that still hold the SQLite file itself (a better-sqlite3 handle), synchronously.
import type Database from 'better-sqlite3';
import type { TestSql } from './test-store.ts';

export interface MemberAdFields {
  state: string;
  city: string;
  age?: number;
  seeks?: string;
  title: string;
  description?: string;
  status?: 'review' | 'live' | 'rejected' | 'removed' | 'deleted';
  postedOn?: string;
  expiresOn?: string;
}

type SqliteFile = Database.Database;
type Rows = SqliteFile | TestSql;

const isFile = (rows: Rows): rows is SqliteFile => 'prepare' in rows;

const FIND_POSTER = "SELECT id FROM accounts WHERE email = 'poster@example.org'";
const INSERT_POSTER = `INSERT INTO accounts (email, password_hash, date_of_birth, terms_accepted_at,
    created_at, email_verified_at)
  VALUES ('poster@example.org', 'not a hash', '1990-01-01', ?, ?, ?) RETURNING id`;
const INSERT_AD = `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description,
    status, created_at, submitted_at, approved_at, posted_on, expires_on, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`;
const SET_STATUS =
  'UPDATE member_ads SET status = ?, updated_at = ?, revision = revision + 1 WHERE id = ?';

/** The values of INSERT_AD but the poster's id. */
function adValues(ad: MemberAdFields): unknown[] {
  const now = new Date().toISOString();
  const status = ad.status ?? 'live';
  const live = status === 'live';
  return [
    ad.state,
    ad.city,
    ad.age ?? 30,
    ad.seeks ?? 'm4w',
    ad.title,
    ad.description ?? 'A plain test ad: coffee, a walk, a chat.',
    status,
    now,
    now,
    live ? now : null,
    live ? (ad.postedOn ?? '2026-11-20') : null,
    live ? (ad.expiresOn ?? '2026-12-20') : null,
    now,
  ];
}

/** The member who posts the test ads (made once per database). */
function posterIdIn(file: SqliteFile): number {
  const found = file.prepare(FIND_POSTER).get() as { id: number } | undefined;
  if (found) return found.id;
  const now = new Date().toISOString();
  return (file.prepare(INSERT_POSTER).get(now, now, now) as { id: number }).id;
}

async function posterId(sql: TestSql): Promise<number> {
  const found = await sql.get<{ id: number }>(FIND_POSTER);
  if (found) return found.id;
  const now = new Date().toISOString();
  return (await sql.get<{ id: number }>(INSERT_POSTER, now, now, now))!.id;
}

/** Inserts a member ad (live by default, approved now); its id. */
export function insertMemberAd(rows: SqliteFile, ad: MemberAdFields): number;
export function insertMemberAd(rows: TestSql, ad: MemberAdFields): Promise<number>;
export function insertMemberAd(rows: Rows, ad: MemberAdFields): number | Promise<number> {
  if (isFile(rows))
    return (rows.prepare(INSERT_AD).get(posterIdIn(rows), ...adValues(ad)) as { id: number }).id;
  return posterId(rows).then(
    async (poster) => (await rows.get<{ id: number }>(INSERT_AD, poster, ...adValues(ad)))!.id,
  );
}

/** Changes an ad's status, as a route would: a new revision. */
export function setMemberAdStatus(
  rows: SqliteFile,
  id: number,
  status: NonNullable<MemberAdFields['status']>,
): void;
export function setMemberAdStatus(
  rows: TestSql,
  id: number,
  status: NonNullable<MemberAdFields['status']>,
): Promise<void>;
export function setMemberAdStatus(
  rows: Rows,
  id: number,
  status: NonNullable<MemberAdFields['status']>,
): void | Promise<void> {
  const values = [status, new Date().toISOString(), id];
  if (isFile(rows)) {
    rows.prepare(SET_STATUS).run(...values);
    return;
  }
  return rows.run(SET_STATUS, ...values).then(() => {});
}
