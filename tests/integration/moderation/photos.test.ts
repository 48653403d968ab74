// Moderation of members' photos (docs/product.md section 10), in-process on a real database: the
// queue shows an ad's photos large with their numbers, alt texts and flags, and an edit's photos
// before and after; approving and rejecting move the photo lists and delete the photos no list
// keeps (rows and bytes); a moderator removes one photo (the member is told the reason, its bytes
// kept for moderators only while it can be appealed, its hash is blocked, the log says so), as a form post and as JSON, and only a moderator can;
// an ad removed, rejected or banned away as "under 18" or "someone else's photos" blocks every
// photo of it. Photos are real uploads processed by the worker pool (keepUploadedPhoto).
import { beforeAll, describe, expect, test } from 'vitest';
import { KNOWN_PHOTO_REFUSED } from '../../../server/photos/known-photos.ts';
import { MODERATION_REASONS } from '../../../core/schemas/moderation-reasons.ts';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { cookieHeader, FORM_TYPE, JSON_TYPE, ORIGIN } from '../../helpers/api.ts';
import {
  approveInStore,
  insertAdInReview,
  insertLiveAdWithEdit,
  type TestMember,
} from '../../helpers/moderation.ts';
import { nearCopy, smallJpeg } from '../../helpers/photo-fixtures.ts';
import { textOf } from '../../helpers/html-text.ts';
import {
  banAccountApiPath,
  photoSizeApiPath,
  moderatePath,
  removePhotoApiPath,
} from '../../../core/paths.ts';
import { storedRow, storedRows } from '../../helpers/stored-rows.ts';

const t = moderationWorld({ moderators: 1, photos: true });
const [moderator] = t.moderators;
let poster: TestMember;
beforeAll(async () => {
  poster = await t.signUpMember('photos');
});

// Every test draws its own pictures (seeds), so that no two tests' photos look alike.
let nextSeed = 2000;
const photo = (width = 1600, height = 1200) => smallJpeg(nextSeed++, width, height);
// SQLite gives a deleted photo's id to the next one: blocked rows are told apart by their hash too.
const phashes = new Map<number, string>();
async function keepFor(accountId: number, bytes?: Buffer) {
  const id = await t.keptPhotoId(accountId, bytes ?? (await photo()));
  phashes.set(id, (await t.store.photos.find(id))!.phash);
  return id;
}
const keep = (bytes?: Buffer) => keepFor(poster.accountId, bytes);

/** The text of the page without tags, white space folded. */

const queueItemHtml = (adId: number) => t.queueItem(adId, moderator.session);

const photoList = async (adId: number) => {
  const ad = (await t.store.memberAds.find(adId))!;
  return {
    photos: ad.photos.map((ref) => ref.id),
    pending: ad.pendingPhotos?.map((ref) => ref.id) ?? null,
  };
};

const photoRow = (id: number) =>
  storedRow<{
    removed_reason: string | null;
    removed_note: string | null;
    removed_at: string | null;
  }>(t, 'SELECT removed_reason, removed_note, removed_at FROM photos WHERE id = ?', id);

/** The blocked hashes a photo left (this photo's: see `phashes`). */
const blockedOf = (photoId: number) =>
  storedRows<{ reason: string; ad_id: number | null }>(
    t,
    'SELECT reason, ad_id FROM blocked_photos WHERE photo_id = ? AND phash = ? ORDER BY id',
    photoId,
    phashes.get(photoId)!,
  );

const preview = (id: number, width: number) =>
  t.getPage(photoSizeApiPath(id, width), moderator.session);

