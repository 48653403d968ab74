// Moderation's data (docs/product.md section 6): the queue of ads waiting for review, the poster's
// history, the moderators' changes of an ad (approve, reject, remove: each made only at the
// revision the moderator saw), bans and the moderator role. Who may do what, the log rows and the
// texts are server/moderation/'s; the log itself is the moderationLog part.
import { sql, type ExpressionBuilder } from 'kysely';
import { memberAdRowOf, selectMemberAds, type MemberAdRow } from './member-ads.ts';
import { isStorableId } from '../ids.ts';
import { changedOne, rowsChanged, rowCount } from './row-count.ts';
import type { StoreContext } from '../store-context.ts';
import type { Tables } from '../tables.ts';
import { stampOnce } from './stamp-once.ts';

/** The poster, as the moderator judges them: the account and its history. */
export interface PosterRow {
  accountId: number;
  email: string;
  createdAt: string;
  role: 'member' | 'moderator';
  bannedAt: string | null;
  /** Ads ever approved; rejected and removed now. */
  approved: number;
  rejected: number;
  removed: number;
  /** Reports ever sent about the account's ads and messages. */
  reports: number;
  adsInReview: number;
  adsLive: number;
}

/** An account as moderation sees it: who, which role, whether banned. */
export interface AccountStanding {
  accountId: number;
  email: string;
  role: 'member' | 'moderator';
  bannedAt: string | null;
}

/** A moderator's reason (the label) and optional note, as the member is told them. */
export interface Why {
  reason: string;
  note?: string;
}

export interface ModerationStore {
  /**
   * Ads in review and pending edits of live ads, oldest submission first; with `explicitFrom`,
   * those with a photo (not removed) whose explicit score is at or over it come before the rest.
   */
  queue(limit: number, explicitFrom?: number): Promise<MemberAdRow[]>;
  /** How many are waiting in all. */
  waitingCount(): Promise<number>;
  poster(accountId: number): Promise<PosterRow | undefined>;
  account(accountId: number): Promise<AccountStanding | undefined>;
  accountByEmail(email: string): Promise<AccountStanding | undefined>;
  /** An ad in review goes live from `postedOn` until `expiresOn`. */
  approveNew(
    id: number,
    revision: number,
    at: string,
    days: { postedOn: string; expiresOn: string },
  ): Promise<boolean>;
  /** A live ad's pending edit replaces its text and photos; the expiry stays. */
  approveEdit(id: number, revision: number, at: string): Promise<boolean>;
  rejectNew(id: number, revision: number, why: Why, at: string): Promise<boolean>;
  /** The pending edit goes; the live ad stays as it was. */
  rejectEdit(id: number, revision: number, why: Why, at: string): Promise<boolean>;
  /** A live ad off the site, with any edit waiting for it. */
  removeLive(id: number, revision: number, why: Why, at: string): Promise<boolean>;
  /** The account's ads in review or live, by id. */
  adsInReviewOrLiveOf(accountId: number): Promise<{ id: number; status: 'review' | 'live' }[]>;
  /** Removes every ad of the account in review or live; how many. */
  removeAllOf(accountId: number, why: Why, at: string): Promise<number>;
  /**
   * Bans the account unless it already is (false then): its sign-in refused, and its address
   * kept so that it cannot sign up again.
   */
  ban(accountId: number, email: string, at: string): Promise<boolean>;
  setRole(accountId: number, role: 'member' | 'moderator'): Promise<void>;
  /**
   * An appeal reversed (server/moderation/appeals.ts): a removed or rejected ad live again until
   * `expiresOn`, or back in review; false when it is neither removed nor rejected now.
   */
  reinstateAd(
    id: number,
    to: { status: 'live'; postedOn: string; expiresOn: string } | { status: 'review' },
    at: string,
  ): Promise<boolean>;
  /** An appeal of a rejected edit reversed: the edit's text on the live ad. */
  applyEdit(
    id: number,
    edit: { title: string; description: string; age: number; seeks: string },
    at: string,
  ): Promise<boolean>;
  /** An appeal of a ban reversed: the account signs in again, and its address is free again. */
  unban(accountId: number, email: string): Promise<boolean>;
}

