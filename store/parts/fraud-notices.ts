// Fraud notices (table fraud_notices; docs/product.md section 7): which members answered
// an account that moderators banned (or whose live ad they removed) for scam or fraud, and whether
// each member's one mail went. Who counts, the texts and when to mail are
// server/moderation/fraud-notices.ts's; this stores and reads.
//
// A member "answered" the account in a conversation when they wrote in it after the account's
// first message there: the same test, in SQL, decides who gets a notice, on which conversations it
// shows, and what the mail lists.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { StoreContext } from '../store-context.ts';
import type { FraudNoticesTable } from '../tables.ts';
import { rowsChanged } from './row-count.ts';

export type FraudNoticeAction = FraudNoticesTable['action'];

/** A conversation in which a member answered the account: what a notice and its mail name. */
export interface AnsweredConversation {
  conversationId: number;
  adTitle: string;
  memberId: number;
  memberEmail: string;
  /** The member is the poster of the conversation's ad (the account replied to it). */
  memberIsPoster: boolean;
}

/** A notice as a conversation's page and the inbox show it. */
export interface NoticedConversation {
  conversationId: number;
  action: FraudNoticeAction;
}

/** A notice whose mail was just claimed. */
export interface ClaimedNotice {
  bannedAccountId: number;
  memberId: number;
  action: FraudNoticeAction;
}

export interface FraudNoticeStore {
  /**
   * The conversations in which a member answered `accountId`, of members neither deleted nor
   * banned, by member and conversation.
   */
  answeredConversations(accountId: number): Promise<AnsweredConversation[]>;
  /**
   * A notice for each member about `accountId`, once: a member who has one keeps it (an
   * 'ad-removed' one becomes 'banned' when `action` is; its mail is not sent again). How many were
   * new.
   */
  record(
    accountId: number,
    memberIds: readonly number[],
    action: FraudNoticeAction,
    at: string,
  ): Promise<number>;
  /**
   * Claims up to `limit` notices not mailed (of `accountId` only, when given), marking them mailed
   * `at`: one statement, so of several callers at once, on any instance, each notice goes to one.
   */
  claimUnmailed(at: string, limit: number, accountId?: number): Promise<ClaimedNotice[]>;
  /** Gives back the claim made `at` (its mail failed): unmailed again. */
  release(accountId: number, memberId: number, at: string): Promise<boolean>;
  /** The member's conversations that show a notice (only `conversationId`'s, when given). */
  noticedConversations(memberId: number, conversationId?: number): Promise<NoticedConversation[]>;
}

/** Notices written at a time (5 values each: well under either engine's limit of parameters). */
const BATCH = 500;

/**
 * In conversation `c`, the side other than `account` wrote after `account`'s first message there.
 * `account`: an id, or the column holding one.
 */
const answered = (account: number | RawBuilder<number>) =>
  sql<SqlBool>`EXISTS (SELECT 1 FROM messages reply WHERE reply.conversation_id = c.id
    AND reply.sender_id <> ${account}
    AND reply.id > (SELECT MIN(earliest.id) FROM messages earliest
      WHERE earliest.conversation_id = c.id AND earliest.sender_id = ${account}))`;

export function fraudNoticeStore({ db }: StoreContext): FraudNoticeStore {
  return {
    async answeredConversations(accountId) {
      const rows = await db
        .selectFrom('conversations as c')
        .innerJoin('accounts as member', (join) =>
          join.on((eb) =>
            eb.or([
              eb.and([
                eb('c.poster_id', '=', accountId),
                eb('member.id', '=', eb.ref('c.replier_id')),
              ]),
              eb.and([
                eb('c.replier_id', '=', accountId),
                eb('member.id', '=', eb.ref('c.poster_id')),
              ]),
            ]),
          ),
        )
        .select([
          'c.id as conversationId',
          'c.ad_title as adTitle',
          'c.poster_id as posterId',
          'member.id as memberId',
          'member.email as memberEmail',
        ])
        .where('member.banned_at', 'is', null)
        .where(answered(accountId))
        .orderBy('member.id')
        .orderBy('c.id')
        .execute();
      return rows.map(({ posterId, ...row }) => ({
        ...row,
        memberIsPoster: posterId === row.memberId,
      }));
    },

    async record(accountId, memberIds, action, at) {
      let added = 0;
      for (let start = 0; start < memberIds.length; start += BATCH) {
        const rows = memberIds.slice(start, start + BATCH).map((memberId) => ({
          banned_account_id: accountId,
          member_id: memberId,
          action,
          created_at: at,
          mailed_at: null,
        }));
        const inserted = await db
          .insertInto('fraud_notices')
          .values(rows)
          .onConflict((oc) => oc.columns(['banned_account_id', 'member_id']).doNothing())
          .returning('member_id')
          .execute();
        added += inserted.length;
      }
      // Told of a removal first: the notice now says the account is banned (no second mail).
      if (action === 'banned')
        await db
          .updateTable('fraud_notices')
          .set({ action: 'banned' })
          .where('banned_account_id', '=', accountId)
          .where('action', '=', 'ad-removed')
          .execute();
      return added;
    },

    async claimUnmailed(at, limit, accountId) {
      return db
        .updateTable('fraud_notices')
        .set({ mailed_at: at })
        .where('mailed_at', 'is', null)
        .where((eb) =>
          eb(
            eb.refTuple('banned_account_id', 'member_id'),
            'in',
            eb
              .selectFrom('fraud_notices as due')
              .select(['due.banned_account_id', 'due.member_id'])
              .where('due.mailed_at', 'is', null)
              .$if(accountId !== undefined, (query) =>
                query.where('due.banned_account_id', '=', accountId!),
              )
              .limit(limit)
              .$asTuple('banned_account_id', 'member_id'),
          ),
        )
        .returning(['banned_account_id as bannedAccountId', 'member_id as memberId', 'action'])
        .execute();
    },

    async release(accountId, memberId, at) {
      return (
        (await rowsChanged(
          db
            .updateTable('fraud_notices')
            .set({ mailed_at: null })
            .where('banned_account_id', '=', accountId)
            .where('member_id', '=', memberId)
            .where('mailed_at', '=', at),
        )) > 0
      );
    },

    async noticedConversations(memberId, conversationId) {
      return db
        .selectFrom('fraud_notices as f')
        .innerJoin('conversations as c', (join) =>
          join.on((eb) =>
            eb.or([
              eb.and([
                eb('c.poster_id', '=', eb.ref('f.banned_account_id')),
                eb('c.replier_id', '=', memberId),
              ]),
              eb.and([
                eb('c.replier_id', '=', eb.ref('f.banned_account_id')),
                eb('c.poster_id', '=', memberId),
              ]),
            ]),
          ),
        )
        .select(['c.id as conversationId', 'f.action as action'])
        .where('f.member_id', '=', memberId)
        .$if(conversationId !== undefined, (query) => query.where('c.id', '=', conversationId!))
        .where(answered(sql.ref<number>('f.banned_account_id')))
        .orderBy('c.id')
        .execute();
    },
  };
}
