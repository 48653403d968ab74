// Member ads written straight into the test's store (member_ads), as the posting and moderation
// routes write them: for the tests of publishing and search, on either engine.
import type { StoreHandle } from '../../server/store/store.ts';
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

/** Where the ads go: a test's store and its raw SQL (TestApp, TestStore). */
export interface AdsDatabase {
  store: StoreHandle;
  sql: TestSql;
}

/** The member who posts the test ads (made once per database). */
async function posterId({ store, sql }: AdsDatabase): Promise<number> {
  const found = await sql.get<{ id: number }>(
    "SELECT id FROM accounts WHERE email = 'poster@example.org'",
  );
  if (found) return found.id;
  const now = new Date().toISOString();
  const id = await store.accounts.create({
    email: 'poster@example.org',
    passwordHash: 'not a hash',
    dateOfBirth: '1990-01-01',
    termsAcceptedAt: now,
    createdAt: now,
  });
  await store.accounts.markVerified(id!, now);
  return id!;
}

/** Inserts a member ad (live by default, approved now); its id. */
export async function insertMemberAd(t: AdsDatabase, ad: MemberAdFields): Promise<number> {
  const now = new Date().toISOString();
  const status = ad.status ?? 'live';
  const live = status === 'live';
  const row = await t.sql.get<{ id: number }>(
    `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description, status,
       created_at, submitted_at, approved_at, posted_on, expires_on, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    await posterId(t),
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
  );
  return row!.id;
}

/** Changes an ad's status, as a route would: a new revision. */
export async function setMemberAdStatus(
  t: AdsDatabase,
  id: number,
  status: NonNullable<MemberAdFields['status']>,
): Promise<void> {
  await t.sql.run(
    `UPDATE member_ads SET status = ?, updated_at = ?, revision = revision + 1 WHERE id = ?`,
    status,
    new Date().toISOString(),
    id,
  );
}