describe('the queue', () => {
  test("shows a new ad's photos large, numbered, with their alt texts, and the flag of one that looks like a removed photo", async () => {
    // A photo removed earlier as spam: a copy of it is accepted, flagged for the moderator.
    const removedBefore = await photo();
    const gone = await keep(removedBefore);
    const goneRow = (await t.store.photos.find(gone))!;
    await t.store.photos.block({
      phash: goneRow.phash,
      reason: 'spam',
      photoId: gone,
      adId: null,
      blockedAt: '2026-10-02T10:00:00.000Z',
    });
    const first = await keep();
    const second = await keep(await nearCopy(removedBefore));
    expect((await t.store.photos.find(second))!.flag).not.toBeNull();
    const adId = await insertAdInReview(t, {
      accountId: poster.accountId,
      title: 'Dinner and a film',
    });
    await t.putPhotosOnAd(adId, poster.accountId, [first, second]);

    const item = await queueItemHtml(adId);
    expect(textOf(item)).toContain('Photos (2)');
    // Large enough to judge: the 1280 size through the server, 640 in srcset, its size set.
    expect(item).toContain(`src="${photoSizeApiPath(first, 1280)}"`);
    expect(item).toContain(`${photoSizeApiPath(first, 640)} 640w`);
    expect(item).toMatch(
      new RegExp(`src="${photoSizeApiPath(first, 1280)}"[^>]*width="1280" height="960"`),
    );
    expect(item).toContain('alt="Photo 1 of 2: Dinner and a film"');
    expect(textOf(item)).toContain(
      'Photo 1 of 2 Alt text (default): Photo 1 of 2: Dinner and a film',
    );
    expect(textOf(item)).toContain('Photo 2 of 2');
    // The flag, on the second photo only.
    const flags = item.match(/queue-photo__flag/g) ?? [];
    expect(flags).toHaveLength(1);
    const secondFigure = item.slice(item.indexOf(photoSizeApiPath(second, 1280)));
    expect(textOf(secondFigure)).toContain(
      'Looks like a photo removed on 2026-10-02 (Spam or duplicate).',
    );
    const firstFigure = item.slice(
      item.indexOf(photoSizeApiPath(first, 1280)),
      item.indexOf(photoSizeApiPath(second, 1280)),
    );
    expect(firstFigure).not.toContain('Looks like a photo removed');
    // A remove form for each, posting without JavaScript.
    expect(item).toContain(`action="${removePhotoApiPath(first)}"`);
    expect(item).toContain(`action="${removePhotoApiPath(second)}"`);
    // The moderator can open the size shown.
    const shown = await preview(first, 1280);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('image/webp');
  });

  test("shows a live ad's edit of its photos: after the edit (which are new) and the live ones now (which go)", async () => {
    const [kept, leaving, added] = [await keep(), await keep(), await keep()];
    const adId = await insertLiveAdWithEdit(t, {
      accountId: poster.accountId,
      title: 'Live title',
      pendingTitle: 'Live title',
    });
    await t.putPhotosOnAd(adId, poster.accountId, [kept, leaving], [kept, added]);
    const item = await queueItemHtml(adId);
    const text = textOf(item);
    expect(text).toContain('The edit changes the photos.');
    expect(text).toContain('Photos after the edit (2)');
    expect(text).toContain('Photos of the live ad now (2)');
    const after = item.slice(
      item.indexOf('Photos after the edit'),
      item.indexOf('Photos of the live ad now'),
    );
    const before = item.slice(item.indexOf('Photos of the live ad now'));
    expect(after).toContain(photoSizeApiPath(kept, 1280));
    expect(after).toContain(photoSizeApiPath(added, 1280));
    expect(after).not.toContain(photoSizeApiPath(leaving, 1280));
    expect(textOf(after.slice(after.indexOf(photoSizeApiPath(added, 1280))))).toContain(
      'New in this edit',
    );
    expect(textOf(after.slice(0, after.indexOf(photoSizeApiPath(added, 1280))))).not.toContain(
      'New in this edit',
    );
    expect(before).toContain(photoSizeApiPath(leaving, 1280));
    expect(textOf(before.slice(before.indexOf(photoSizeApiPath(leaving, 1280))))).toContain(
      'Taken out by this edit',
    );
    // One remove form a photo: the kept one's is on the list after the edit only.
    expect(item.match(new RegExp(removePhotoApiPath(kept), 'g'))).toHaveLength(1);
    expect(before).toContain(removePhotoApiPath(leaving));
  });

  test('an ad with an edit of its photos only waits in the queue', async () => {
    const [one, two] = [await keep(), await keep()];
    const adId = await insertAdInReview(t, { accountId: poster.accountId });
    await approveInStore(t, adId, { postedOn: '2026-11-01', expiresOn: '2026-12-01' });
    await t.putPhotosOnAd(adId, poster.accountId, [one], [one, two]);
    const item = await queueItemHtml(adId);
    expect(textOf(item)).toContain('Edit of a live ad');
    expect(textOf(item)).toContain('The edit changes the photos.');
  });
});

