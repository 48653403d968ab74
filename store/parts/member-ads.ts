// Members' ads (member_ads): what a member posts, edits, deletes and renews, and the claims of
// the expiry reminders. Every change of an ad bumps `revision` and `updated_at`, and is made only
// at the revision its caller read: a change made meanwhile is never overwritten (the method
// answers false). What may change when, and the limits, are the posting rules'
// (server/posting/member-ads.ts); the moderators' changes are the moderation part's.
import { sql, type Kysely } from 'kysely';
import { parseAdPhotoList, type AdPhotoRef } from '../../core/schemas/photos.ts';
import type { Seeks } from '../../core/schemas/seeks.ts';
import { isStorableId } from '../ids.ts';
import type { StoreContext } from '../store-context.ts';
import type { MemberAdStatus, Tables } from '../tables.ts';
import { changedOne, rowCount } from './row-count.ts';
import { stampOnce } from './stamp-once.ts';

export type { MemberAdStatus };

/** A member's ad as the store reads it: its row, its member's email, and whether reports hide it. */
export interface MemberAdRow {
  id: number;
  accountId: number;
  accountEmail: string;
  state: string;
  city: string;
  age: number;
  seeks: Seeks;
  title: string;
  description: string;
  status: MemberAdStatus;
  /** The policy scanner's marks, JSON. */
  marks: string;
  pendingAge: number | null;
  pendingSeeks: Seeks | null;
  pendingTitle: string | null;
  pendingDescription: string | null;
  pendingMarks: string | null;
  createdAt: string;
  submittedAt: string;
  approvedAt: string | null;
  postedOn: string | null;
  expiresOn: string | null;
  remindedAt: string | null;
  rejectedReason: string | null;
  rejectedNote: string | null;
  updatedAt: string;
  revision: number;
  /** Kept off the site by reports (hidden_ads) until a moderator decides. */
  hidden: boolean;
  /** Its photos in order, with their alt texts (published with the ad once it is live). */
  photos: AdPhotoRef[];
  /** A live ad's edit of its photos awaiting a moderator; null when none. */
  pendingPhotos: AdPhotoRef[] | null;
}

/** What the member writes: the ad's text and facts. */
export interface AdContent {
  age: number;
  seeks: Seeks;
  title: string;
  description: string;
  /** Its photos in order; undefined leaves them as they are (an edit) or none (a new ad). */
  photos?: AdPhotoRef[];
}

export interface NewMemberAd extends AdContent {
  state: string;
  city: string;
}

/** A live ad whose member is to be reminded of its expiry. */
export interface DueReminder {
  id: number;
  title: string;
  state: string;
  city: string;
  expiresOn: string;
  email: string;
}

/**
 * A member's edit of the ad at `revision` (false: the ad changed meanwhile), with the policy
 * scanner's `marks` for it.
 */
type WriteAdEdit = (
  id: number,
  revision: number,
  content: AdContent,
  marks: string,
  at: string,
) => Promise<boolean>;

export interface MemberAdStore {
  /** Any ad, whatever its status. */
  find(id: number): Promise<MemberAdRow | undefined>;
  /** The member's own ad, unless they deleted it. */
  findOwned(id: number, accountId: number): Promise<MemberAdRow | undefined>;
  /** The member's ads but the deleted ones, newest first. */
  listOwned(accountId: number): Promise<MemberAdRow[]>;
  /** The member's ads in review, or live and not expired on `today`. */
  countInReviewOrLive(accountId: number, today: string): Promise<number>;
  /** When the member last posted in the city after `since` (ISO time), if they did. */
  lastPostedInCity(
    accountId: number,
    place: { state: string; city: string },
    since: string,
  ): Promise<string | undefined>;
  /** A new ad in review; its id. */
  insert(accountId: number, ad: NewMemberAd, marks: string, at: string): Promise<number>;
  /** A live ad's edit, kept in pending_* (the live columns stay) until a moderator decides. */
  setPendingEdit: WriteAdEdit;
  /** An ad in review or rejected takes the edit and waits in review (again). */
  resubmit: WriteAdEdit;
  markDeleted(id: number, revision: number, at: string): Promise<boolean>;
  /**
   * Sets the ad's photos and its pending edit of them (null: none) at once, neither reviewed:
   * for taking photos away (a member's deletion, a moderator's removal), never for adding one.
   */
  setPhotos(
    id: number,
    revision: number,
    photos: AdPhotoRef[],
    pendingPhotos: AdPhotoRef[] | null,
    at: string,
  ): Promise<boolean>;
  /** Live until `expiresOn`, to be reminded again. */
  renew(id: number, revision: number, expiresOn: string, at: string): Promise<boolean>;
  /** Live ads expiring after `after` and on or before `until` whose (unbanned) member has not been reminded. */
  dueForReminder(after: string, until: string): Promise<DueReminder[]>;
  /**
   * Claims the ad's reminder: true for exactly one caller, whatever the number of instances asking
   * at once (the reminder is then theirs to send).
   */
  claimReminder(id: number, at: string): Promise<boolean>;
}

