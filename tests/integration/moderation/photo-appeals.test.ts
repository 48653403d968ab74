// A removed photo kept for its appeal (docs/product.md sections 6 and 10, issue 30), in-process on
// a real store with real uploads (the worker pool), every form a plain POST: a moderator removes a
// photo from a live ad; its member and the public no longer get it, moderators still do (the
// appeal page shows it as it was); the member appeals; the moderator who removed it is refused,
// another reverses it: the photo is back in its place on the ad, the ad published again, its hash
// no longer refuses a re-upload, the same bytes served. Upheld, or its 6 months over without an
// appeal, the sweep deletes its sizes (the store's clock moved, never real waiting); removed as
// under 18, a year at least; an account deleted by its member erases its kept photos at once. An
// ad removed as someone else's photos, reversed, no longer blocks its photos' hashes.
import { describe, expect, test } from 'vitest';
import { KNOWN_PHOTO_REFUSED } from '../../../server/photos/known-photos.ts';
import { sweepPhotos } from '../../../server/photos/sweeps.ts';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { type TestMember } from '../../helpers/moderation.ts';
import { smallJpeg } from '../../helpers/photo-fixtures.ts';
import { insertLiveAd } from '../../helpers/reports.ts';
import { photoSizeApiPath, moderateAppealsPath, removePhotoApiPath } from '../../../core/paths.ts';
import { storedRow, storedRows } from '../../helpers/stored-rows.ts';

const t = moderationWorld({ moderators: 2, photos: true });
const [moderatorA, moderatorB] = t.moderators;

const DAY_MS = 24 * 60 * 60 * 1000;
const daysLater = (days: number) => new Date(Date.now() + days * DAY_MS);

// Every test draws its own pictures, so that no two tests' photos look alike.
let nextSeed = 7100;
const picture = () => smallJpeg(nextSeed++, 1600, 1200);

/** A live ad of a new member's with three photos; the member, the ad and the photos' ids. */
async function liveAdWithPhotos(label: string, middle: Buffer) {
  const member = await t.signUpMember(label);
  const ids = [
    await t.keptPhotoId(member.accountId, await picture()),
    await t.keptPhotoId(member.accountId, middle),
    await t.keptPhotoId(member.accountId, await picture()),
  ];
  const adId = await insertLiveAd(t, { accountId: member.accountId, title: `${label} walk` });
  await t.putPhotosOnAd(adId, member.accountId, ids);
  return { member, adId, ids };
}

const removePhoto = (photoId: number, reason: string, session: string) =>
  t.postForm(removePhotoApiPath(photoId), { reason }, session);

const photoIdsOf = async (adId: number) =>
  (await t.store.memberAds.find(adId))!.photos.map((ref) => ref.id);

/** The ids the build's snapshot publishes for the ad's photos. */
async function publishedPhotoIds(adId: number) {
  const rows = await t.store.publishedAds.snapshot((snapshot) => snapshot.rows(adId, adId + 1));
  return rows.find((row) => row.id === adId)?.photos.map((photo) => photo.id) ?? [];
}

const statementOfPhoto = async (photoId: number) =>
  (await storedRow<{ id: number }>(
    t,
    "SELECT id FROM decision_statements WHERE kind = 'photo-removed' AND photo_id = ?",
    photoId,
  ))!.id;

const appealPhoto = async (photoId: number, member: TestMember) =>
  t.appealFiled(
    await statementOfPhoto(photoId),
    member,
    'This is my own photo, taken by a friend on a hike.',
  );

const blockedRows = (photoId: number) =>
  storedRows(t, 'SELECT id FROM blocked_photos WHERE photo_id = ?', photoId);