describe('approve and reject', () => {
  test('approving a new ad puts its photos live as they are', async () => {
    const [one, two] = [await keep(), await keep()];
    const adId = await insertAdInReview(t, { accountId: poster.accountId });
    await t.putPhotosOnAd(adId, poster.accountId, [one, two]);
    const response = await t.decideOnAd(adId, 'approve', {}, moderator.session, 'json');
    expect(response.status).toBe(200);
    expect((await t.storedAd(adId)).status).toBe('live');
    expect(await photoList(adId)).toEqual({ photos: [one, two], pending: null });
  });

  test('approving an edit: its photos go live, and the live photos it left out are deleted, rows and bytes', async () => {
    const [kept, leaving, added] = [await keep(), await keep(), await keep()];
    const leavingKeys = await t.keysOfPhoto(leaving);
    expect(await t.blobsLeft(leavingKeys)).toBe(3);
    const adId = await insertLiveAdWithEdit(t, {
      accountId: poster.accountId,
      pendingTitle: 'New title',
    });
    await t.putPhotosOnAd(adId, poster.accountId, [kept, leaving], [added, kept]);
    const response = await t.decideOnAd(adId, 'approve', {}, moderator.session);
    expect(response.status).toBe(303);
    expect(await photoList(adId)).toEqual({ photos: [added, kept], pending: null });
    expect((await t.storedAd(adId)).title).toBe('New title');
    expect(await t.store.photos.find(leaving)).toBeUndefined();
    expect(await t.blobsLeft(leavingKeys)).toBe(0);
    expect(await t.store.photos.find(kept)).toBeDefined();
    expect(await t.store.photos.find(added)).toBeDefined();
    // Off the queue.
    expect(await t.getPage(moderatePath(), moderator.session).then((r) => r.text())).not.toContain(
      `id="ad-${adId}"`,
    );
  });

  test('rejecting an edit: the live photos stay, the photos only the edit had are deleted', async () => {
    const [live, added] = [await keep(), await keep()];
    const addedKeys = await t.keysOfPhoto(added);
    const adId = await insertLiveAdWithEdit(t, {
      accountId: poster.accountId,
      pendingTitle: 'Edited title',
    });
    await t.putPhotosOnAd(adId, poster.accountId, [live], [live, added]);
    const response = await t.decideOnAd(
      adId,
      'reject',
      { reason: 'explicit' },
      moderator.session,
      'json',
    );
    expect(response.status).toBe(200);
    expect(await photoList(adId)).toEqual({ photos: [live], pending: null });
    expect(await t.store.photos.find(added)).toBeUndefined();
    expect(await t.blobsLeft(addedKeys)).toBe(0);
    expect(await t.blobsLeft(await t.keysOfPhoto(live))).toBe(3);
    // Explicit is not a reason that blocks photos like them.
    expect(await blockedOf(live)).toEqual([]);
  });
});

