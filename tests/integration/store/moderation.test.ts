// The moderation part of the store, on SQLite and (in the postgres suite) on PostgreSQL: the queue,
// the poster's history, the moderators' changes of an ad (each only at the revision and in the
// status they saw), bans and the moderator role.
import { beforeEach, describe, expect, it } from 'vitest';
import { SAMPLE_MEMBER_AD } from '../../helpers/member-ads.ts';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';
import { setAd as setAdColumns } from '../../helpers/posting.ts';

const t = storeForEachTest();

const AT = '2026-11-20T10:00:00.000Z';
const LATER = '2026-11-21T10:00:00.000Z';
const AD = SAMPLE_MEMBER_AD;
const WHY = { reason: 'Spam or duplicate', note: 'Posted twice.' };

async function account(id: number, email: string, createdAt = AT) {
  await accountRow(t.sql, id, { email, at: createdAt });
}

/** An ad of account 7 in review, submitted at `at`. */
const adInReview = (at = AT, city = AD.city) =>
  t.store.memberAds.insert(7, { ...AD, city }, '[]', at);

const setAd = (id: number, columns: Record<string, string | number | null>) =>
  setAdColumns(t, id, columns);

beforeEach(async () => {
  await account(7, 'ana@example.com');
  await account(8, 'ben@example.com', LATER);
});

