// Message tests: live member ads inserted for a given member (as approval leaves them), starting
// conversations and replying as a browser without JavaScript would (or JSON), and the rows read
// back from the store, on either engine (t.sql).
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
export async function insertLiveAd(
  t: Pick<TestApp, 'sql'>,
  member: Pick<TestMember, 'accountId'>,
  title = 'Coffee and a long walk by the sea',
  columns: { state?: string; city?: string; status?: string; expiresOn?: string } = {},
): Promise<number> {
  const now = new Date().toISOString();
  const row = await t.sql.get<{ id: number }>(
    `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description, status,
       created_at, submitted_at, approved_at, posted_on, expires_on, updated_at)
     VALUES (?, ?, ?, 34, 'w4m', ?, 'Old films, early mornings and a good bookshop.', ?,
       ?, ?, ?, ?, ?, ?)
     RETURNING id`,
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
  );
  return row!.id;
}

/**
 * Sets columns of a member ad directly, as a moderator's removal, the poster's deletion or the
 * passing of time would (those are other routes'; here only their outcome matters).
 */
export async function updateAd(
  t: TestApp,
  id: number,
  columns: Record<string, string | number | null>,
): Promise<void> {
  const names = Object.keys(columns);
  await t.sql.run(
    `UPDATE member_ads SET ${names.map((name) => `${name} = ?`).join(', ')} WHERE id = ?`,
    ...Object.values(columns),
    id,
  );
}

/**
 * An account inserted directly (quicker than signing up, when a test needs many), verified, with
 * no session; its id, the next above every id used (deleted accounts' too), as sign-up takes it.
 */
export async function insertAccount(t: TestApp, createdAt = new Date().toISOString()) {
  const email = `other-${Date.now()}-${Math.random()}@example.com`;
  await t.sql.run(
    `INSERT INTO accounts (id, email, password_hash, date_of_birth, terms_accepted_at, created_at,
       email_verified_at)
     SELECT COALESCE(MAX(id), 0) + 1, ?, 'not a hash', '1990-01-01', ?, ?, ?
     FROM (SELECT id FROM accounts UNION ALL SELECT id FROM deleted_accounts) AS used`,
    email,
    createdAt,
    createdAt,
    createdAt,
  );
  return (await t.sql.get<{ id: number }>('SELECT id FROM accounts WHERE email = ?', email))!.id;
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** A conversation about a member ad between its poster and a replier, inserted directly; its id. */
export async function insertConversation(
  t: Pick<TestApp, 'sql'>,
  thread: { adId: number; adTitle: string; posterId: number; replierId: number },
): Promise<number> {
  const row = await t.sql.get<{ id: number }>(
    `INSERT INTO conversations (ad_id, ad_title, poster_id, replier_id, started_at,
       last_message_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    thread.adId,
    thread.adTitle,
    thread.posterId,
    thread.replierId,
    minutesAgo(60),
    minutesAgo(1),
  );
  return row!.id;
}

/** A message in a conversation, `sentMinutesAgo` before now, inserted directly; its id. */
export async function insertMessage(
  t: Pick<TestApp, 'sql'>,
  conversationId: number,
  senderId: number,
  body: string,
  sentMinutesAgo = 30,
): Promise<number> {
  const row = await t.sql.get<{ id: number }>(
    'INSERT INTO messages (conversation_id, sender_id, body, sent_at) VALUES (?, ?, ?, ?) RETURNING id',
    conversationId,
    senderId,
    body,
    minutesAgo(sentMinutesAgo),
  );
  return row!.id;
}

const GREETING_WORDS = ['alder', 'birch', 'cedar', 'daisy', 'elm', 'fern', 'gorse', 'hazel'];

/**
 * A first message of its own for each `n` (in words, not digits: the same first message to more
 * than 3 members in a day is refused, and digits might not tell two apart).
 */
export const greeting = (n: number) =>
  `Hello there, I liked your ad ${GREETING_WORDS[n % 8]} ${GREETING_WORDS[Math.floor(n / 8) % 8]} ${GREETING_WORDS[Math.floor(n / 64) % 8]}`;

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

export const storedMessages = (t: TestApp, conversationId?: number) =>
  conversationId === undefined
    ? t.sql.all<StoredMessage>('SELECT * FROM messages ORDER BY id')
    : t.sql.all<StoredMessage>(
        'SELECT * FROM messages WHERE conversation_id = ? ORDER BY id',
        conversationId,
      );

export const storedConversations = (t: TestApp) =>
  t.sql.all<StoredConversation>('SELECT * FROM conversations ORDER BY id');

/** Moves an account's creation back in time (limits count an account's age). */
export const ageAccount = (t: TestApp, accountId: number, hours: number) =>
  t.sql.run(
    'UPDATE accounts SET created_at = ? WHERE id = ?',
    new Date(Date.now() - hours * 3_600_000).toISOString(),
    accountId,
  );

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
