// A member's ad and a conversation about it written straight into the store, for the store's
// contract tests that need one and not the posting that makes it (posting has tests of its own):
// an adult's ad in Los Angeles, live for a month from 2026-11-23 unless told.
import type { Store } from '../../store/store.ts';
import type { TestSql } from './test-store.ts';

/** The same minute clock the store tests write their times with: 2026-11-24 10:{minute}. */
export const atMinute = (minute: number) =>
  `2026-11-24T10:${String(minute).padStart(2, '0')}:00.000Z`;

/** What adRow writes unless told, as the store reads an ad back. */
export const AD_ROW = {
  state: 'California',
  city: 'Los Angeles',
  age: 34,
  seeks: 'w4m',
  title: 'Sunday hikes',
  description: 'Old films.',
} as const;

export interface AdRowOptions {
  /** The id the test names; the store picks one unless told. */
  id?: number;
  title?: string;
  status?: string;
  state?: string;
  city?: string;
  description?: string;
  /** When it was made, submitted and last changed: atMinute(0) unless told. */
  at?: string;
  /** Its days live (null for an ad never approved): 2026-11-23 to 2026-12-23 unless told. */
  postedOn?: string | null;
  expiresOn?: string | null;
}

/** A member ad of `accountId`; its id. */
export async function adRow(
  sql: TestSql,
  accountId: number,
  {
    id,
    title = AD_ROW.title,
    status = 'live',
    state = AD_ROW.state,
    city = AD_ROW.city,
    description = AD_ROW.description,
    at = atMinute(0),
    postedOn = '2026-11-23',
    expiresOn = '2026-12-23',
  }: AdRowOptions = {},
): Promise<number> {
  const row = await sql.get<{ id: number }>(
    `INSERT INTO member_ads (${id === undefined ? '' : 'id, '}account_id, state, city, age, seeks,
       title, description, status, created_at, submitted_at, posted_on, expires_on, updated_at)
     VALUES (${id === undefined ? '' : '?, '}?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     RETURNING id`,
    ...(id === undefined ? [] : [id]),
    accountId,
    state,
    city,
    AD_ROW.age,
    AD_ROW.seeks,
    title,
    description,
    status,
    at,
    at,
    postedOn,
    expiresOn,
    at,
  );
  return row!.id;
}

/** A conversation about a new live ad of `poster`, begun by `replier` at `at`; its id. */
export async function conversationRow(
  t: { sql: TestSql; store: Pick<Store, 'conversations'> },
  poster: number,
  replier: number,
  { title = AD_ROW.title, at = atMinute(0), ...ad }: AdRowOptions = {},
): Promise<number> {
  const adId = await adRow(t.sql, poster, { title, at, ...ad });
  const id = await t.store.conversations.create({
    adId,
    adTitle: title,
    posterId: poster,
    replierId: replier,
    at,
  });
  return id!;
}