/** The ads as MemberAdRow reads them (the moderation part's queue reads them so too). */
export function selectMemberAds(db: Kysely<Tables>) {
  return db
    .selectFrom('member_ads')
    .innerJoin('accounts', 'accounts.id', 'member_ads.account_id')
    .leftJoin('hidden_ads', (join) =>
      join.onRef('hidden_ads.ad_id', '=', 'member_ads.id').on('hidden_ads.kind', '=', 'member'),
    )
    .select([
      'member_ads.id as id',
      'member_ads.account_id as accountId',
      'accounts.email as accountEmail',
      'member_ads.state as state',
      'member_ads.city as city',
      'member_ads.age as age',
      'member_ads.seeks as seeks',
      'member_ads.title as title',
      'member_ads.description as description',
      'member_ads.status as status',
      'member_ads.marks as marks',
      'member_ads.pending_age as pendingAge',
      'member_ads.pending_seeks as pendingSeeks',
      'member_ads.pending_title as pendingTitle',
      'member_ads.pending_description as pendingDescription',
      'member_ads.pending_marks as pendingMarks',
      'member_ads.created_at as createdAt',
      'member_ads.submitted_at as submittedAt',
      'member_ads.approved_at as approvedAt',
      'member_ads.posted_on as postedOn',
      'member_ads.expires_on as expiresOn',
      'member_ads.reminded_at as remindedAt',
      'member_ads.rejected_reason as rejectedReason',
      'member_ads.rejected_note as rejectedNote',
      'member_ads.updated_at as updatedAt',
      'member_ads.revision as revision',
      'member_ads.photos as photos',
      'member_ads.pending_photos as pendingPhotos',
      'hidden_ads.ad_id as hiddenId',
    ]);
}

type SelectedAd = Awaited<
  ReturnType<ReturnType<typeof selectMemberAds>['executeTakeFirstOrThrow']>
>;

/** A selected row as the MemberAdRow it is (hidden decided here, not selected as a boolean). */
export function memberAdRowOf({
  hiddenId,
  photos,
  pendingPhotos,
  ...row
}: SelectedAd): MemberAdRow {
  return {
    ...row,
    photos: parseAdPhotoList(photos),
    pendingPhotos: pendingPhotos === null ? null : parseAdPhotoList(pendingPhotos),
    seeks: row.seeks as Seeks,
    pendingSeeks: row.pendingSeeks as Seeks | null,
    hidden: hiddenId !== null,
  };
}

/** The columns of member_ads that hold what the member wrote (its photos only when given). */
const contentColumns = (content: AdContent, marks: string) => ({
  age: content.age,
  seeks: content.seeks,
  title: content.title,
  description: content.description,
  marks,
  ...(content.photos ? { photos: JSON.stringify(content.photos) } : {}),
});

type PendingColumns<Columns> = {
  [Name in keyof Columns as `pending_${Name & string}`]: Columns[Name];
};

/** The same content as a live ad's edit awaiting review: pending_age, pending_title … */
const pendingColumns = <Columns extends object>(columns: Columns) =>
  Object.fromEntries(
    Object.entries(columns).map(([name, value]) => [`pending_${name}`, value]),
  ) as PendingColumns<Columns>;

