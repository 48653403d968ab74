// Member ads written straight into the database (member_ads, migration 4), as the posting and
// moderation routes will: for the tests and the benchmark of publishing.
import type { Db } from '../../server/db/database.ts';

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

/** The member who posts the test ads (made once per database). */
function posterId(db: Db): number {
  const found = db.prepare("SELECT id FROM accounts WHERE email = 'poster@example.org'").get() as
    { id: number } | undefined;
  if (found) return found.id;
  const now = new Date().toISOString();
  return Number(
    db
      .prepare(
        `INSERT INTO accounts (email, password_hash, date_of_birth, terms_accepted_at, created_at, email_verified_at)
         VALUES ('poster@example.org', 'not a hash', '1990-01-01', ?, ?, ?)`,
      )
      .run(now, now, now).lastInsertRowid,
  );
}

/** Inserts a member ad (live by default, approved now); its id. */
export function insertMemberAd(db: Db, ad: MemberAdFields): number {
  const now = new Date().toISOString();
  const status = ad.status ?? 'live';
  const live = status === 'live';
  return Number(
    db
      .prepare(
        `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description, status,
           created_at, submitted_at, approved_at, posted_on, expires_on, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        posterId(db),
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
      ).lastInsertRowid,
  );
}

/** Changes an ad's status, as a route would: a new revision. */
export function setMemberAdStatus(
  db: Db,
  id: number,
  status: NonNullable<MemberAdFields['status']>,
) {
  db.prepare(
    `UPDATE member_ads SET status = ?, updated_at = ?, revision = revision + 1 WHERE id = ?`,
  ).run(status, new Date().toISOString(), id);
}