describe('removing one photo', () => {
  test('as a form post: the member sees the reason, the bytes are kept for moderators only, the hash is blocked, the log and a mail say so', async () => {
    const [removed, stays] = [await keep(), await keep()];
    const keys = await t.keysOfPhoto(removed);
    const adId = await insertAdInReview(t, {
      accountId: poster.accountId,
      title: 'Photo walk',
    });
    await t.putPhotosOnAd(adId, poster.accountId, [removed, stays]);
    const response = await t.postForm(
      removePhotoApiPath(removed),
      { reason: 'explicit', note: 'Nudity is not allowed.' },
      moderator.session,
    );
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location).toBe(`/moderate?done=photo-removed&photo=${removed}&ad=${adId}#ad-${adId}`);
    const after = await t.getPage(location.split('#')[0]!, moderator.session);
    expect(textOf(await after.text())).toContain(`Photo ${removed} removed from ad ${adId}`);

    // The ad keeps the other photo, and is still waiting for review.
    expect(await photoList(adId)).toEqual({ photos: [stays], pending: null });
    expect((await t.storedAd(adId)).status).toBe('review');
    // The member's pages read the reason: its key, whose label is the reason's.
    const row = (await photoRow(removed))!;
    expect(row.removed_reason).toBe('explicit');
    expect(MODERATION_REASONS[row.removed_reason as 'explicit']).toBe('Explicit content');
    expect(row.removed_note).toBe('Nudity is not allowed.');
    // Its sizes and bytes are kept for an appeal (photo-appeals.test.ts): its member is not shown
    // it any more, a moderator is.
    expect(await t.keysOfPhoto(removed)).toEqual(keys);
    expect(await t.blobsLeft(keys)).toBe(keys.length);
    const asMember = await t.getPage(photoSizeApiPath(removed, 1280), poster.session);
    expect(asMember.status).toBe(404);
    expect((await preview(removed, 1280)).status).toBe(200);
    // Known from now on, for the reason given.
    expect(await blockedOf(removed)).toEqual([
      expect.objectContaining({ reason: 'explicit', ad_id: adId }),
    ]);
    const log = (await t.logRows()).at(-1)!;
    expect(log).toMatchObject({
      action: 'remove-photo',
      ad_id: adId,
      account_id: poster.accountId,
      account_email: poster.email,
      moderator_email: moderator.email,
      reason: 'Explicit content',
      note: `Photo ${removed}. Nudity is not allowed.`,
    });
    const mail = (await t.mailsOf(poster.email)).at(-1)!;
    expect(mail.subject).toBe('A photo was removed from your ad');
    expect(mail.text).toContain('Reason: Explicit content.');
    expect(mail.text).toContain("Moderator's note: Nudity is not allowed.");
    // The queue no longer shows it.
    const item = await queueItemHtml(adId);
    expect(item).not.toContain(`/api/photos/${removed}/`);
    expect(textOf(item)).toContain('Photos (1)');
  });

  test("as JSON, from a live ad's photos and its pending edit's at once; published; a second removal is told", async () => {
    const [removed, other] = [await keep(), await keep()];
    const adId = await insertLiveAdWithEdit(t, {
      accountId: poster.accountId,
      pendingTitle: 'Edited',
    });
    await t.putPhotosOnAd(adId, poster.accountId, [removed], [other, removed]);
    const published = t.publisher.reasons.length;
    const response = await t.postJson(
      removePhotoApiPath(removed),
      { reason: 'spam' },
      moderator.session,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      photoId: removed,
      adId,
      removed: true,
      reason: 'spam',
    });
    expect(await photoList(adId)).toEqual({ photos: [], pending: [other] });
    expect(t.publisher.reasons.slice(published)).toEqual([
      `removed photo ${removed} of ad ${adId}`,
    ]);
    expect((await photoRow(removed))!.removed_note).toBeNull();

    const again = await t.postJson(
      removePhotoApiPath(removed),
      { reason: 'explicit' },
      moderator.session,
    );
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatch(
      /^This photo was already removed \(.* UTC, Spam or duplicate\)\. Nothing was changed\.$/,
    );
    expect(await blockedOf(removed)).toHaveLength(1);
  });

  test('a refused form post shows the queue again with the message, the note kept and the form open', async () => {
    const photoId = await keep();
    const adId = await insertAdInReview(t, { accountId: poster.accountId });
    await t.putPhotosOnAd(adId, poster.accountId, [photoId]);
    const response = await t.postForm(
      removePhotoApiPath(photoId),
      { reason: '', note: 'Typed note' },
      moderator.session,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(textOf(html)).toContain('Choose a reason.');
    const item = html.slice(html.indexOf(`id="ad-${adId}"`));
    // The remove disclosure left open, as the moderator sees it again: the class names which one.
    expect(item).toMatch(/<details class="queue-photo__remove" open="">/);
    expect(item).toContain('Typed note</textarea>');
    expect((await photoRow(photoId))!.removed_at).toBeNull();
  });

  test('unknown photos and bad input are 4xx with a message', async () => {
    const missing = await t.postJson(
      removePhotoApiPath(999_999_999),
      { reason: 'spam' },
      moderator.session,
    );
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'There is no photo 999999999.' });
    const photoId = await keep();
    const bad = await t.postJson(
      removePhotoApiPath(photoId),
      { reason: 'nope', extra: 1 },
      moderator.session,
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/Unexpected field: extra|Unknown reason/);
  });

  test('is an unknown API path to visitors and members, JSON or form, and changes nothing', async () => {
    const photoId = await keep();
    const member = await t.signUpMember('not-moderator');
    const answer = async (path: string, init: RequestInit) => {
      const response = await t.app.request(`${ORIGIN}${path}`, init);
      return { status: response.status, body: await response.text() };
    };
    for (const session of [undefined, member.session, poster.session])
      for (const [type, body] of [
        [JSON_TYPE, JSON.stringify({ reason: 'spam' })],
        [FORM_TYPE, 'reason=spam'],
      ] as const) {
        const init = {
          method: 'POST',
          headers: {
            'content-type': type,
            origin: ORIGIN,
            ...(session ? cookieHeader(session) : {}),
          },
          body,
        };
        const unknown = await answer('/api/moderate/photos/1/no-such-action', init);
        expect(unknown.status).toBe(404);
        expect(await answer(removePhotoApiPath(photoId), init)).toEqual(unknown);
      }
    expect((await photoRow(photoId))!.removed_at).toBeNull();
    expect(await blockedOf(photoId)).toEqual([]);
  });
});

