// Conversations and their messages (tables conversations and messages; docs/product.md section 7):
// what is stored and read. Who may write, the limits and when to mail are server/messages/'s rules,
// which run these reads and writes in one unit of work.
//
// - One conversation per ad and replier (unique index on ad_id, replier_id): `create` answers
//   undefined when the member has one about the ad already.
// - Messages are ordered by id (sent_at can tie), and a long conversation is read a page at a
//   time, newest first (`page`). read_at is set when the recipient opens the thread.
// - A conversation keeps its ad's title; the ad's row as it is now comes with it (absent once the
//   row is gone), and its poster's or replier's id is null once that account is deleted.
import { sql } from 'kysely';
import type { ExpressionBuilder } from 'kysely';
import { isStorableId, MAX_ID } from './ids.ts';
import type { StoreContext } from './store.ts';
import type { MemberAdStatus, Tables } from './tables.ts';

export interface ConversationRow {
  id: number;
  adId: number | null;
  adTitle: string;
  posterId: number | null;
  replierId: number | null;
  startedAt: string;
  lastMessageAt: string;
  /** The ad as it is now (null when its row is gone). */
  adStatus: MemberAdStatus | null;
  adState: string | null;
  adCity: string | null;
  adExpiresOn: string | null;
  /** Kept off the site by reports until a moderator decides (hidden_ads). */
  adHidden: boolean;
}

export interface MessageRow {
  id: number;
  senderId: number;
  body: string;
  sentAt: string;
}

/** One page of a conversation (docs/product.md section 7): up to a page's size of messages. */
export interface ThreadPage {
  /** Oldest first. */
  messages: MessageRow[];
  /** Messages before the page's first, and in the whole conversation. */
  older: number;
  total: number;
  /**
   * The page after this one: the id its `before` names, `newest` when that page is the newest
   * (no `before`), undefined when this page is the newest.
   */
  newer?: number | 'newest';
}

/** A member ad as a reply needs it. */
export interface AdForReply {
  id: number;
  accountId: number;
  state: string;
  city: string;
  age: number;
  seeks: string;
  title: string;
  description: string;
  status: MemberAdStatus;
  postedOn: string | null;
  expiresOn: string | null;
  /** Kept off the site by reports until a moderator decides (hidden_ads). */
  hidden: boolean;
}

/** A side of a conversation, as messaging needs their account (the address is for mail only). */
export interface Correspondent {
  email: string;
  createdAt: string;
  bannedAt: string | null;
}

export interface InboxRow {
  conversationId: number;
  adTitle: string;
  posterId: number | null;
  replierId: number | null;
  lastMessageAt: string;
  /** The other side's messages the member has not opened. */
  unread: number;
  /** The member blocked the other side. */
  youBlocked: boolean;
}

export interface NewConversation {
  adId: number;
  /** The ad's title, kept with the conversation. */
  adTitle: string;
  posterId: number;
  replierId: number;
  at: string;
}

export interface ConversationStore {
  /** The conversation, if the member is one of its two sides. */
  find(id: number, member: number): Promise<ConversationRow | undefined>;
  /** A member ad by id, whatever its status (undefined: no member ad has this id). */
  findAd(adId: number): Promise<AdForReply | undefined>;
  /** The account of a side of a conversation; undefined once it is deleted. */
  correspondent(accountId: number): Promise<Correspondent | undefined>;
  /** The member's conversation about this ad, as its replier. */
  existingFor(adId: number, replierId: number): Promise<number | undefined>;
  /** A new conversation (without messages yet); undefined when the replier has one about the ad. */
  create(conversation: NewConversation): Promise<number | undefined>;
  /** Stores a message and makes it the conversation's latest activity; its id. */
  addMessage(conversationId: number, senderId: number, body: string, at: string): Promise<number>;
  /** Whether the sender has a message in the conversation its recipient has not opened. */
  hasUnreadFrom(conversationId: number, senderId: number): Promise<boolean>;
  /**
   * When the member started their newest `count` conversations (as the replier) after `since`,
   * newest first.
   */
  recentStarts(replierId: number, since: string, count: number): Promise<string[]>;
  /** When the member sent their newest `count` messages after `since`, newest first. */
  recentMessages(senderId: number, since: string, count: number): Promise<string[]>;
  /** The conversation's messages, oldest first. */
  messages(conversationId: number): Promise<MessageRow[]>;
  /**
   * A page of the conversation: the newest `size` messages before message id `before` (the
   * newest of all without it), oldest first, with counts and links that agree with the messages
   * shown while new ones arrive.
   */
  page(conversationId: number, size: number, before?: number): Promise<ThreadPage>;
  /**
   * Marks the other side's messages read, up to the newest the member was shown (one that came
   * meanwhile stays unread); how many were unread.
   */
  markRead(conversationId: number, member: number, at: string, upTo: number): Promise<number>;
  /** The member's conversations that have messages, newest activity first. */
  inbox(member: number, limit: number): Promise<InboxRow[]>;
  inboxCount(member: number): Promise<number>;
  /** Messages sent to the member and not yet opened, in all their conversations. */
  unreadTotal(member: number): Promise<number>;
}