const NO_PENDING = {
  pending_age: null,
  pending_seeks: null,
  pending_title: null,
  pending_description: null,
  pending_marks: null,
  pending_photos: null,
} as const;

/** A moderator's no to an ad, and when: the reason and note its member reads. */
const rejection = (why: Why, at: string) => ({
  rejected_reason: why.reason,
  rejected_note: why.note ?? null,
  updated_at: at,
});

/** An ad put (back) on the site or in the queue: any earlier no is no longer its story. */
const noRejection = (at: string) => ({
  rejected_reason: null,
  rejected_note: null,
  updated_at: at,
});

/** In the queue: a new ad in review, or the pending edit of a live ad. */
const awaitingReview = (eb: ExpressionBuilder<Tables, 'member_ads'>) =>
  eb.or([
    eb('member_ads.status', '=', 'review'),
    eb.and([
      eb('member_ads.status', '=', 'live'),
      eb.or([
        eb('member_ads.pending_title', 'is not', null),
        eb('member_ads.pending_description', 'is not', null),
        eb('member_ads.pending_age', 'is not', null),
        eb('member_ads.pending_seeks', 'is not', null),
        eb('member_ads.pending_photos', 'is not', null),
      ]),
    ]),
  ]);

const countWhere = (condition: string) =>
  sql<number>`cast(count(case when ${sql.raw(condition)} then 1 end) as integer)`;

