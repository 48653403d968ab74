// Saved searches (table saved_searches; docs/product.md section 11): a member's search, mailed as
// a digest of its new ads at most once a day. The rules (at most 10, who may save, what a digest
// lists) are server/saved-searches/'s; this part stores, and lets exactly one instance claim each digest.
import type { ExpressionBuilder } from 'kysely';
import { idsFromJson, isStorableId } from '../ids.ts';
import type { Tables } from '../tables.ts';
import type { StoreContext } from '../store-context.ts';
import { changedOne } from './row-count.ts';

/**
 * What a saved search has already seen: the newest posting day among the ads that matched when it
 * was last mailed (or saved), and the ids of that day's ads that matched then. Ads of earlier days
 * are old; an ad of that day not among these ids was approved since (approval sets the day, and
 * ids are given when an ad is written, not when it is approved, so an id says nothing of when).
 */
export interface SeenAds {
  /** The posting day (YYYY-MM-DD). */
  day: string;
  ids: number[];
}

/** What a claim and its mail changed, to give back when the mail could not be sent. */
export interface DigestClaim {
  checkedAt: string | null;
  lastSentAt: string | null;
  seen: SeenAds | null;
}

export interface SavedSearch {
  id: number;
  accountId: number;
  /** The normalized query string of /search (no leading `?`). */
  query: string;
  label: string;
  createdAt: string;
  lastSentAt: string | null;
  seen: SeenAds | null;
}

/** A saved search a digest run has claimed, with where its mail goes. */
export interface DueSavedSearch extends SavedSearch {
  email: string;
  /** When it was looked at before this claim. */
  checkedAt: string | null;
}

export interface NewSavedSearch {
  accountId: number;
  query: string;
  label: string;
  seen: SeenAds | null;
  unsubscribeHash: Buffer;
}

export interface SavedSearchStore {
  /** Stores it; its id, or undefined when the member already saved this query. */
  add(search: NewSavedSearch, at: string): Promise<number | undefined>;
  /** The member's saved searches, oldest first. */
  listOwned(accountId: number): Promise<SavedSearch[]>;
  countOwned(accountId: number): Promise<number>;
  /** Deletes the member's own saved search; false when it is not theirs (or gone). */
  deleteOwned(accountId: number, id: number): Promise<boolean>;
  findByUnsubscribeHash(hash: Buffer): Promise<SavedSearch | undefined>;
  /** Deletes the saved search of that unsubscribe token; false when there is none (any more). */
  deleteByUnsubscribeHash(hash: Buffer): Promise<boolean>;
  /**
   * Claims the next saved searches to look at: of verified, unbanned members, not looked at since
   * `cutoff` (never included), by id after `afterId`, at most `limit`; each is marked looked at
   * `at`, by exactly one caller however many instances ask at once. `lastId`: the last id this
   * batch went through (undefined: there are no more).
   */
  claimDue(
    cutoff: string,
    afterId: number,
    limit: number,
    at: string,
  ): Promise<{ claimed: DueSavedSearch[]; lastId: number | undefined }>;
  /** Its digest, listing up to what it has now `seen`, is mailed (it was claimed `at`). */
  recordMailed(id: number, at: string, seen: SeenAds): Promise<void>;
  /**
   * Gives back the claim made at `at` (its mail failed): it is due again, with what it had seen
   * before. Nothing when it was claimed again since, or deleted.
   */
  releaseDigest(id: number, at: string, before: DigestClaim): Promise<boolean>;
}

const COLUMNS = [
  'saved_searches.id as id',
  'saved_searches.account_id as accountId',
  'saved_searches.query as query',
  'saved_searches.label as label',
  'saved_searches.created_at as createdAt',
  'saved_searches.last_sent_at as lastSentAt',
  'saved_searches.seen_day as seenDay',
  'saved_searches.seen_ids as seenIds',
] as const;

/** A saved search as COLUMNS read it: what it has seen, still in its two columns. */
type Row = Omit<SavedSearch, 'seen'> & { seenDay: string | null; seenIds: string | null };