describe('moderation', () => {
  it('queues ads in review and edits of live ads, oldest submission first, and counts them', async () => {
    const newer = await adInReview(LATER);
    const older = await adInReview(AT, 'San Diego');
    const edited = await adInReview(AT, 'Fresno');
    await setAd(edited, {
      status: 'live',
      expires_on: '2026-12-20',
      pending_title: 'New title',
      submitted_at: '2026-11-20T12:00:00.000Z',
    });
    const live = await adInReview(AT, 'San Jose');
    await setAd(live, { status: 'live', expires_on: '2026-12-20' });
    const rejected = await adInReview(AT, 'Oakland');
    await setAd(rejected, { status: 'rejected' });
    const queue = await t.store.moderation.queue(10);
    expect(queue.map((ad) => ad.id)).toEqual([older, edited, newer]);
    expect(queue[1]).toMatchObject({ accountEmail: 'ana@example.com', pendingTitle: 'New title' });
    expect((await t.store.moderation.queue(1)).map((ad) => ad.id)).toEqual([older]);
    expect(await t.store.moderation.waitingCount()).toBe(3);
  });

  it("reads the poster's history, and an account's standing by id or email", async () => {
    const approved = await adInReview();
    await setAd(approved, { status: 'removed', approved_at: AT });
    await setAd(await adInReview(AT, 'San Diego'), { status: 'rejected' });
    await setAd(await adInReview(AT, 'Fresno'), { status: 'live', approved_at: AT });
    await adInReview(AT, 'Oakland');
    await t.sql.run(
      `INSERT INTO reports (ad_id, reported_account_id, reporter_key, reason, ad_copy, created_at)
       VALUES (?, 7, 'account:8', 'spam', '{}', ?)`,
      approved,
      LATER,
    );
    expect(await t.store.moderation.poster(7)).toEqual({
      accountId: 7,
      email: 'ana@example.com',
      createdAt: AT,
      role: 'member',
      bannedAt: null,
      approved: 2,
      rejected: 1,
      removed: 1,
      reports: 1,
      adsInReview: 1,
      adsLive: 1,
    });
    expect(await t.store.moderation.poster(8)).toMatchObject({
      approved: 0,
      adsLive: 0,
      reports: 0,
    });
    expect(await t.store.moderation.poster(99)).toBeUndefined();
    expect(await t.store.moderation.poster(2 ** 31)).toBeUndefined();
    expect(await t.store.moderation.account(999_999_999_999_999)).toBeUndefined();
    const ben = { accountId: 8, email: 'ben@example.com', role: 'member', bannedAt: null };
    expect(await t.store.moderation.account(8)).toEqual(ben);
    expect(await t.store.moderation.accountByEmail('ben@example.com')).toEqual(ben);
    expect(await t.store.moderation.accountByEmail('nobody@example.com')).toBeUndefined();
  });

  it('approves a new ad, and an edit, only at the revision and in the status seen', async () => {
    const id = await adInReview();
    const days = { postedOn: '2026-11-21', expiresOn: '2026-12-21' };
    expect(await t.store.moderation.approveNew(id, 2, LATER, days)).toBe(false);
    expect(await t.store.moderation.approveEdit(id, 1, LATER)).toBe(false);
    expect(await t.store.moderation.approveNew(id, 1, LATER, days)).toBe(true);
    expect(await t.store.memberAds.find(id)).toMatchObject({
      status: 'live',
      approvedAt: LATER,
      postedOn: '2026-11-21',
      expiresOn: '2026-12-21',
      revision: 2,
    });
    const edit = { age: 40, seeks: 'm4m' as const, title: 'Edited', description: 'New text.' };
    expect(await t.store.memberAds.setPendingEdit(id, 2, edit, '["e"]', LATER)).toBe(true);
    expect(await t.store.moderation.approveNew(id, 3, LATER, days)).toBe(false);
    expect(await t.store.moderation.approveEdit(id, 3, LATER)).toBe(true);
    expect(await t.store.memberAds.find(id)).toMatchObject({
      ...edit,
      marks: '["e"]',
      pendingTitle: null,
      pendingSeeks: null,
      pendingMarks: null,
      expiresOn: '2026-12-21',
      revision: 4,
    });
    expect(await t.store.moderation.waitingCount()).toBe(0);
  });

  it('rejects a new ad or an edit, and removes a live ad with its edit', async () => {
    const id = await adInReview();
    expect(await t.store.moderation.rejectEdit(id, 1, WHY, LATER)).toBe(false);
    expect(await t.store.moderation.rejectNew(id, 1, WHY, LATER)).toBe(true);
    expect(await t.store.memberAds.find(id)).toMatchObject({
      status: 'rejected',
      rejectedReason: WHY.reason,
      rejectedNote: WHY.note,
      revision: 2,
    });

    const live = await adInReview(AT, 'San Diego');
    await setAd(live, { status: 'live', expires_on: '2026-12-20', pending_title: 'Pending' });
    expect(await t.store.moderation.rejectEdit(live, 1, { reason: 'Other' }, LATER)).toBe(true);
    expect(await t.store.memberAds.find(live)).toMatchObject({
      status: 'live',
      title: AD.title,
      pendingTitle: null,
      rejectedReason: 'Other',
      rejectedNote: null,
      revision: 2,
    });
    await setAd(live, { pending_title: 'Again' });
    expect(await t.store.moderation.removeLive(live, 1, WHY, LATER)).toBe(false);
    expect(await t.store.moderation.removeLive(live, 2, WHY, LATER)).toBe(true);
    expect(await t.store.memberAds.find(live)).toMatchObject({
      status: 'removed',
      pendingTitle: null,
      rejectedReason: WHY.reason,
      revision: 3,
    });
    expect(await t.store.moderation.removeLive(id, 2, WHY, LATER)).toBe(false);
  });

  it('bans an account once, keeping its address, and removes all of its ads in review or live', async () => {
    const inReview = await adInReview();
    const live = await adInReview(AT, 'San Diego');
    await setAd(live, { status: 'live', expires_on: '2026-12-20' });
    const rejected = await adInReview(AT, 'Fresno');
    await setAd(rejected, { status: 'rejected' });
    expect(await t.store.moderation.adsInReviewOrLiveOf(7)).toEqual([
      { id: inReview, status: 'review' },
      { id: live, status: 'live' },
    ]);
    expect(await t.store.moderation.removeAllOf(7, WHY, LATER)).toBe(2);
    expect(await t.store.moderation.adsInReviewOrLiveOf(7)).toEqual([]);
    expect((await t.store.memberAds.find(live))?.status).toBe('removed');
    expect((await t.store.memberAds.find(rejected))?.status).toBe('rejected');

    expect(await t.store.moderation.ban(7, 'ana@example.com', LATER)).toBe(true);
    expect(await t.store.moderation.ban(7, 'ana@example.com', LATER)).toBe(false);
    expect(await t.store.moderation.account(7)).toMatchObject({ bannedAt: LATER });
    expect(await t.sql.all('SELECT email, banned_at FROM banned_emails')).toEqual([
      { email: 'ana@example.com', banned_at: LATER },
    ]);
  });

  it('gives and takes the moderator role', async () => {
    await t.store.moderation.setRole(8, 'moderator');
    expect((await t.store.moderation.account(8))?.role).toBe('moderator');
    await t.store.moderation.setRole(8, 'member');
    expect((await t.store.moderation.account(8))?.role).toBe('member');
  });
});
