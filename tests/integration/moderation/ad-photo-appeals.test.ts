// The photos of an ad rejected or removed, kept while that decision can be appealed (docs/product.md
// sections 6 and 10, issue 30), in-process on a real store with real uploads (the worker pool),
// every form a plain POST, the sweeps run with a moved clock (never real waiting): a removed ad's
// photos stay past day 30 while its appeal can be filed or is in review, out of public reach (the
// public and other members get nothing, its member and moderators do); reversed after day 30, the
// ad comes back with its photos. Upheld, or its 6 months over without an appeal, the sweep deletes
// them; decided as under 18, a year at least. A ban holds the photos of the ads it removed alike.
// The member deleting the ad erases them at once.
import { beforeAll, describe, expect, test } from 'vitest';
import { sweepPhotos } from '../../../server/photos/sweeps.ts';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { insertAdInReview, type TestMember } from '../../helpers/moderation.ts';
import { smallJpeg } from '../../helpers/photo-fixtures.ts';
import { insertLiveAd } from '../../helpers/reports.ts';
import { deleteAdApiPath } from '../../../core/paths.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

const t = moderationWorld({ moderators: 2, photos: true });
const [moderatorA, moderatorB] = t.moderators;
let stranger: TestMember;
beforeAll(async () => {
  stranger = await t.signUpMember('stranger');
});

const DAY_MS = 24 * 60 * 60 * 1000;
const daysLater = (days: number) => new Date(Date.now() + days * DAY_MS);
const sweepOn = (days: number) => sweepPhotos(t.store, t.photos.storage, daysLater(days));

// Every test draws its own pictures, so that no two tests' photos look alike.
let nextSeed = 8300;
const picture = () => smallJpeg(nextSeed++, 1600, 1200);

/** A new member's ad (live, or in review) with two photos; the member, the ad, photo ids, keys. */
async function adWithPhotos(label: string, status: 'live' | 'review' = 'live') {
  const member = await t.signUpMember(label);
  const ids = [
    await t.keptPhotoId(member.accountId, await picture()),
    await t.keptPhotoId(member.accountId, await picture()),
  ];
  const ad = { accountId: member.accountId, title: `${label} walks` };
  const adId = status === 'live' ? await insertLiveAd(t, ad) : await insertAdInReview(t, ad);
  await t.putPhotosOnAd(adId, member.accountId, ids);
  const keys = [...(await t.keysOfPhoto(ids[0]!)), ...(await t.keysOfPhoto(ids[1]!))];
  return { member, adId, ids, keys };
}

/** The moderator's decision on the ad ('remove' a live one, 'reject' one in review). */
async function decideOnAd(adId: number, action: 'remove' | 'reject', reason: string) {
  expect((await t.decideOnAd(adId, action, { reason }, moderatorA.session)).status).toBe(303);
  return (await storedRow<{ id: number }>(
    t,
    "SELECT id FROM decision_statements WHERE kind IN ('ad-removed', 'ad-rejected') AND ad_id = ?",
    adId,
  ))!.id;
}

const appealOf = (statementId: number, member: TestMember) =>
  t.appealFiled(statementId, member, 'Nothing in this ad breaks a rule.');

const decideAppeal = (appealId: number, fields: Record<string, string>) =>
  t.decideAppeal(appealId, fields, moderatorB.session);

/** The status of the photo's 1280 size through the server, as `session` asks (none: a visitor). */
const statusOf = async (photoId: number, session?: string) =>
  (await t.photoSize(photoId, session)).status;

const photoRows = async (ids: number[]) => {
  const rows = await Promise.all(
    ids.map((id) => storedRow<{ id: number }>(t, 'SELECT id FROM photos WHERE id = ?', id)),
  );
  return rows.filter(Boolean).length;
};

/** The ids the build's snapshot publishes for the ad's photos. */
async function publishedPhotoIds(adId: number) {
  const rows = await t.store.publishedAds.snapshot((snapshot) => snapshot.rows(adId, adId + 1));
  return rows.find((row) => row.id === adId)?.photos.map((photo) => photo.id) ?? [];
}

