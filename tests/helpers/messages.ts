// Message tests: live member ads of a given member posted and approved through the store,
// starting conversations and replying as a browser without JavaScript would (or JSON), and the
// rows read back from the store, on either engine (t.sql).
import { MODERATION_REASONS } from '../../core/schemas/moderation-reasons.ts';
import type { TestApp, TestAppOptions } from './api.ts';
import { dayFromToday, submit, type TestMember } from './posting.ts';
import { testAppOnPublishedFixture } from './published-fixture.ts';
import { accountInStore } from './store-accounts.ts';
import { messagesApiPath, replyApiPath } from '../../core/paths.ts';

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

/**
 * A live member ad of `member`, posted and approved now through the store (on the site since
 * yesterday, 20 days left unless told otherwise); its id.
 */
export async function insertLiveAd(
  { store }: Pick<TestApp, 'store'>,
  member: Pick<TestMember, 'accountId'>,
  title = 'Coffee and a long walk by the sea',
  columns: { state?: string; city?: string; expiresOn?: string } = {},
): Promise<number> {
  const now = new Date().toISOString();
  const id = await store.memberAds.insert(
    member.accountId,
    {
      state: columns.state ?? 'California',
      city: columns.city ?? 'Los Angeles',
      age: 34,
      seeks: 'w4m',
      title,
      description: 'Old films, early mornings and a good bookshop.',
    },
    '[]',
    now,
  );
  const approved = await store.moderation.approveNew(id, 1, now, {
    postedOn: dayFromToday(-1),
    expiresOn: columns.expiresOn ?? dayFromToday(20),
  });
  if (!approved) throw new Error(`Ad ${id} was not approved`);
  return id;
}

/** A moderator's reason, as the moderation actions store it (server/moderation/actions.ts). */
const BREAKS_THE_RULES = { reason: MODERATION_REASONS.spam };

/**
 * An ad leaves the site as its routes take it off, through the store: its poster deletes it, or
 * a moderator removes a live one (or rejects one in review).
 */
export async function takeAdDown(
  { store }: Pick<TestApp, 'store'>,
  id: number,
  by: 'poster' | 'moderator',
): Promise<void> {
  const ad = (await store.memberAds.find(id))!;
  const at = new Date().toISOString();
  const done =
    by === 'poster'
      ? await store.memberAds.markDeleted(id, ad.revision, at)
      : ad.status === 'review'
        ? await store.moderation.rejectNew(id, ad.revision, BREAKS_THE_RULES, at)
        : await store.moderation.removeLive(id, ad.revision, BREAKS_THE_RULES, at);
  if (!done) throw new Error(`Ad ${id} (${ad.status}) was not taken down`);
}

/**
 * An account made through the store (quicker than signing up, when a test needs many), verified,
 * with no session; its id, the next above every id used (deleted accounts' too), as sign-up
 * takes it.
 */
export async function insertAccount(
  { store }: Pick<TestApp, 'store'>,
  createdAt = new Date().toISOString(),
) {
  return accountInStore(store, `other-${Date.now()}-${Math.random()}@example.com`, {
    at: createdAt,
  });
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/**
 * A conversation about a member ad between its poster and a replier, started through the store
 * an hour ago (as the messages route starts it); its id.
 */
export async function insertConversation(
  { store }: Pick<TestApp, 'store'>,
  thread: { adId: number; adTitle: string; posterId: number; replierId: number },
): Promise<number> {
  const id = await store.conversations.create({ ...thread, at: minutesAgo(60) });
  return id!;
}

/**
 * A message in a conversation, `sentMinutesAgo` before now, written through the store (the
 * conversation's latest activity then); its id.
 */
export function insertMessage(
  { store }: Pick<TestApp, 'store'>,
  conversationId: number,
  senderId: number,
  body: string,
  sentMinutesAgo = 30,
): Promise<number> {
  return store.conversations.addMessage(conversationId, senderId, body, minutesAgo(sentMinutesAgo));
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
) => submit(t, messagesApiPath(), { ad: String(adId), body }, member.session, kind);

/** A message in a conversation (POST /api/messages/{id}/reply). */
export const replyIn = (
  t: TestApp,
  member: TestMember,
  conversationId: number,
  body: string,
  kind: 'form' | 'json' = 'form',
) => submit(t, replyApiPath(conversationId), { body }, member.session, kind);

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

export { textOf } from './html-text.ts';