describe('a removed photo reversed on appeal', () => {
  test('kept for moderators only, shown on the appeal, then back in its place with the same bytes', async () => {
    const middle = await picture();
    const { member, adId, ids } = await liveAdWithPhotos('reversed', middle);
    const photoId = ids[1]!;
    const before = await t.photoSize(photoId, member.session);
    expect(before.status).toBe(200);
    const keys = await t.keysOfPhoto(photoId);

    expect((await removePhoto(photoId, 'identity', moderatorA.session)).status).toBe(303);
    expect(await photoIdsOf(adId)).toEqual([ids[0], ids[2]]);
    expect(await publishedPhotoIds(adId)).toEqual([ids[0], ids[2]]);
    // Out of public reach, and out of its member's: only moderators get its bytes.
    expect((await t.photoSize(photoId)).status).toBe(404);
    expect((await t.photoSize(photoId, member.session)).status).toBe(404);
    const kept = await t.photoSize(photoId, moderatorB.session);
    expect(kept.status).toBe(200);
    expect(kept.bytes.equals(before.bytes)).toBe(true);
    expect(await t.blobsLeft(keys)).toBe(keys.length);
    // Its hash refuses the same picture meanwhile (someone else's photos).
    expect(await t.keepPhoto(member.accountId, middle)).toEqual({
      ok: false,
      problem: KNOWN_PHOTO_REFUSED,
    });
    // The member reads that it is kept for the appeal.
    const statementId = await statementOfPhoto(photoId);
    const decision = await t.getPage(`/account/decisions/${statementId}`, member.session);
    expect(await decision.text()).toContain('we keep the photo where only moderators can see it');
    // Hourly sweeps before the deadline leave it.
    await sweepPhotos(t.store, t.photos.storage, daysLater(150));
    expect(await t.keysOfPhoto(photoId)).toEqual(keys);

    const appealId = await appealPhoto(photoId, member);
    const page = await (await t.getPage(moderateAppealsPath(), moderatorB.session)).text();
    const item = page.slice(page.indexOf(`id="appeal-${appealId}-title"`));
    expect(item).toContain(`src="${photoSizeApiPath(photoId, 1280)}"`);
    expect(item).toContain('The removed photo as it was.');

    expect(
      (await t.decideAppeal(appealId, { outcome: 'reversed' }, moderatorA.session)).status,
    ).toBe(403);
    expect(await photoIdsOf(adId)).toEqual([ids[0], ids[2]]);
    const published = t.publisher.reasons.length;
    expect(
      (await t.decideAppeal(appealId, { outcome: 'reversed' }, moderatorB.session)).status,
    ).toBe(303);

    // Back in its place, published, served to its member with the same bytes.
    expect(await photoIdsOf(adId)).toEqual(ids);
    expect(await publishedPhotoIds(adId)).toEqual(ids);
    expect(t.publisher.reasons.slice(published)).toEqual([
      `reversed on appeal: photo ${photoId} back on ad ${adId}`,
    ]);
    const after = await t.photoSize(photoId, member.session);
    expect(after.status).toBe(200);
    expect(after.bytes.equals(before.bytes)).toBe(true);
    expect(await storedRow(t, 'SELECT removed_at FROM photos WHERE id = ?', photoId)).toMatchObject(
      {
        removed_at: null,
      },
    );
    // Its hash refuses nothing any more.
    expect(await blockedRows(photoId)).toEqual([]);
    expect(await t.keepPhoto(member.accountId, middle)).toMatchObject({
      ok: true,
      flag: null,
    });
    // And the sweeps leave a photo that is no longer removed, however late.
    await sweepPhotos(t.store, t.photos.storage, daysLater(400));
    expect(await t.keysOfPhoto(photoId)).toEqual(keys);
  });
});

