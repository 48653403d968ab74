// Message tests: live member ads inserted for a given member (as approval leaves them), starting
// conversations and replying as a browser without JavaScript would (or JSON), and the rows read
// back from the database.
import type { Db } from '../../server/db/database.ts';
import type { TestApp, TestAppOptions } from './api.ts';
import { dayFromToday, submit, type TestMember } from './posting.ts';
import { testAppOnPublishedFixture } from './published-fixture.ts';

/** The id of the editor's (not sample) ad the message tests' content has. */
export const EDITOR_AD_ID = 990_001;

/**
 * The test app of a file's tests on the content fixture, its published ads in memory (sample ads,
 * and one editor's ad that is not a sample), as the reply page finds them by id.
 */
export const messagesTestApp = (options?: TestAppOptions): TestApp =>
  testAppOnPublishedFixture(options, {
    'ads/editor.csv':
      'id,state,city,age,seeks,title,description,images,featured,postedAt,expiresAt,sample\n' +
      `${EDITOR_AD_ID},California,Los Angeles,41,m4w,An editor's listing,Written by an editor.,,false,2026-11-01,2026-12-20,false\n`,
  });

export interface StoredMessage {
  id: number;
  conversation_id: number;
  sender_id: number;
  body: string;
  sent_at: string;
  read_at: string | null;
}

export interface StoredConversation {
  id: number;
  ad_id: number | null;
  ad_title: string;
  poster_id: number | null;
  replier_id: number | null;
  started_at: string;
  last_message_at: string;
}

/** A live member ad of `member` (approved now, 20 days left); its id. */
export function insertLiveAd(
  db: Db,
  member: Pick<TestMember, 'accountId'>,
  title = 'Coffee and a long walk by the sea',
  columns: { state?: string; city?: string; status?: string; expiresOn?: string } = {},
): number {
  const now = new Date().toISOString();
  return Number(
    db
      .prepare(
        `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description, status,
           created_at, submitted_at, approved_at, posted_on, expires_on, updated_at)
         VALUES (?, ?, ?, 34, 'w4m', ?, 'Old films, early mornings and a good bookshop.', ?,
           ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        member.accountId,
        columns.state ?? 'California',
        columns.city ?? 'Los Angeles',
        title,
        columns.status ?? 'live',
        now,
        now,
        now,
        dayFromToday(-1),
        columns.expiresOn ?? dayFromToday(20),
        now,
      ).lastInsertRowid,
  );
}

/** Starts a conversation about an ad (POST /api/messages), as a form unless told otherwise. */
export const startConversation = (
  t: TestApp,
  member: TestMember,
  adId: number | string,
  body: string,
  kind: 'form' | 'json' = 'form',
) => submit(t, '/api/messages', { ad: String(adId), body }, member.session, kind);

/** A message in a conversation (POST /api/messages/{id}/reply). */
export const replyIn = (
  t: TestApp,
  member: TestMember,
  conversationId: number,
  body: string,
  kind: 'form' | 'json' = 'form',
) => submit(t, `/api/messages/${conversationId}/reply`, { body }, member.session, kind);

/** The conversation id of a redirect to /messages/{id}. */
export function conversationIdOf(response: Response): number {
  const location = response.headers.get('location') ?? '';
  const id = /^\/messages\/(\d+)/.exec(location)?.[1];
  if (!id) throw new Error(`Not a redirect to a conversation: ${response.status} ${location}`);
  return Number(id);
}

export const storedMessages = (db: Db, conversationId?: number) =>
  (conversationId === undefined
    ? db.prepare('SELECT * FROM messages ORDER BY id').all()
    : db
        .prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY id')
        .all(conversationId)) as StoredMessage[];

export const storedConversations = (db: Db) =>
  db.prepare('SELECT * FROM conversations ORDER BY id').all() as StoredConversation[];

/** Moves an account's creation back in time (limits count an account's age). */
export const ageAccount = (db: Db, accountId: number, hours: number) =>
  db
    .prepare('UPDATE accounts SET created_at = ? WHERE id = ?')
    .run(new Date(Date.now() - hours * 3_600_000).toISOString(), accountId);

/** The visible text of a page, tags removed and white space folded. */
export const pageText = (html: string) =>
  html
    .replace(/<!--.*?-->/g, '')
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