export function memberAdStore({ db }: StoreContext): MemberAdStore {
  /** One ad, at the revision its caller read. */
  const update = (id: number, revision: number) =>
    db
      .updateTable('member_ads')
      .where('id', '=', id)
      .where('revision', '=', revision)
      .set({ revision: sql`revision + 1` });

  return {
    async find(id) {
      if (!isStorableId(id)) return undefined;
      const row = await selectMemberAds(db).where('member_ads.id', '=', id).executeTakeFirst();
      return row && memberAdRowOf(row);
    },
    async findOwned(id, accountId) {
      if (!isStorableId(id)) return undefined;
      const row = await selectMemberAds(db)
        .where('member_ads.id', '=', id)
        .where('member_ads.account_id', '=', accountId)
        .where('member_ads.status', '!=', 'deleted')
        .executeTakeFirst();
      return row && memberAdRowOf(row);
    },
    async listOwned(accountId) {
      const rows = await selectMemberAds(db)
        .where('member_ads.account_id', '=', accountId)
        .where('member_ads.status', '!=', 'deleted')
        .orderBy('member_ads.created_at', 'desc')
        .orderBy('member_ads.id', 'desc')
        .execute();
      return rows.map(memberAdRowOf);
    },
    async countInReviewOrLive(accountId, today) {
      const { n } = await db
        .selectFrom('member_ads')
        .select(rowCount.as('n'))
        .where('account_id', '=', accountId)
        .where((eb) =>
          eb.or([
            eb('status', '=', 'review'),
            eb.and([eb('status', '=', 'live'), eb('expires_on', '>', today)]),
          ]),
        )
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    async lastPostedInCity(accountId, place, since) {
      const row = await db
        .selectFrom('member_ads')
        .select('created_at')
        .where('account_id', '=', accountId)
        .where('state', '=', place.state)
        .where('city', '=', place.city)
        .where('created_at', '>', since)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.created_at;
    },
    async insert(accountId, ad, marks, at) {
      const { id } = await db
        .insertInto('member_ads')
        .values({
          account_id: accountId,
          state: ad.state,
          city: ad.city,
          ...contentColumns(ad, marks),
          photos: JSON.stringify(ad.photos ?? []),
          status: 'review',
          created_at: at,
          submitted_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },
    async setPendingEdit(id, revision, content, marks, at) {
      return changedOne(
        update(id, revision).set({
          ...pendingColumns(contentColumns(content, marks)),
          submitted_at: at,
          updated_at: at,
        }),
      );
    },
    async resubmit(id, revision, content, marks, at) {
      return changedOne(
        update(id, revision).set({
          ...contentColumns(content, marks),
          status: 'review',
          rejected_reason: null,
          rejected_note: null,
          // A rejected ad goes to the back of the queue; one still in review keeps its place.
          submitted_at: sql`CASE WHEN status = 'rejected' THEN ${at} ELSE submitted_at END`,
          updated_at: at,
        }),
      );
    },
    async markDeleted(id, revision, at) {
      return changedOne(update(id, revision).set({ status: 'deleted', updated_at: at }));
    },
    async setPhotos(id, revision, photos, pendingPhotos, at) {
      return changedOne(
        update(id, revision).set({
          photos: JSON.stringify(photos),
          pending_photos: pendingPhotos === null ? null : JSON.stringify(pendingPhotos),
          updated_at: at,
        }),
      );
    },
    async renew(id, revision, expiresOn, at) {
      return changedOne(
        update(id, revision).set({ expires_on: expiresOn, reminded_at: null, updated_at: at }),
      );
    },
    async dueForReminder(after, until) {
      return db
        .selectFrom('member_ads')
        .innerJoin('accounts', 'accounts.id', 'member_ads.account_id')
        .select([
          'member_ads.id as id',
          'member_ads.title as title',
          'member_ads.state as state',
          'member_ads.city as city',
          'member_ads.expires_on as expiresOn',
          'accounts.email as email',
        ])
        .where('member_ads.status', '=', 'live')
        .where('member_ads.reminded_at', 'is', null)
        .where('member_ads.expires_on', '>', after)
        .where('member_ads.expires_on', '<=', until)
        .where('accounts.banned_at', 'is', null)
        .orderBy('member_ads.id')
        .execute() as Promise<DueReminder[]>;
    },
    async claimReminder(id, at) {
      // One statement: of any number of claims at once, the database lets exactly one change the
      // row. Not a change of the ad: neither revision nor updated_at move, so a moderator acting
      // on it at that moment is not told it changed under them.
      return changedOne(stampOnce(db.updateTable('member_ads'), 'reminded_at', id, at));
    },
  };
}