describe('a removed photo no appeal brings back', () => {
  test('upheld: the next sweep deletes its sizes and bytes; the member still reads why', async () => {
    const { member, adId, ids } = await liveAdWithPhotos('upheld', await picture());
    const photoId = ids[0]!;
    const keys = await t.keysOfPhoto(photoId);
    await removePhoto(photoId, 'spam', moderatorA.session);
    const appealId = await appealPhoto(photoId, member);
    // An open appeal keeps it past the 6 months.
    await sweepPhotos(t.store, t.photos.storage, daysLater(200));
    expect(await t.keysOfPhoto(photoId)).toEqual(keys);

    const upheld = await t.decideAppeal(
      appealId,
      { outcome: 'upheld', reply: 'The same photo is on another ad of yours.' },
      moderatorB.session,
    );
    expect(upheld.status).toBe(303);
    expect(await photoIdsOf(adId)).toEqual([ids[1], ids[2]]);
    const sweep = await sweepPhotos(t.store, t.photos.storage, new Date());
    expect(sweep.removedKept).toBeGreaterThanOrEqual(1);
    expect(await t.keysOfPhoto(photoId)).toEqual([]);
    expect(await t.blobsLeft(keys)).toBe(0);
    expect((await t.photoSize(photoId, moderatorB.session)).status).toBe(404);
    // The row stays: the member's decision still names it and why.
    expect(
      await storedRow(t, 'SELECT removed_reason FROM photos WHERE id = ?', photoId),
    ).toMatchObject({ removed_reason: 'spam' });
    // Its hash stays known.
    expect(await blockedRows(photoId)).toHaveLength(1);
  });

  test('not appealed: kept to the end of its 6 months, deleted by the sweep after', async () => {
    const { ids } = await liveAdWithPhotos('unappealed', await picture());
    const photoId = ids[2]!;
    const keys = await t.keysOfPhoto(photoId);
    await removePhoto(photoId, 'explicit', moderatorA.session);
    await sweepPhotos(t.store, t.photos.storage, daysLater(180));
    expect(await t.keysOfPhoto(photoId)).toEqual(keys);
    await sweepPhotos(t.store, t.photos.storage, daysLater(185));
    expect(await t.keysOfPhoto(photoId)).toEqual([]);
    expect(await t.blobsLeft(keys)).toBe(0);
  });

  test('removed as under 18: kept a year, upheld or not, never shown to its member', async () => {
    const { member, ids } = await liveAdWithPhotos('preserved', await picture());
    const photoId = ids[1]!;
    const keys = await t.keysOfPhoto(photoId);
    await removePhoto(photoId, 'under-18', moderatorA.session);
    const appealId = await appealPhoto(photoId, member);
    await t.decideAppeal(
      appealId,
      { outcome: 'upheld', reply: 'The person looks under 18.' },
      moderatorB.session,
    );
    await sweepPhotos(t.store, t.photos.storage, daysLater(300));
    expect(await t.keysOfPhoto(photoId)).toEqual(keys);
    expect((await t.photoSize(photoId, member.session)).status).toBe(404);
    const decision = await t.getPage(
      `/account/decisions/${await statementOfPhoto(photoId)}`,
      member.session,
    );
    expect(await decision.text()).toContain('only moderators can see it for a year at least');
    await sweepPhotos(t.store, t.photos.storage, daysLater(366));
    expect(await t.keysOfPhoto(photoId)).toEqual([]);
    expect(await t.blobsLeft(keys)).toBe(0);
  });

  test('an account deleted by its member erases its kept photos at once', async () => {
    const { member, ids } = await liveAdWithPhotos('leaving', await picture());
    const photoId = ids[0]!;
    const keys = await t.keysOfPhoto(photoId);
    await removePhoto(photoId, 'under-18', moderatorA.session);
    expect(await t.blobsLeft(keys)).toBe(keys.length);
    const deleted = await t.deleteAccount(member);
    expect(deleted.status).toBe(303);
    expect(await storedRow(t, 'SELECT id FROM photos WHERE id = ?', photoId)).toBeUndefined();
    expect(await t.keysOfPhoto(photoId)).toEqual([]);
    expect(await t.blobsLeft(keys)).toBe(0);
  });
});

describe('an ad removal reversed', () => {
  test("an ad removed as someone else's photos, reversed: its photos' hashes refuse nothing any more", async () => {
    const middle = await picture();
    const { member, adId, ids } = await liveAdWithPhotos('ad-reversed', middle);
    const removed = await t.decideOnAd(adId, 'remove', { reason: 'identity' }, moderatorA.session);
    expect(removed.status).toBe(303);
    expect(await blockedRows(ids[1]!)).toHaveLength(1);
    expect(await t.keepPhoto(member.accountId, middle)).toEqual({
      ok: false,
      problem: KNOWN_PHOTO_REFUSED,
    });
    const statementId = (await storedRow<{ id: number }>(
      t,
      "SELECT id FROM decision_statements WHERE kind = 'ad-removed' AND ad_id = ?",
      adId,
    ))!.id;
    const appealId = await t.appealFiled(statementId, member, 'These are my own photos.');
    expect(
      (await t.decideAppeal(appealId, { outcome: 'reversed' }, moderatorB.session)).status,
    ).toBe(303);
    for (const id of ids) expect(await blockedRows(id)).toEqual([]);
    expect(await t.keepPhoto(member.accountId, middle)).toMatchObject({ ok: true });
  });
});
