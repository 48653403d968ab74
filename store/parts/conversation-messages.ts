// The messages of a conversation (table messages; docs/product.md section 7), the store's
// conversations part (conversations.ts) for what is sent and read: messages are ordered by id
// (sent_at can tie), a long conversation is read a page at a time, newest first (`page`), and
// read_at is set when the recipient opens the thread. A message sent while unanswered keeps its
// print (the scam shield counts the same message to many members by it), and a message delivered
// with scam warnings keeps their families (server/messages/scam-shield.ts decides both). The
// poster's first message answers the conversation (answered_at: out of their Requests, into their
// Chats). A deleted account's messages are kept for the other side until kept_until
// (member-data.ts), then deleted (`deleteKeptBefore`).
import { sql } from 'kysely';
import { MAX_ID } from '../ids.ts';
import { rowsChanged, rowCount } from './row-count.ts';
import { timesSince } from './recent-times.ts';
import type { StoreContext } from '../store-context.ts';

export interface MessageRow {
  id: number;
  senderId: number;
  body: string;
  sentAt: string;
  /** The scam families it was delivered with a warning for (none: empty). */
  scamWarnings: string[];
}

/** What the scam shield stores with a message (server/messages/scam-shield.ts). */
export interface MessageScreening {
  /** Scam families its recipient is warned of beside it. */
  scamWarnings?: readonly string[];
  /** The digest of its normalised text, for a message sent while unanswered. */
  print?: string;
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

export interface ConversationMessageStore {
  /**
   * Stores a message and makes it the conversation's latest activity (the poster's first one
   * answers it: answered_at); its id.
   */
  addMessage(
    conversationId: number,
    senderId: number,
    body: string,
    at: string,
    screening?: MessageScreening,
  ): Promise<number>;
  /**
   * Whether the other side has written in the conversation since the sender's first message
   * there (false while the sender has written nothing): the sender's messages are "first" ones
   * until then.
   */
  answered(conversationId: number, senderId: number): Promise<boolean>;
  /** Whether the sender has a message in the conversation its recipient has not opened. */
  hasUnreadFrom(conversationId: number, senderId: number): Promise<boolean>;
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
  /** The sender's newest message in the conversation, and when it was read (null: not yet). */
  lastSentBy(
    conversationId: number,
    senderId: number,
  ): Promise<{ id: number; readAt: string | null } | undefined>;
  /**
   * Until when the other side's messages are kept in the conversation, once that member deleted
   * their account (undefined: none are kept: the account exists, or nothing of theirs is left).
   */
  keptUntil(conversationId: number): Promise<string | undefined>;
  /** Deletes the kept messages of deleted accounts whose time is up (kept_until <= `now`). */
  deleteKeptBefore(now: string): Promise<number>;
}

const MESSAGE_COLUMNS = [
  'id',
  'sender_id as senderId',
  'body',
  'sent_at as sentAt',
  'scam_warnings as scamWarnings',
] as const;

/** A message as read, its warnings parsed. */
const messageOf = <Row extends { scamWarnings: string | null }>(row: Row) => ({
  ...row,
  scamWarnings: row.scamWarnings === null ? [] : (JSON.parse(row.scamWarnings) as string[]),
});

export function conversationMessageStore({ db }: StoreContext): ConversationMessageStore {
  /** Messages of the conversation before message id `before` (all of them without it). */
  const countBefore = async (conversationId: number, before?: number) =>
    (
      await db
        .selectFrom('messages')
        .select(rowCount.as('n'))
        .where('conversation_id', '=', conversationId)
        .$if(before !== undefined, (query) => query.where('id', '<', before!))
        .executeTakeFirstOrThrow()
    ).n;

  return {
    async addMessage(conversationId, senderId, body, at, screening = {}) {
      const warnings = screening.scamWarnings ?? [];
      const { id } = await db
        .insertInto('messages')
        .values({
          conversation_id: conversationId,
          sender_id: senderId,
          body,
          sent_at: at,
          scam_warnings: warnings.length > 0 ? JSON.stringify(warnings) : null,
          print: screening.print ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // answered_at: the poster's first message, in the same statement that reads who the poster is.
      await db
        .updateTable('conversations')
        .set({
          last_message_at: at,
          answered_at: sql<
            string | null
          >`COALESCE(answered_at, CASE WHEN poster_id = ${senderId} THEN ${at} END)`,
        })
        .where('id', '=', conversationId)
        .execute();
      return id;
    },

    async answered(conversationId, senderId) {
      const row = await db
        .selectFrom('messages as answer')
        .select('answer.id')
        .where('answer.conversation_id', '=', conversationId)
        .where('answer.sender_id', '!=', senderId)
        .where('answer.id', '>', (eb) =>
          eb
            .selectFrom('messages as first')
            .select((inner) => inner.fn.min('first.id').as('id'))
            .where('first.conversation_id', '=', conversationId)
            .where('first.sender_id', '=', senderId),
        )
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
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

    recentMessages: timesSince(
      (id) => db.selectFrom('messages').where('sender_id', '=', id),
      'sent_at',
    ),

    async messages(conversationId) {
      const rows = await db
        .selectFrom('messages')
        .select(MESSAGE_COLUMNS)
        .where('conversation_id', '=', conversationId)
        .orderBy('id')
        .execute();
      return rows.map(messageOf);
    },

    async page(conversationId, size, before) {
      // The page and the conversation's total in one statement, so they agree (one snapshot on
      // either engine, with no transaction to hold); the other counts are of messages before a
      // given id, which new messages do not change. Walked backwards on the index
      // messages_by_conversation (conversation_id, id).
      const rows = await db
        .selectFrom('messages')
        .select(MESSAGE_COLUMNS)
        .select((eb) =>
          eb
            .selectFrom('messages as all')
            .select(rowCount.as('n'))
            .where('all.conversation_id', '=', conversationId)
            .as('total'),
        )
        .where('conversation_id', '=', conversationId)
        .$if(before !== undefined && before <= MAX_ID, (query) => query.where('id', '<', before!))
        .orderBy('id', 'desc')
        .limit(size)
        .execute();
      const messages = rows.reverse().map(({ total: _total, ...message }) => messageOf(message));
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
      return rowsChanged(
        db
          .updateTable('messages')
          .set({ read_at: at })
          .where('conversation_id', '=', conversationId)
          .where('sender_id', '!=', member)
          .where('read_at', 'is', null)
          .where('id', '<=', upTo),
      );
    },

    async lastSentBy(conversationId, senderId) {
      return db
        .selectFrom('messages')
        .select(['id', 'read_at as readAt'])
        .where('conversation_id', '=', conversationId)
        .where('sender_id', '=', senderId)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },

    async keptUntil(conversationId) {
      const row = await db
        .selectFrom('messages')
        .select((eb) => eb.fn.min('kept_until').as('until'))
        .where('conversation_id', '=', conversationId)
        .where('kept_until', 'is not', null)
        .executeTakeFirst();
      return row?.until ?? undefined;
    },

    async deleteKeptBefore(now) {
      return rowsChanged(
        db
          .deleteFrom('messages')
          .where('kept_until', 'is not', null)
          .where('kept_until', '<=', now),
      );
    },
  };
}