function savedSearch({ seenDay, seenIds, ...row }: Row): SavedSearch {
  return {
    ...row,
    seen: seenDay !== null && seenIds !== null ? { day: seenDay, ids: idsFromJson(seenIds) } : null,
  };
}

const seenColumns = (seen: SeenAds | null) => ({
  seen_day: seen?.day ?? null,
  seen_ids: seen ? JSON.stringify(seen.ids) : null,
});

export function savedSearchStore({ db }: StoreContext): SavedSearchStore {
  /** Saved searches as COLUMNS read them. */
  const searches = () => db.selectFrom('saved_searches').select(COLUMNS);
  return {
    async add(search, at) {
      const row = await db
        .insertInto('saved_searches')
        .values({
          account_id: search.accountId,
          query: search.query,
          label: search.label,
          created_at: at,
          last_sent_at: null,
          ...seenColumns(search.seen),
          unsubscribe_hash: search.unsubscribeHash,
        })
        .onConflict((oc) => oc.columns(['account_id', 'query']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },
    async listOwned(accountId) {
      const rows = await searches().where('account_id', '=', accountId).orderBy('id').execute();
      return rows.map(savedSearch);
    },
    async countOwned(accountId) {
      const row = await db
        .selectFrom('saved_searches')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async deleteOwned(accountId, id) {
      if (!isStorableId(id)) return false;
      return changedOne(
        db.deleteFrom('saved_searches').where('id', '=', id).where('account_id', '=', accountId),
      );
    },
    async findByUnsubscribeHash(hash) {
      const row = await searches().where('unsubscribe_hash', '=', hash).executeTakeFirst();
      return row && savedSearch(row);
    },
    async deleteByUnsubscribeHash(hash) {
      return changedOne(db.deleteFrom('saved_searches').where('unsubscribe_hash', '=', hash));
    },
    async claimDue(cutoff, afterId, limit, at) {
      const notSince = (eb: ExpressionBuilder<Tables, 'saved_searches'>) =>
        eb.or([
          eb('saved_searches.checked_at', 'is', null),
          eb('saved_searches.checked_at', '<', cutoff),
        ]);
      const candidates = await db
        .selectFrom('saved_searches')
        .innerJoin('accounts', 'accounts.id', 'saved_searches.account_id')
        .select([...COLUMNS, 'saved_searches.checked_at as checkedAt', 'accounts.email as email'])
        .where('saved_searches.id', '>', afterId)
        .where(notSince)
        .where('accounts.email_verified_at', 'is not', null)
        .where('accounts.banned_at', 'is', null)
        .orderBy('saved_searches.id')
        .limit(limit)
        .execute();
      if (candidates.length === 0) return { claimed: [], lastId: undefined };
      // One statement: of any number of runs at once, the database lets exactly one change each
      // row (the others then find it looked at since the cutoff, and it is not in their answer).
      const won = await db
        .updateTable('saved_searches')
        .set({ checked_at: at })
        .where(
          'id',
          'in',
          candidates.map((row) => row.id),
        )
        .where(notSince)
        .returning('id')
        .execute();
      const ids = new Set(won.map((row) => Number(row.id)));
      return {
        claimed: candidates
          .filter((row) => ids.has(row.id))
          .map(({ email, checkedAt, ...row }) => ({ ...savedSearch(row), email, checkedAt })),
        lastId: candidates.at(-1)!.id,
      };
    },
    async recordMailed(id, at, seen) {
      await db
        .updateTable('saved_searches')
        .set({ last_sent_at: at, ...seenColumns(seen) })
        .where('id', '=', id)
        .where('checked_at', '=', at)
        .execute();
    },
    async releaseDigest(id, at, before) {
      return changedOne(
        db
          .updateTable('saved_searches')
          .set({
            checked_at: before.checkedAt,
            last_sent_at: before.lastSentAt,
            ...seenColumns(before.seen),
          })
          .where('id', '=', id)
          .where('checked_at', '=', at),
      );
    },
  };
}
