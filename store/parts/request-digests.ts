// The daily digest of new requests (table request_digests; docs/product.md section 7): first
// messages about a member's ads that they have not answered are mailed once a day in one mail,
// unless they chose to have each mailed at once (message_settings.requests_at_once). A run claims
// each member due in the database before it looks at their requests (one statement: of any number
// of runs at once, on any number of instances, one claims a member), and each claim covers what
// came since the one before. The rules and the mail are server/messages/request-digest.ts's.
import type { ExpressionBuilder } from 'kysely';
import { changedOne, rowCount } from './row-count.ts';
import type { StoreContext } from '../store-context.ts';
import type { Tables } from '../tables.ts';

/** A member whose digest a run claimed. */
export interface ClaimedDigest {
  accountId: number;
  email: string;
  /** When the claim before this one was made (null: never): what came since is new. */
  since: string | null;
}

/** A conversation of the member's Requests with messages new for the digest. */
export interface NewRequest {
  conversationId: number;
  adTitle: string;
  /** Its messages to the member, unread, that came in the digest's window. */
  messages: number;
}

export interface RequestDigestStore {
  /**
   * Claims the next members due a digest, by account id after `afterId`, at most `limit`: verified
   * and not banned, not mailed each request at once, not claimed since `cutoff`, with an unread
   * message in their Requests newer than their last claim (from a member who is neither deleted
   * nor banned). Each is marked claimed `at` by exactly one caller. `lastId`: the last account
   * this batch went through (undefined: there are no more).
   */
  claimDue(
    cutoff: string,
    afterId: number,
    limit: number,
    at: string,
  ): Promise<{ claimed: ClaimedDigest[]; lastId: number | undefined }>;
  /** The member's requests with unread messages that came after `since` (any: null), up to `upTo`. */
  newRequests(accountId: number, since: string | null, upTo: string): Promise<NewRequest[]>;
  /** The digest claimed `at` was mailed. */
  recordMailed(accountId: number, at: string): Promise<void>;
  /**
   * Gives back the claim made `at` (its mail failed): due again, from where it was (`before`, its
   * `since`). Nothing when it was claimed again since.
   */
  release(accountId: number, at: string, before: string | null): Promise<boolean>;
}

/** A request's writer is still a member: neither deleted nor banned (for conversation `c`). */
const writerStays = (eb: ExpressionBuilder<Tables & { c: Tables['conversations'] }, 'c'>) =>
  eb.exists(
    eb
      .selectFrom('accounts as r')
      .select('r.id')
      .whereRef('r.id', '=', 'c.replier_id')
      .where('r.banned_at', 'is', null),
  );

export function requestDigestStore({ db }: StoreContext): RequestDigestStore {
  return {
    async claimDue(cutoff, afterId, limit, at) {
      const candidates = await db
        .selectFrom('accounts as a')
        .leftJoin('request_digests as d', 'd.account_id', 'a.id')
        .select(['a.id as accountId', 'a.email', 'd.checked_at as since'])
        .where('a.id', '>', afterId)
        .where('a.email_verified_at', 'is not', null)
        .where('a.banned_at', 'is', null)
        .where((eb) => eb.or([eb('d.checked_at', 'is', null), eb('d.checked_at', '<', cutoff)]))
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('message_settings as s')
                .select('s.account_id')
                .whereRef('s.account_id', '=', 'a.id')
                .where('s.requests_at_once', '=', 1),
            ),
          ),
        )
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('messages as m')
              .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
              .select('m.id')
              .whereRef('c.poster_id', '=', 'a.id')
              .where('c.filtered_at', 'is', null)
              .where('c.answered_at', 'is', null)
              .where(writerStays)
              .whereRef('m.sender_id', '!=', 'a.id')
              .where('m.read_at', 'is', null)
              .where((inner) =>
                inner.or([
                  inner('d.checked_at', 'is', null),
                  inner('m.sent_at', '>', inner.ref('d.checked_at')),
                ]),
              ),
          ),
        )
        .orderBy('a.id')
        .limit(limit)
        .execute();
      if (candidates.length === 0) return { claimed: [], lastId: undefined };
      // One statement: of any number of runs at once, the database lets exactly one insert or
      // update each member's row (the others find it claimed since the cutoff).
      const won = await db
        .insertInto('request_digests')
        .values(candidates.map((row) => ({ account_id: row.accountId, checked_at: at })))
        .onConflict((oc) =>
          oc
            .column('account_id')
            .doUpdateSet({ checked_at: at })
            .where('request_digests.checked_at', '<', cutoff),
        )
        .returning('account_id')
        .execute();
      const ids = new Set(won.map((row) => Number(row.account_id)));
      return {
        claimed: candidates.filter((row) => ids.has(row.accountId)),
        lastId: candidates.at(-1)!.accountId,
      };
    },

    async newRequests(accountId, since, upTo) {
      const rows = await db
        .selectFrom('conversations as c')
        .innerJoin('messages as m', 'm.conversation_id', 'c.id')
        .select(['c.id as conversationId', 'c.ad_title as adTitle', rowCount.as('messages')])
        .where('c.poster_id', '=', accountId)
        .where('c.filtered_at', 'is', null)
        .where('c.answered_at', 'is', null)
        .where(writerStays)
        .where('m.sender_id', '!=', accountId)
        .where('m.read_at', 'is', null)
        .$if(since !== null, (query) => query.where('m.sent_at', '>', since!))
        .where('m.sent_at', '<=', upTo)
        .groupBy(['c.id', 'c.ad_title'])
        .orderBy('c.id')
        .execute();
      return rows.map((row) => ({ ...row, messages: Number(row.messages) }));
    },

    async recordMailed(accountId, at) {
      await db
        .updateTable('request_digests')
        .set({ mailed_at: at })
        .where('account_id', '=', accountId)
        .where('checked_at', '=', at)
        .execute();
    },

    async release(accountId, at, before) {
      if (before === null)
        return changedOne(
          db
            .deleteFrom('request_digests')
            .where('account_id', '=', accountId)
            .where('checked_at', '=', at),
        );
      return changedOne(
        db
          .updateTable('request_digests')
          .set({ checked_at: before })
          .where('account_id', '=', accountId)
          .where('checked_at', '=', at),
      );
    },
  };
}