describe("a removed ad's photos through its appeal window", () => {
  test('kept past day 30 out of public reach; reversed after, the ad is back with its photos', async () => {
    const { member, adId, ids, keys } = await adWithPhotos('reversed-late');
    const statementId = await decideOnAd(adId, 'remove', 'spam');
    expect(await publishedPhotoIds(adId)).toEqual([]);
    // Nobody but its member and moderators gets them.
    for (const id of ids) {
      expect(await statusOf(id)).toBe(404);
      expect(await statusOf(id, stranger.session)).toBe(404);
      expect(await statusOf(id, member.session)).toBe(200);
      expect(await statusOf(id, moderatorB.session)).toBe(200);
    }
    // Day 45 and day 170: the decision can still be appealed, so the photos stay.
    expect((await sweepOn(45)).ofRejectedAds).toBe(0);
    await sweepOn(170);
    expect(await photoRows(ids)).toBe(2);
    expect(await t.blobsLeft(keys)).toBe(keys.length);

    const appealId = await appealOf(statementId, member);
    // Appealed and in review: past the 6 months still kept.
    await sweepOn(200);
    expect(await t.blobsLeft(keys)).toBe(keys.length);
    expect((await decideAppeal(appealId, { outcome: 'reversed' })).status).toBe(303);

    expect((await t.storedAd(adId)).status).toBe('live');
    expect(await publishedPhotoIds(adId)).toEqual(ids);
    for (const id of ids) expect(await statusOf(id, member.session)).toBe(200);
    // Live again, no sweep takes them however late.
    await sweepOn(400);
    expect(await t.blobsLeft(keys)).toBe(keys.length);
  });

  test('upheld: deleted by the first sweep past day 30', async () => {
    const { member, adId, ids, keys } = await adWithPhotos('upheld-ad');
    const statementId = await decideOnAd(adId, 'remove', 'commercial');
    const appealId = await appealOf(statementId, member);
    const upheld = await decideAppeal(appealId, {
      outcome: 'upheld',
      reply: 'The ad offers paid company.',
    });
    expect(upheld.status).toBe(303);
    // The 30 days the member has to see why still hold.
    await sweepOn(10);
    expect(await photoRows(ids)).toBe(2);
    expect((await sweepOn(31)).ofRejectedAds).toBe(2);
    expect(await photoRows(ids)).toBe(0);
    expect(await t.blobsLeft(keys)).toBe(0);
  });

  test('a rejected ad not appealed: kept to the end of its 6 months, deleted after', async () => {
    const { ids, keys, adId } = await adWithPhotos('rejected-ad', 'review');
    await decideOnAd(adId, 'reject', 'contact');
    expect((await t.storedAd(adId)).status).toBe('rejected');
    await sweepOn(180);
    expect(await photoRows(ids)).toBe(2);
    await sweepOn(185);
    expect(await photoRows(ids)).toBe(0);
    expect(await t.blobsLeft(keys)).toBe(0);
  });

  test('removed as under 18: kept a year even upheld, never to anyone but its member and moderators', async () => {
    const { member, adId, ids, keys } = await adWithPhotos('under-18-ad');
    const statementId = await decideOnAd(adId, 'remove', 'under-18');
    const appealId = await appealOf(statementId, member);
    await decideAppeal(appealId, { outcome: 'upheld', reply: 'The person looks under 18.' });
    await sweepOn(300);
    expect(await photoRows(ids)).toBe(2);
    expect(await statusOf(ids[0]!)).toBe(404);
    expect(await statusOf(ids[0]!, stranger.session)).toBe(404);
    await sweepOn(366);
    expect(await photoRows(ids)).toBe(0);
    expect(await t.blobsLeft(keys)).toBe(0);
  });

  test('a ban holds the photos of the ads it removed while it can be appealed', async () => {
    const { member, adId, ids, keys } = await adWithPhotos('banned-ad');
    const banned = await t.ban(member.accountId, { reason: 'spam' }, moderatorA.session);
    expect(banned.status).toBe(303);
    expect((await t.storedAd(adId)).status).toBe('removed');
    await sweepOn(100);
    expect(await t.blobsLeft(keys)).toBe(keys.length);
    // Appealed through the mail's link (a banned member cannot sign in), reversed after day 30.
    const mail = (await t.mailsOf(member.email)).find((m) => m.subject.endsWith('was closed'));
    const [, id, key] = /\/account\/decisions\/(\d+)\?key=(\w+)/.exec(mail!.text)!;
    const filed = await t.appeal(Number(id), 'I posted once.', undefined, key);
    expect(filed.status).toBe(303);
    const appealId = await t.appealIdOf(Number(id));
    expect((await decideAppeal(appealId, { outcome: 'reversed' })).status).toBe(303);
    expect((await t.storedAd(adId)).status).toBe('live');
    expect(await publishedPhotoIds(adId)).toEqual(ids);
  });

  test('the member deleting the removed ad erases its photos at once', async () => {
    const { member, adId, ids, keys } = await adWithPhotos('deleted-ad');
    await decideOnAd(adId, 'remove', 'spam');
    const deleted = await t.postForm(deleteAdApiPath(adId), {}, member.session);
    expect(deleted.status).toBe(303);
    expect(await photoRows(ids)).toBe(0);
    expect(await t.blobsLeft(keys)).toBe(0);
  });
});
