// The memberAds part of the store, on SQLite and (in the postgres suite) on PostgreSQL: reading a
// member's ads (with their member's email and whether reports hide them), the counts the posting
// limits read, each change made only at the revision read, and the expiry reminders' claims.
import { beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_MEMBER_AD } from '../../helpers/member-ads.ts';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';
import { setAd as setAdColumns } from '../../helpers/posting.ts';

const t = storeForEachTest();

const AT = '2026-11-20T10:00:00.000Z';
const LATER = '2026-11-21T10:00:00.000Z';
const AD = SAMPLE_MEMBER_AD;
const EDIT = { age: 35, seeks: 'm4w' as const, title: 'Tea instead', description: 'Late nights.' };

async function account(id: number, email: string, bannedAt: string | null = null) {
  await accountRow(t.sql, id, { email, at: AT, bannedAt });
}

const setAd = (id: number, columns: Record<string, string | number | null>) =>
  setAdColumns(t, id, columns);

beforeEach(async () => {
  await account(7, 'ana@example.com');
  await account(8, 'ben@example.com');
});

describe('memberAds', () => {
  it('stores a new ad in review and reads it back, as its member and as anyone', async () => {
    const id = await t.store.memberAds.insert(7, AD, '[{"field":"title"}]', AT);
    expect(id).toBe(100000001);
    const ad = await t.store.memberAds.find(id);
    expect(ad).toEqual({
      id,
      accountId: 7,
      accountEmail: 'ana@example.com',
      ...AD,
      status: 'review',
      marks: '[{"field":"title"}]',
      pendingAge: null,
      pendingSeeks: null,
      pendingTitle: null,
      pendingDescription: null,
      pendingMarks: null,
      createdAt: AT,
      submittedAt: AT,
      approvedAt: null,
      postedOn: null,
      expiresOn: null,
      remindedAt: null,
      rejectedReason: null,
      rejectedNote: null,
      updatedAt: AT,
      revision: 1,
      hidden: false,
      photos: [],
      pendingPhotos: null,
    });
    expect(await t.store.memberAds.findOwned(id, 7)).toEqual(ad);
    expect(await t.store.memberAds.findOwned(id, 8)).toBeUndefined();
    expect(await t.store.memberAds.find(1)).toBeUndefined();
    // An id no row can have, as a URL may carry: none, never a database error.
    expect(await t.store.memberAds.find(2 ** 31)).toBeUndefined();
    expect(await t.store.memberAds.findOwned(999_999_999_999_999, 7)).toBeUndefined();
  });

  it("lists a member's ads newest first, without the deleted ones; hidden by reports shows", async () => {
    const first = await t.store.memberAds.insert(7, AD, '[]', AT);
    const second = await t.store.memberAds.insert(7, { ...AD, city: 'San Diego' }, '[]', LATER);
    const deleted = await t.store.memberAds.insert(7, { ...AD, city: 'Fresno' }, '[]', LATER);
    await t.store.memberAds.insert(8, AD, '[]', AT);
    expect(await t.store.memberAds.markDeleted(deleted, 1, LATER)).toBe(true);
    await t.sql.run(
      "INSERT INTO hidden_ads (ad_id, kind, why, hidden_at) VALUES (?, 'member', 'reports', ?)",
      first,
      LATER,
    );
    const listed = await t.store.memberAds.listOwned(7);
    expect(listed.map((ad) => [ad.id, ad.hidden])).toEqual([
      [second, false],
      [first, true],
    ]);
    expect(await t.store.memberAds.findOwned(deleted, 7)).toBeUndefined();
    expect((await t.store.memberAds.find(deleted))?.status).toBe('deleted');
  });

  it('counts the ads in review or live (not expired), and finds the last post in a city', async () => {
    const ids = [];
    for (const city of ['Los Angeles', 'San Diego', 'Fresno', 'San Jose'])
      ids.push(await t.store.memberAds.insert(7, { ...AD, city }, '[]', AT));
    await setAd(ids[1]!, { status: 'live', expires_on: '2026-11-21' });
    await setAd(ids[2]!, { status: 'live', expires_on: '2026-11-20' });
    await setAd(ids[3]!, { status: 'rejected' });
    expect(await t.store.memberAds.countInReviewOrLive(7, '2026-11-20')).toBe(2);
    expect(await t.store.memberAds.countInReviewOrLive(7, '2026-11-21')).toBe(1);
    expect(await t.store.memberAds.countInReviewOrLive(8, '2026-11-20')).toBe(0);

    const place = { state: 'California', city: 'Los Angeles' };
    await t.store.memberAds.insert(7, AD, '[]', LATER);
    expect(await t.store.memberAds.lastPostedInCity(7, place, '2026-11-19T00:00:00.000Z')).toBe(
      LATER,
    );
    expect(await t.store.memberAds.lastPostedInCity(7, place, LATER)).toBeUndefined();
    expect(
      await t.store.memberAds.lastPostedInCity(8, place, '2026-11-19T00:00:00.000Z'),
    ).toBeUndefined();
  });

  it('changes an ad only at the revision read, each change a new revision', async () => {
    const id = await t.store.memberAds.insert(7, AD, '[]', AT);
    expect(await t.store.memberAds.resubmit(id, 2, EDIT, '[]', LATER)).toBe(false);
    expect(await t.store.memberAds.resubmit(id, 1, EDIT, '["m"]', LATER)).toBe(true);
    // Still in review: it keeps its place in the queue.
    expect(await t.store.memberAds.find(id)).toMatchObject({
      ...EDIT,
      marks: '["m"]',
      status: 'review',
      submittedAt: AT,
      updatedAt: LATER,
      revision: 2,
    });

    await setAd(id, { status: 'rejected', rejected_reason: 'Spam', rejected_note: 'x' });
    expect(await t.store.memberAds.resubmit(id, 2, AD, '[]', LATER)).toBe(true);
    expect(await t.store.memberAds.find(id)).toMatchObject({
      title: AD.title,
      status: 'review',
      rejectedReason: null,
      rejectedNote: null,
      submittedAt: LATER,
      revision: 3,
    });

    await setAd(id, { status: 'live', expires_on: '2026-12-20', reminded_at: AT });
    expect(await t.store.memberAds.setPendingEdit(id, 3, EDIT, '["p"]', LATER)).toBe(true);
    expect(await t.store.memberAds.find(id)).toMatchObject({
      title: AD.title,
      pendingAge: 35,
      pendingSeeks: 'm4w',
      pendingTitle: 'Tea instead',
      pendingDescription: 'Late nights.',
      pendingMarks: '["p"]',
      revision: 4,
    });
    expect(await t.store.memberAds.renew(id, 3, '2027-01-01', LATER)).toBe(false);
    expect(await t.store.memberAds.renew(id, 4, '2027-01-01', LATER)).toBe(true);
    expect(await t.store.memberAds.find(id)).toMatchObject({
      expiresOn: '2027-01-01',
      remindedAt: null,
      revision: 5,
    });
    expect(await t.store.memberAds.markDeleted(id, 4, LATER)).toBe(false);
    expect(await t.store.memberAds.markDeleted(id, 5, LATER)).toBe(true);
    expect(await t.store.memberAds.find(id)).toMatchObject({ status: 'deleted', revision: 6 });
  });

  it('lists the ads due for a reminder; each reminder is claimed once, without a new revision', async () => {
    await account(9, 'banned@example.com', AT);
    const due = await t.store.memberAds.insert(7, AD, '[]', AT);
    const later = await t.store.memberAds.insert(8, AD, '[]', AT);
    const ofBanned = await t.store.memberAds.insert(9, AD, '[]', AT);
    const expired = await t.store.memberAds.insert(7, { ...AD, city: 'Fresno' }, '[]', AT);
    await setAd(due, { status: 'live', expires_on: '2026-11-23' });
    await setAd(later, { status: 'live', expires_on: '2026-11-24' });
    await setAd(ofBanned, { status: 'live', expires_on: '2026-11-22' });
    await setAd(expired, { status: 'live', expires_on: '2026-11-20' });
    expect(await t.store.memberAds.dueForReminder('2026-11-20', '2026-11-23')).toEqual([
      {
        id: due,
        title: AD.title,
        state: AD.state,
        city: AD.city,
        expiresOn: '2026-11-23',
        email: 'ana@example.com',
      },
    ]);
    expect(await t.store.memberAds.claimReminder(due, LATER)).toBe(true);
    expect(await t.store.memberAds.claimReminder(due, LATER)).toBe(false);
    expect(await t.store.memberAds.find(due)).toMatchObject({ remindedAt: LATER, revision: 1 });
    expect(await t.store.memberAds.dueForReminder('2026-11-20', '2026-11-23')).toEqual([]);
  });
});
