// Member ads put in the test's store through its parts, as the posting and moderation routes
// write them: for the tests of publishing and search, on either engine.
import { expect } from 'vitest';
import { Refusal } from '../../core/refusal.ts';
import type { NewMemberAd } from '../../store/parts/member-ads.ts';
import type { StoreHandle } from '../../store/store.ts';
import { MODERATION_REASONS } from '../../core/schemas/moderation-reasons.ts';
import type { Seeks } from '../../core/schemas/seeks.ts';
import type { TestSql } from './test-store.ts';
import { accountInStore } from './store-accounts.ts';
import { adStatusNoRouteGives } from './stored-rows.ts';

/** What a posting step answers, or the Refusal it threw (two instances racing: one says no). */
export const outcomeOrRefusal = <T>(step: Promise<T>): Promise<T | Refusal> =>
  step.catch((error: unknown) => {
    if (error instanceof Refusal) return error;
    throw error;
  });

/** The ad the store's contract tests post (store.memberAds.insert): an adult's, in Los Angeles. */
export const SAMPLE_MEMBER_AD: NewMemberAd = {
  state: 'California',
  city: 'Los Angeles',
  age: 34,
  seeks: 'w4m',
  title: 'Coffee and a walk',
  description: 'Early mornings and old films.',
};

export interface MemberAdFields {
  state: string;
  city: string;
  age?: number;
  seeks?: string;
  title: string;
  description?: string;
  status?: 'review' | 'live' | 'rejected' | 'removed' | 'deleted';
  postedOn?: string;
  expiresOn?: string;
}

/** Where the ads go: a test's store and its raw SQL (TestApp, TestStore). */
export interface AdsDatabase {
  store: StoreHandle;
  sql: TestSql;
}

/** The member who posts the test ads (made once per database). */
async function posterId({ store }: AdsDatabase): Promise<number> {
  const found = await store.accounts.findByEmail('poster@example.org');
  if (found) return found.id;
  return accountInStore(store, 'poster@example.org');
}

/** A moderator's reason, as the moderation actions store it (server/moderation/actions.ts). */
const WHY = { reason: MODERATION_REASONS.spam, note: 'A test ad taken off the site.' };

/**
 * Posts a member ad through the store and takes it to its status as the routes would (live by
 * default: approved now, from `postedOn` to `expiresOn`); its id.
 */
export async function insertMemberAd(t: AdsDatabase, ad: MemberAdFields): Promise<number> {
  const { store } = t;
  const now = new Date().toISOString();
  const status = ad.status ?? 'live';
  const id = await store.memberAds.insert(
    await posterId(t),
    {
      state: ad.state,
      city: ad.city,
      age: ad.age ?? 30,
      seeks: (ad.seeks ?? 'm4w') as Seeks,
      title: ad.title,
      description: ad.description ?? 'A plain test ad: coffee, a walk, a chat.',
    },
    '[]',
    now,
  );
  if (status === 'rejected') await store.moderation.rejectNew(id, 1, WHY, now);
  if (status === 'live' || status === 'removed')
    await store.moderation.approveNew(id, 1, now, {
      postedOn: ad.postedOn ?? '2026-11-20',
      expiresOn: ad.expiresOn ?? '2026-12-20',
    });
  if (status === 'removed') await store.moderation.removeLive(id, 2, WHY, now);
  if (status === 'deleted') await store.memberAds.markDeleted(id, 1, now);
  return id;
}

/**
 * Changes an ad's status as a route would (a new revision): the poster's deletion, a moderator's
 * removal. A deleted ad live again (or back in review) is no route's doing: that one is written
 * directly, for the tests that watch an ad's pages come and go.
 */
export async function setMemberAdStatus(
  t: AdsDatabase,
  id: number,
  status: NonNullable<MemberAdFields['status']>,
): Promise<void> {
  const now = new Date().toISOString();
  const ad = (await t.store.memberAds.find(id))!;
  if (status === 'deleted') {
    expect(await t.store.memberAds.markDeleted(id, ad.revision, now)).toBe(true);
  } else if (status === 'removed' && ad.status === 'live') {
    expect(await t.store.moderation.removeLive(id, ad.revision, WHY, now)).toBe(true);
  } else {
    // No route brings a deleted ad back: the tests that flip an ad off and on again write it.
    await adStatusNoRouteGives(t, id, status, now);
  }
}
