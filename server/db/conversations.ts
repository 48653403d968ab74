// Conversations and their messages (migration 5; docs/product.md section 7): all SQL about them.
//
// - Starting one is the conversation's row and its first message in one IMMEDIATE transaction,
//   with everything that may refuse it checked inside: the ad is a live member ad, not the
//   writer's own; no block either way; the writer's daily limit (accounts younger than 24 hours
//   start at most 5 conversations in 24 hours, anyone at most 30, counted as the conversations
//   they started as the replier in the last 24 hours). A member has one conversation per ad
//   (unique index on ad_id, replier_id): a start that finds one already there, two racing starts
//   say, adds its message to it instead.
// - Who may write in a conversation: only its two members; to anyone else it does not exist.
//   It goes on after its ad expires, or after the poster deletes the ad: the two have met, and
//   the thread is theirs. It closes when a moderator removed the ad (it broke the rules, and the
//   thread is about it), when either side blocked the other, or when the other side's account
//   is gone (deleted: their id is NULL) or banned.
// - Messages are ordered by id (sent_at can tie), and a long conversation is read a page at a
//   time, newest first (`page`). read_at is set when the recipient opens the thread. The recipient is mailed for a message only when it is the first one they have not
//   read in that conversation: one mail says there is something to read, a burst of messages
//   does not become a burst of mails, and once they have read the thread the next message mails
//   again. The decision is made inside the message's transaction, so of many racing messages
//   exactly one mails.
import {
  CONVERSATION_WINDOW_HOURS,
  MAX_CONVERSATIONS,
  NEW_ACCOUNT_CONVERSATIONS,
  NEW_ACCOUNT_HOURS,
} from '../../src/schemas/message.ts';
import { blockStore } from './blocks.ts';
import type { Db } from './database.ts';

const HOUR_MS = 60 * 60 * 1000;

export interface ConversationRow {
  id: number;
  adId: number | null;
  adTitle: string;
  posterId: number | null;
  replierId: number | null;
  startedAt: string;
  lastMessageAt: string;
  /** The ad as it is now (absent when its row is gone). */
  adStatus: string | null;
  adState: string | null;
  adCity: string | null;
  adExpiresOn: string | null;
  adHidden: number;
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
  status: 'review' | 'live' | 'rejected' | 'removed' | 'deleted';
  postedOn: string | null;
  expiresOn: string | null;
  /** Kept off the site by reports until a moderator decides (hidden_ads). */
  hidden: number;
}

/** Whether a member ad takes new conversations today, and if not, why. */
export type AdAvailability =
  'live' | 'review' | 'rejected' | 'removed' | 'deleted' | 'expired' | 'hidden';

export function adAvailability(ad: AdForReply, today: string): AdAvailability {
  if (ad.status !== 'live') return ad.status;
  if (!ad.expiresOn || ad.expiresOn <= today) return 'expired';
  return ad.hidden ? 'hidden' : 'live';
}

/** Why nobody can write in a conversation any more, seen by one of its members. */
export type ClosedReason =
  'you-blocked' | 'blocked-you' | 'other-deleted' | 'other-banned' | 'ad-removed';

/** Whom to tell about a new message (the address never leaves the server). */
export interface Notification {
  to: string;
  conversationId: number;
  adTitle: string;
  /** The recipient's side: the ad's poster, or the member who replied. */
  recipient: 'poster' | 'replier';
}

export type WriteRefused = ClosedReason | 'not-found';

export type ReplyOutcome =
  { ok: true; messageId: number; notify?: Notification } | { ok: false; refused: WriteRefused };

export type StartOutcome =
  | { ok: true; conversationId: number; created: boolean; notify?: Notification }
  | { ok: false; refused: 'ad-not-found' | 'own-ad' | WriteRefused }
  | { ok: false; refused: 'ad-unavailable'; availability: Exclude<AdAvailability, 'live'> }
  | { ok: false; refused: 'limit'; limit: number; newAccount: boolean; nextAt: string };

export interface InboxRow {
  conversationId: number;
  adTitle: string;
  posterId: number | null;
  replierId: number | null;
  lastMessageAt: string;
  unread: number;
  youBlocked: number;
}