type Eb = ExpressionBuilder<Tables & { c: Tables['conversations'] }, 'c'>;
const count = sql<number>`cast(count(*) as integer)`;

export function conversationStore({ db }: StoreContext): ConversationStore {
  /**
   * The member's conversations: either side, and with messages (one whose only writer deleted
   * their account has none left, and is not listed).
   */
  const mine = (eb: Eb, member: number) =>
    eb.and([
      eb.or([eb('c.poster_id', '=', member), eb('c.replier_id', '=', member)]),
      eb.exists(
        eb.selectFrom('messages as m').select('m.id').whereRef('m.conversation_id', '=', 'c.id'),
      ),
    ]);

  /** Messages of the conversation before message id `before` (all of them without it). */
  const countBefore = async (conversationId: number, before?: number) =>
    (
      await db
        .selectFrom('messages')
        .select(count.as('n'))
        .where('conversation_id', '=', conversationId)
        .$if(before !== undefined, (query) => query.where('id', '<', before!))
        .executeTakeFirstOrThrow()
    ).n;

  return {
    async find(id, member) {
      if (!isStorableId(id)) return undefined;
      const row = await db
        .selectFrom('conversations as c')
        .leftJoin('member_ads as a', 'a.id', 'c.ad_id')
        .leftJoin('hidden_ads as h', (join) =>
          join.onRef('h.ad_id', '=', 'c.ad_id').on('h.kind', '=', 'member'),
        )
        .select([
          'c.id',
          'c.ad_id as adId',
          'c.ad_title as adTitle',
          'c.poster_id as posterId',
          'c.replier_id as replierId',
          'c.started_at as startedAt',
          'c.last_message_at as lastMessageAt',
          'a.status as adStatus',
          'a.state as adState',
          'a.city as adCity',
          'a.expires_on as adExpiresOn',
          'h.ad_id as hiddenId',
        ])
        .where('c.id', '=', id)
        .where((eb) => eb.or([eb('c.poster_id', '=', member), eb('c.replier_id', '=', member)]))
        .executeTakeFirst();
      if (!row) return undefined;
      const { hiddenId, ...conversation } = row;
      return { ...conversation, adHidden: hiddenId !== null };
    },

    async findAd(adId) {
      if (!isStorableId(adId)) return undefined;
      const row = await db
        .selectFrom('member_ads as a')
        .leftJoin('hidden_ads as h', (join) =>
          join.onRef('h.ad_id', '=', 'a.id').on('h.kind', '=', 'member'),
        )
        .select([
          'a.id',
          'a.account_id as accountId',
          'a.state',
          'a.city',
          'a.age',
          'a.seeks',
          'a.title',
          'a.description',
          'a.status',
          'a.posted_on as postedOn',
          'a.expires_on as expiresOn',
          'h.ad_id as hiddenId',
        ])
        .where('a.id', '=', adId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { hiddenId, ...ad } = row;
      return { ...ad, hidden: hiddenId !== null };
    },

    async correspondent(accountId) {
      return db
        .selectFrom('accounts')
        .select(['email', 'created_at as createdAt', 'banned_at as bannedAt'])
        .where('id', '=', accountId)
        .executeTakeFirst();
    },

    async existingFor(adId, replierId) {
      if (!isStorableId(adId)) return undefined;
      const row = await db
        .selectFrom('conversations')
        .select('id')
        .where('ad_id', '=', adId)
        .where('replier_id', '=', replierId)
        .executeTakeFirst();
      return row?.id;
    },

    async create({ adId, adTitle, posterId, replierId, at }) {
      const row = await db
        .insertInto('conversations')
        .values({
          ad_id: adId,
          ad_title: adTitle,
          poster_id: posterId,
          replier_id: replierId,
          started_at: at,
          last_message_at: at,
        })
        .onConflict((oc) => oc.columns(['ad_id', 'replier_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    async addMessage(conversationId, senderId, body, at) {
      const { id } = await db
        .insertInto('messages')
        .values({ conversation_id: conversationId, sender_id: senderId, body, sent_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .updateTable('conversations')
        .set({ last_message_at: at })
        .where('id', '=', conversationId)
        .execute();
      return id;
    },

    async hasUnreadFrom(conversationId, senderId) {
      const row = await db
        .selectFrom('messages')
        .select('id')
        .where('conversation_id', '=', conversationId)
        .where('sender_id', '=', senderId)
        .where('read_at', 'is', null)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async recentStarts(replierId, since, limit) {
      const rows = await db
        .selectFrom('conversations')
        .select('started_at as at')
        .where('replier_id', '=', replierId)
        .where('started_at', '>', since)
        .orderBy('started_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => row.at);
    },

    async recentMessages(senderId, since, limit) {
      const rows = await db
        .selectFrom('messages')
        .select('sent_at as at')
        .where('sender_id', '=', senderId)
        .where('sent_at', '>', since)
        .orderBy('sent_at', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => row.at);
    },

    async messages(conversationId) {
      return db
        .selectFrom('messages')
        .select(['id', 'sender_id as senderId', 'body', 'sent_at as sentAt'])
        .where('conversation_id', '=', conversationId)
        .orderBy('id')
        .execute();
    },

    async page(conversationId, size, before) {
      // The page and the conversation's total in one statement, so they agree (one snapshot on
      // either engine, with no transaction to hold); the other counts are of messages before a
      // given id, which new messages do not change. Walked backwards on the index
      // messages_by_conversation (conversation_id, id).
      const rows = await db
        .selectFrom('messages')
        .select(['id', 'sender_id as senderId', 'body', 'sent_at as sentAt'])
        .select((eb) =>
          eb
            .selectFrom('messages as all')
            .select(count.as('n'))
            .where('all.conversation_id', '=', conversationId)
            .as('total'),
        )
        .where('conversation_id', '=', conversationId)
        .$if(before !== undefined && before <= MAX_ID, (query) => query.where('id', '<', before!))
        .orderBy('id', 'desc')
        .limit(size)
        .execute();
      const messages = rows.reverse().map(({ total: _total, ...message }) => message);
      const first = messages[0];
      const last = messages.at(-1);
      if (!first || !last)
        return {
          messages,
          older: 0,
          total: await countBefore(conversationId),
        };
      const total = Number(rows[0]!.total);
      const older = await countBefore(conversationId, first.id);
      if (older + messages.length >= total) return { messages, older, total };
      // The message after the next page, if there is one: that page is "before" it.
      const after = await db
        .selectFrom('messages')
        .select('id')
        .where('conversation_id', '=', conversationId)
        .where('id', '>', last.id)
        .orderBy('id')
        .limit(1)
        .offset(size)
        .executeTakeFirst();
      return { messages, older, total, newer: after ? after.id : 'newest' };
    },

    async markRead(conversationId, member, at, upTo) {
      const result = await db
        .updateTable('messages')
        .set({ read_at: at })
        .where('conversation_id', '=', conversationId)
        .where('sender_id', '!=', member)
        .where('read_at', 'is', null)
        .where('id', '<=', upTo)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async inbox(member, limit) {
      const rows = await db
        .selectFrom('conversations as c')
        .select([
          'c.id as conversationId',
          'c.ad_title as adTitle',
          'c.poster_id as posterId',
          'c.replier_id as replierId',
          'c.last_message_at as lastMessageAt',
        ])
        .select((eb) => [
          eb
            .selectFrom('messages as m')
            .select(count.as('n'))
            .whereRef('m.conversation_id', '=', 'c.id')
            .where('m.sender_id', '!=', member)
            .where('m.read_at', 'is', null)
            .as('unread'),
          eb
            .selectFrom('blocks as b')
            .select(count.as('n'))
            .where('b.blocker_id', '=', member)
            .where((inner) =>
              inner(
                'b.blocked_id',
                '=',
                inner
                  .case()
                  .when('c.poster_id', '=', member)
                  .then(inner.ref('c.replier_id'))
                  .else(inner.ref('c.poster_id'))
                  .end(),
              ),
            )
            .as('blocks'),
        ])
        .where((eb) => mine(eb, member))
        .orderBy('c.last_message_at', 'desc')
        .orderBy('c.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(({ unread, blocks, ...row }) => ({
        ...row,
        unread: Number(unread),
        youBlocked: Number(blocks) > 0,
      }));
    },

    async inboxCount(member) {
      const row = await db
        .selectFrom('conversations as c')
        .select(count.as('n'))
        .where((eb) => mine(eb, member))
        .executeTakeFirstOrThrow();
      return row.n;
    },

    async unreadTotal(member) {
      const row = await db
        .selectFrom('messages as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .select(count.as('n'))
        .where((eb) => eb.or([eb('c.poster_id', '=', member), eb('c.replier_id', '=', member)]))
        .where('m.sender_id', '!=', member)
        .where('m.read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return row.n;
    },
  };
}
