// Conversations and their messages (tables conversations and messages; docs/product.md section 7):
// what is stored and read. Who may write, the limits and when to mail are server/messages/'s rules,
// which run these reads and writes in one unit of work. This file holds the conversations
// themselves and makes the one part of the store; the messages are read and written in
// conversation-messages.ts, the inbox in conversation-inbox.ts.
//
// - One conversation per ad and replier (unique index on ad_id, replier_id): `create` answers
//   undefined when the member has one about the ad already.
// - A conversation keeps its ad's title; the ad's row as it is now comes with it (absent once the
//   row is gone), and its poster's or replier's id is null once that account is deleted.
import { isStorableId } from '../ids.ts';
import { timesSince } from './recent-times.ts';
import {
  conversationMessageStore,
  type ConversationMessageStore,
} from './conversation-messages.ts';
import { inboxStore, type InboxStore } from './conversation-inbox.ts';
import type { StoreContext } from '../store-context.ts';
import type { MemberAdText } from './ad-text.ts';
import type { MemberAdRow } from './member-ads.ts';
import type { MemberAdStatus } from '../tables.ts';
import { stampOnce } from './stamp-once.ts';

export type { MessageRow, ThreadPage } from './conversation-messages.ts';
export type { InboxRow } from './conversation-inbox.ts';

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
  /** When it went to the poster's Filtered folder (a hidden word); null: not there. */
  filteredAt: string | null;
  /** When the poster first wrote in it: in their Chats since (null: their Requests or Filtered). */
  answeredAt: string | null;
}

/** A member ad as a reply needs it (read with `memberAds.find`). */
export type AdForReply = Pick<
  MemberAdRow,
  keyof MemberAdText | 'accountId' | 'status' | 'postedOn' | 'expiresOn' | 'hidden'
>;

/** A side of a conversation, as messaging needs their account (the address is for mail only). */
export interface Correspondent {
  email: string;
  createdAt: string;
  bannedAt: string | null;
  /** YYYY-MM-DD, as they signed up with it: a member's age range is checked against it. */
  dateOfBirth: string;
}

export interface NewConversation {
  adId: number;
  /** The ad's title, kept with the conversation. */
  adTitle: string;
  posterId: number;
  replierId: number;
  at: string;
  /** Its first message had a hidden word of the poster's: it goes to their Filtered folder. */
  filtered?: boolean;
}

export interface ConversationStore extends ConversationMessageStore, InboxStore {
  /** The conversation, if the member is one of its two sides. */
  find(id: number, member: number): Promise<ConversationRow | undefined>;
  /** The account of a side of a conversation; undefined once it is deleted. */
  correspondent(accountId: number): Promise<Correspondent | undefined>;
  /** The member's conversation about this ad, as its replier. */
  existingFor(adId: number, replierId: number): Promise<number | undefined>;
  /** A new conversation (without messages yet); undefined when the replier has one about the ad. */
  create(conversation: NewConversation): Promise<number | undefined>;
  /** Into the poster's Filtered folder (from `at`), out of their Requests. */
  filter(id: number, at: string): Promise<void>;
  /** Out of the poster's Filtered folder (their answer moves it to their Chats: addMessage). */
  unfilter(id: number): Promise<void>;
  /**
   * When the member started their newest `count` conversations (as the replier) after `since`,
   * newest first.
   */
  recentStarts(replierId: number, since: string, count: number): Promise<string[]>;
}

export function conversationStore(context: StoreContext): ConversationStore {
  const { db } = context;
  return {
    ...conversationMessageStore(context),
    ...inboxStore(context),

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
          'c.filtered_at as filteredAt',
          'c.answered_at as answeredAt',
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

    async correspondent(accountId) {
      return db
        .selectFrom('accounts')
        .select([
          'email',
          'created_at as createdAt',
          'banned_at as bannedAt',
          'date_of_birth as dateOfBirth',
        ])
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

    async create({ adId, adTitle, posterId, replierId, at, filtered }) {
      const row = await db
        .insertInto('conversations')
        .values({
          ad_id: adId,
          ad_title: adTitle,
          poster_id: posterId,
          replier_id: replierId,
          started_at: at,
          last_message_at: at,
          filtered_at: filtered ? at : null,
        })
        .onConflict((oc) => oc.columns(['ad_id', 'replier_id']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    async filter(id, at) {
      await stampOnce(db.updateTable('conversations'), 'filtered_at', id, at).execute();
    },

    async unfilter(id) {
      await db
        .updateTable('conversations')
        .set({ filtered_at: null })
        .where('id', '=', id)
        .execute();
    },

    recentStarts: timesSince(
      (id) => db.selectFrom('conversations').where('replier_id', '=', id),
      'started_at',
    ),
  };
}