describe('ads removed for "under 18" or "someone else\'s photos" block all their photos', () => {
  test("a live ad removed as under 18: every photo of it, its pending edit's too", async () => {
    const [one, two, pendingOnly] = [await keep(), await keep(), await keep()];
    const adId = await insertLiveAdWithEdit(t, {
      accountId: poster.accountId,
      pendingTitle: 'Edited',
    });
    await t.putPhotosOnAd(adId, poster.accountId, [one, two], [one, two, pendingOnly]);
    const pendingKeys = await t.keysOfPhoto(pendingOnly);
    const response = await t.decideOnAd(adId, 'remove', { reason: 'under-18' }, moderator.session);
    expect(response.status).toBe(303);
    for (const id of [one, two, pendingOnly])
      expect(await blockedOf(id)).toEqual([
        expect.objectContaining({ reason: 'under-18', ad_id: adId }),
      ]);
    // The pending edit went with the ad; its own photo is deleted.
    expect(await photoList(adId)).toEqual({ photos: [one, two], pending: null });
    expect(await t.store.photos.find(pendingOnly)).toBeUndefined();
    expect(await t.blobsLeft(pendingKeys)).toBe(0);
  });

  test("a new ad rejected as someone else's photos, and a ban as under 18", async () => {
    const rejectedPhoto = await keep();
    const rejected = await insertAdInReview(t, { accountId: poster.accountId });
    await t.putPhotosOnAd(rejected, poster.accountId, [rejectedPhoto]);
    const reject = await t.decideOnAd(
      rejected,
      'reject',
      { reason: 'identity' },
      moderator.session,
      'json',
    );
    expect(reject.status).toBe(200);
    expect(await blockedOf(rejectedPhoto)).toEqual([
      expect.objectContaining({ reason: 'identity', ad_id: rejected }),
    ]);

    const banned = await t.signUpMember('banned');
    const [a, b] = [await keepFor(banned.accountId), await keepFor(banned.accountId)];
    const inReview = await insertAdInReview(t, { accountId: banned.accountId });
    await t.putPhotosOnAd(inReview, banned.accountId, [a]);
    const live = await insertLiveAdWithEdit(t, {
      accountId: banned.accountId,
      pendingTitle: 'x',
    });
    await t.putPhotosOnAd(live, banned.accountId, [b]);
    const ban = await t.postJson(
      banAccountApiPath(banned.accountId),
      { reason: 'under-18' },
      moderator.session,
    );
    expect(ban.status).toBe(200);
    expect(await blockedOf(a)).toEqual([
      expect.objectContaining({ reason: 'under-18', ad_id: inReview }),
    ]);
    expect(await blockedOf(b)).toEqual([
      expect.objectContaining({ reason: 'under-18', ad_id: live }),
    ]);
  });

  test('a live ad removed as spam blocks none of its photos', async () => {
    const one = await keep();
    const adId = await insertLiveAdWithEdit(t, {
      accountId: poster.accountId,
      pendingTitle: 'x',
    });
    await t.putPhotosOnAd(adId, poster.accountId, [one]);
    const response = await t.decideOnAd(
      adId,
      'remove',
      { reason: 'spam' },
      moderator.session,
      'json',
    );
    expect(response.status).toBe(200);
    expect(await blockedOf(one)).toEqual([]);
  });
});

describe('known photos, as uploads meet them (keepUploadedPhoto)', () => {
  async function removedAs(reason: string) {
    const original = await photo(800, 600);
    const id = await keep(original);
    const adId = await insertAdInReview(t, { accountId: poster.accountId });
    await t.putPhotosOnAd(adId, poster.accountId, [id]);
    const response = await t.postJson(removePhotoApiPath(id), { reason }, moderator.session);
    expect(response.status).toBe(200);
    return original;
  }

  test('a copy of a photo removed as identity is refused, and nothing is stored', async () => {
    const original = await removedAs('identity');
    const photosBefore = await storedRow<{ n: number }>(t, 'SELECT count(*) AS n FROM photos');
    const again = await t.keepPhoto(poster.accountId, await nearCopy(original));
    expect(again).toEqual({ ok: false, problem: KNOWN_PHOTO_REFUSED });
    expect(await storedRow<{ n: number }>(t, 'SELECT count(*) AS n FROM photos')).toEqual(
      photosBefore,
    );
  });

  test('a copy of a photo removed as spam is accepted, flagged for the moderator', async () => {
    const original = await removedAs('spam');
    const again = await t.keepPhoto(poster.accountId, await nearCopy(original));
    const today = new Date().toISOString().slice(0, 10);
    expect(again).toEqual({
      ok: true,
      id: expect.any(Number),
      flag: `Looks like a photo removed on ${today} (Spam or duplicate).`,
    });
  });

  test('an unrelated photo passes clean', async () => {
    await removedAs('identity');
    const unrelated = await t.keepPhoto(poster.accountId, await photo(800, 600));
    expect(unrelated).toEqual({ ok: true, id: expect.any(Number), flag: null });
  });
});