const CONVERSATION = `SELECT c.id, c.ad_id AS adId, c.ad_title AS adTitle, c.poster_id AS posterId,
    c.replier_id AS replierId, c.started_at AS startedAt, c.last_message_at AS lastMessageAt,
    a.status AS adStatus, a.state AS adState, a.city AS adCity, a.expires_on AS adExpiresOn,
    EXISTS (SELECT 1 FROM hidden_ads h WHERE h.ad_id = c.ad_id AND h.kind = 'member') AS adHidden
  FROM conversations c LEFT JOIN member_ads a ON a.id = c.ad_id`;

export function conversationStore(db: Db) {
  const blocks = blockStore(db);
  const ofMember = db.prepare(
    `${CONVERSATION} WHERE c.id = @id AND (c.poster_id = @member OR c.replier_id = @member)`,
  );
  const existing = db.prepare('SELECT id FROM conversations WHERE ad_id = ? AND replier_id = ?');
  const adById = db.prepare(
    `SELECT id, account_id AS accountId, state, city, age, seeks, title, description, status,
       posted_on AS postedOn, expires_on AS expiresOn,
       EXISTS (SELECT 1 FROM hidden_ads h WHERE h.ad_id = member_ads.id AND h.kind = 'member')
         AS hidden
     FROM member_ads WHERE id = ?`,
  );
  const account = db.prepare(
    'SELECT email, banned_at AS bannedAt, created_at AS createdAt FROM accounts WHERE id = ?',
  );
  const startedSince = db.prepare(
    'SELECT COUNT(*) AS n FROM conversations WHERE replier_id = ? AND started_at > ?',
  );
  const nthStartedSince = db.prepare(
    `SELECT started_at AS startedAt FROM conversations WHERE replier_id = ? AND started_at > ?
     ORDER BY started_at LIMIT 1 OFFSET ?`,
  );
  const insertConversation = db.prepare(
    `INSERT INTO conversations (ad_id, ad_title, poster_id, replier_id, started_at, last_message_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const insertMessage = db.prepare(
    'INSERT INTO messages (conversation_id, sender_id, body, sent_at) VALUES (?, ?, ?, ?)',
  );
  const touch = db.prepare('UPDATE conversations SET last_message_at = ? WHERE id = ?');
  const hasUnreadFrom = db.prepare(
    `SELECT EXISTS (SELECT 1 FROM messages
       WHERE conversation_id = ? AND sender_id = ? AND read_at IS NULL) AS yes`,
  );
  const thread = db.prepare(
    `SELECT id, sender_id AS senderId, body, sent_at AS sentAt FROM messages
     WHERE conversation_id = ? ORDER BY id`,
  );
  // A page: the newest `size` messages before a message id, walked backwards on the index
  // messages_by_conversation (conversation_id, id); and what lies on either side of it.
  const pageBefore = db.prepare(
    `SELECT id, sender_id AS senderId, body, sent_at AS sentAt FROM messages
     WHERE conversation_id = @conversation AND id < @before ORDER BY id DESC LIMIT @size`,
  );
  const countBefore = db.prepare(
    'SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ? AND id < ?',
  );
  const nthAfter = db.prepare(
    `SELECT id FROM messages WHERE conversation_id = ? AND id > ? ORDER BY id LIMIT 1 OFFSET ?`,
  );
  const markRead = db.prepare(
    `UPDATE messages SET read_at = ?
     WHERE conversation_id = ? AND sender_id != ? AND read_at IS NULL AND id <= ?`,
  );
  // Conversations without a message left (the only writer deleted their account) are not listed.
  const MINE = `(c.poster_id = @member OR c.replier_id = @member)
    AND EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = c.id)`;
  const inbox = db.prepare(
    `SELECT c.id AS conversationId, c.ad_title AS adTitle, c.poster_id AS posterId,
       c.replier_id AS replierId, c.last_message_at AS lastMessageAt,
       (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id
          AND m.sender_id != @member AND m.read_at IS NULL) AS unread,
       EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = @member AND b.blocked_id =
          CASE WHEN c.poster_id = @member THEN c.replier_id ELSE c.poster_id END) AS youBlocked
     FROM conversations c WHERE ${MINE}
     ORDER BY c.last_message_at DESC, c.id DESC LIMIT @limit`,
  );
  const inboxCount = db.prepare(`SELECT COUNT(*) AS n FROM conversations c WHERE ${MINE}`);
  const unreadTotal = db.prepare(
    `SELECT COUNT(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
     WHERE (c.poster_id = @member OR c.replier_id = @member)
       AND m.sender_id != @member AND m.read_at IS NULL`,
  );

  const accountOf = (id: number) =>
    account.get(id) as { email: string; bannedAt: string | null; createdAt: string } | undefined;
  const find = (id: number, member: number) =>
    ofMember.get({ id, member }) as ConversationRow | undefined;
  const otherOf = (conversation: ConversationRow, member: number) =>
    conversation.posterId === member ? conversation.replierId : conversation.posterId;

  /** Why the member can no longer write in the conversation, if they cannot. */
  function closedReason(conversation: ConversationRow, member: number): ClosedReason | undefined {
    const other = otherOf(conversation, member);
    if (other === null) return 'other-deleted';
    const between = blocks.between(member, other);
    if (between.youBlocked) return 'you-blocked';
    if (between.blockedYou) return 'blocked-you';
    if (accountOf(other)?.bannedAt) return 'other-banned';
    if (conversation.adStatus === 'removed') return 'ad-removed';
    return undefined;
  }

  /** Stores a message in a conversation the member may write in; inside a transaction. */
  function addMessage(
    conversation: ConversationRow,
    sender: number,
    body: string,
    now: string,
  ): ReplyOutcome {
    const closed = closedReason(conversation, sender);
    if (closed) return { ok: false, refused: closed };
    const recipientId = otherOf(conversation, sender)!;
    const firstUnread = !(hasUnreadFrom.get(conversation.id, sender) as { yes: number }).yes;
    const messageId = Number(insertMessage.run(conversation.id, sender, body, now).lastInsertRowid);
    touch.run(now, conversation.id);
    const recipient = accountOf(recipientId);
    const notify: Notification | undefined =
      firstUnread && recipient
        ? {
            to: recipient.email,
            conversationId: conversation.id,
            adTitle: conversation.adTitle,
            recipient: recipientId === conversation.posterId ? 'poster' : 'replier',
          }
        : undefined;
    return { ok: true, messageId, ...(notify ? { notify } : {}) };
  }

  return {
    closedReason,
    /** The conversation, if the member is one of its two sides. */
    find,
    /** A member ad by id, whatever its status (undefined: no member ad has this id). */
    findAd: (id: number) => adById.get(id) as AdForReply | undefined,
    /** The member's conversation about this ad, as its replier. */
    existingFor: (adId: number, replierId: number) =>
      (existing.get(adId, replierId) as { id: number } | undefined)?.id,

    /** Starts a conversation about a member ad (or adds to the one there is). */
    start(adId: number, replierId: number, body: string, now: Date): StartOutcome {
      const nowIso = now.toISOString();
      return db
        .transaction((): StartOutcome => {
          const ad = adById.get(adId) as AdForReply | undefined;
          if (!ad) return { ok: false, refused: 'ad-not-found' };
          if (ad.accountId === replierId) return { ok: false, refused: 'own-ad' };
          const availability = adAvailability(ad, nowIso.slice(0, 10));
          if (availability !== 'live')
            return { ok: false, refused: 'ad-unavailable', availability };
          const between = blocks.between(replierId, ad.accountId);
          if (between.youBlocked) return { ok: false, refused: 'you-blocked' };
          if (between.blockedYou) return { ok: false, refused: 'blocked-you' };
          const found = existing.get(adId, replierId) as { id: number } | undefined;
          if (found) {
            const outcome = addMessage(find(found.id, replierId)!, replierId, body, nowIso);
            return outcome.ok
              ? { ok: true, conversationId: found.id, created: false, notify: outcome.notify }
              : outcome;
          }
          const replier = accountOf(replierId);
          if (!replier || replier.bannedAt) return { ok: false, refused: 'not-found' };
          const limited = limitReached(replier.createdAt, replierId, now);
          if (limited) return limited;
          const conversationId = Number(
            insertConversation.run(adId, ad.title, ad.accountId, replierId, nowIso, nowIso)
              .lastInsertRowid,
          );
          insertMessage.run(conversationId, replierId, body, nowIso);
          const poster = accountOf(ad.accountId)!;
          return {
            ok: true,
            conversationId,
            created: true,
            notify: { to: poster.email, conversationId, adTitle: ad.title, recipient: 'poster' },
          };
        })
        .immediate();
    },

    /** A message in one of the member's conversations. */
    reply(conversationId: number, sender: number, body: string, now: Date): ReplyOutcome {
      return db
        .transaction((): ReplyOutcome => {
          const conversation = find(conversationId, sender);
          if (!conversation) return { ok: false, refused: 'not-found' };
          return addMessage(conversation, sender, body, now.toISOString());
        })
        .immediate();
    },

    /** The conversation's messages, oldest first. */
    messages: (conversationId: number) => thread.all(conversationId) as MessageRow[],

    /**
     * A page of the conversation: the newest `size` messages before message id `before` (the
     * newest of all without it), oldest first, read in one transaction so the counts and the
     * links agree with the messages shown while new ones arrive.
     */
    page(conversationId: number, size: number, before?: number): ThreadPage {
      return db.transaction((): ThreadPage => {
        const messages = (
          pageBefore.all({
            conversation: conversationId,
            before: before ?? Number.MAX_SAFE_INTEGER,
            size,
          }) as MessageRow[]
        ).reverse();
        const total = (countBefore.get(conversationId, Number.MAX_SAFE_INTEGER) as { n: number }).n;
        const first = messages[0];
        const last = messages.at(-1);
        if (!first || !last) return { messages, older: 0, total };
        const older = (countBefore.get(conversationId, first.id) as { n: number }).n;
        if (older + messages.length === total) return { messages, older, total };
        // The message after the next page, if there is one: that page is "before" it.
        const after = nthAfter.get(conversationId, last.id, size) as { id: number } | undefined;
        return { messages, older, total, newer: after ? after.id : 'newest' };
      })();
    },

    /**
     * Marks the other side's messages read, up to the newest the member was shown (one that came
     * meanwhile stays unread); how many were unread.
     */
    markRead: (conversationId: number, member: number, now: Date, upTo: number) =>
      markRead.run(now.toISOString(), conversationId, member, upTo).changes,

    /** The member's conversations, newest activity first. */
    inbox: (member: number, limit: number) => inbox.all({ member, limit }) as InboxRow[],
    inboxCount: (member: number) => (inboxCount.get({ member }) as { n: number }).n,
    /** Messages sent to the member and not yet opened, in all their conversations. */
    unreadTotal: (member: number) => (unreadTotal.get({ member }) as { n: number }).n,
  };

  /** The refusal when the replier has started as many conversations as they may today. */
  function limitReached(
    createdAt: string,
    replierId: number,
    now: Date,
  ): Extract<StartOutcome, { refused: 'limit' }> | undefined {
    const grownUpAt = Date.parse(createdAt) + NEW_ACCOUNT_HOURS * HOUR_MS;
    const newAccount = now.getTime() < grownUpAt;
    const limit = newAccount ? NEW_ACCOUNT_CONVERSATIONS : MAX_CONVERSATIONS;
    const since = new Date(now.getTime() - CONVERSATION_WINDOW_HOURS * HOUR_MS).toISOString();
    const started = (startedSince.get(replierId, since) as { n: number }).n;
    if (started < limit) return undefined;
    // The next one is possible once enough of these leave the window (or the account is no
    // longer new, with the larger limit).
    const { startedAt } = nthStartedSince.get(replierId, since, started - limit) as {
      startedAt: string;
    };
    let next = Date.parse(startedAt) + CONVERSATION_WINDOW_HOURS * HOUR_MS;
    if (newAccount && started < MAX_CONVERSATIONS) next = Math.min(next, grownUpAt);
    return {
      ok: false,
      refused: 'limit',
      limit,
      newAccount,
      nextAt: new Date(next).toISOString(),
    };
  }
}

export type ConversationStore = ReturnType<typeof conversationStore>;