export function moderationStore({ db }: StoreContext): ModerationStore {
  /** One ad, at the revision the moderator saw, in the status they saw. */
  const update = (id: number, revision: number, status: 'review' | 'live') =>
    db
      .updateTable('member_ads')
      .where('id', '=', id)
      .where('revision', '=', revision)
      .where('status', '=', status)
      .set({ revision: sql`revision + 1` });
  const standing = () =>
    db.selectFrom('accounts').select(['id as accountId', 'email', 'role', 'banned_at as bannedAt']);

  return {
    async queue(limit, explicitFrom) {
      const rows = await selectMemberAds(db)
        .where(awaitingReview)
        .$if(explicitFrom !== undefined, (query) =>
          query.orderBy((eb) =>
            eb
              .case()
              .when(
                eb.exists(
                  eb
                    .selectFrom('photos')
                    .select('photos.id')
                    .whereRef('photos.ad_id', '=', 'member_ads.id')
                    .where('photos.removed_at', 'is', null)
                    .where('photos.explicit_score', '>=', explicitFrom!),
                ),
              )
              .then(0)
              .else(1)
              .end(),
          ),
        )
        .orderBy('member_ads.submitted_at')
        .orderBy('member_ads.id')
        .limit(limit)
        .execute();
      return rows.map(memberAdRowOf);
    },
    async waitingCount() {
      const { n } = await db
        .selectFrom('member_ads')
        .select(rowCount.as('n'))
        .where(awaitingReview)
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    async poster(accountId) {
      if (!isStorableId(accountId)) return undefined;
      const row = await db
        .selectFrom('accounts')
        .leftJoin('member_ads', 'member_ads.account_id', 'accounts.id')
        .select((eb) => [
          'accounts.id as accountId',
          'accounts.email as email',
          'accounts.created_at as createdAt',
          'accounts.role as role',
          'accounts.banned_at as bannedAt',
          countWhere('member_ads.approved_at IS NOT NULL').as('approved'),
          countWhere(`member_ads.status = 'rejected'`).as('rejected'),
          countWhere(`member_ads.status = 'removed'`).as('removed'),
          countWhere(`member_ads.status = 'review'`).as('adsInReview'),
          countWhere(`member_ads.status = 'live'`).as('adsLive'),
          eb
            .selectFrom('reports')
            .select(rowCount.as('n'))
            .whereRef('reports.reported_account_id', '=', 'accounts.id')
            .as('reports'),
        ])
        .where('accounts.id', '=', accountId)
        .groupBy([
          'accounts.id',
          'accounts.email',
          'accounts.created_at',
          'accounts.role',
          'accounts.banned_at',
        ])
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        ...row,
        approved: Number(row.approved),
        rejected: Number(row.rejected),
        removed: Number(row.removed),
        adsInReview: Number(row.adsInReview),
        adsLive: Number(row.adsLive),
        reports: Number(row.reports ?? 0),
      };
    },
    account: async (accountId) =>
      isStorableId(accountId)
        ? standing().where('id', '=', accountId).executeTakeFirst()
        : undefined,
    accountByEmail: (email) => standing().where('email', '=', email).executeTakeFirst(),
    async approveNew(id, revision, at, days) {
      return changedOne(
        update(id, revision, 'review').set({
          status: 'live',
          approved_at: at,
          posted_on: days.postedOn,
          expires_on: days.expiresOn,
          ...noRejection(at),
        }),
      );
    },
    async approveEdit(id, revision, at) {
      return changedOne(
        update(id, revision, 'live').set({
          age: sql`COALESCE(pending_age, age)`,
          seeks: sql`COALESCE(pending_seeks, seeks)`,
          title: sql`COALESCE(pending_title, title)`,
          description: sql`COALESCE(pending_description, description)`,
          marks: sql`COALESCE(pending_marks, marks)`,
          photos: sql`COALESCE(pending_photos, photos)`,
          ...NO_PENDING,
          ...noRejection(at),
        }),
      );
    },
    async rejectNew(id, revision, why, at) {
      return changedOne(
        update(id, revision, 'review').set({
          status: 'rejected',
          ...rejection(why, at),
        }),
      );
    },
    async rejectEdit(id, revision, why, at) {
      return changedOne(
        update(id, revision, 'live').set({
          ...NO_PENDING,
          ...rejection(why, at),
        }),
      );
    },
    async removeLive(id, revision, why, at) {
      return changedOne(
        update(id, revision, 'live').set({
          status: 'removed',
          ...NO_PENDING,
          ...rejection(why, at),
        }),
      );
    },
    async adsInReviewOrLiveOf(accountId) {
      const rows = await db
        .selectFrom('member_ads')
        .select(['id', 'status'])
        .where('account_id', '=', accountId)
        .where('status', 'in', ['review', 'live'])
        .orderBy('id')
        .execute();
      return rows as { id: number; status: 'review' | 'live' }[];
    },
    async removeAllOf(accountId, why, at) {
      return rowsChanged(
        db
          .updateTable('member_ads')
          .set({
            status: 'removed',
            ...NO_PENDING,
            ...rejection(why, at),
            revision: sql`revision + 1`,
          })
          .where('account_id', '=', accountId)
          .where('status', 'in', ['review', 'live']),
      );
    },
    async ban(accountId, email, at) {
      const banned = await changedOne(
        stampOnce(db.updateTable('accounts'), 'banned_at', accountId, at),
      );
      if (!banned) return false;
      await db
        .insertInto('banned_emails')
        .values({ email, banned_at: at })
        .onConflict((oc) => oc.column('email').doNothing())
        .execute();
      return true;
    },
    async reinstateAd(id, to, at) {
      return changedOne(
        db
          .updateTable('member_ads')
          .set({
            ...(to.status === 'live'
              ? {
                  status: 'live',
                  posted_on: to.postedOn,
                  expires_on: to.expiresOn,
                  approved_at: sql`COALESCE(approved_at, ${at})`,
                }
              : { status: 'review', submitted_at: at }),
            ...noRejection(at),
            revision: sql`revision + 1`,
          })
          .where('id', '=', id)
          .where('status', 'in', ['removed', 'rejected']),
      );
    },
    async applyEdit(id, edit, at) {
      return changedOne(
        db
          .updateTable('member_ads')
          .set({
            ...edit,
            ...noRejection(at),
            revision: sql`revision + 1`,
          })
          .where('id', '=', id)
          .where('status', '=', 'live'),
      );
    },
    async unban(accountId, email) {
      const unbanned = await changedOne(
        db
          .updateTable('accounts')
          .set({ banned_at: null })
          .where('id', '=', accountId)
          .where('banned_at', 'is not', null),
      );
      await db.deleteFrom('banned_emails').where('email', '=', email).execute();
      return unbanned;
    },
    async setRole(accountId, role) {
      await db.updateTable('accounts').set({ role }).where('id', '=', accountId).execute();
    },
  };
}
