// What a photo's explicit score does in the moderation queue (docs/product.md section 6, issue 31
// item 2), in-process on a real database (SQLite, and PostgreSQL in the postgres project): with the
// app's threshold set low for the test, a photo over it is blurred (the page holds only its
// server-made blurred rendering, a 24-pixel smudge), labelled "Likely explicit (score …)", and its
// ad comes first; "Show photo" reveals that one photo for that moderator, as a plain form post and
// as JSON; a photo never scored says "Not scored" and is not blurred; a moderator's own "Show all
// photos blurred" blurs every photo; the verifications' review shows a member's photos behind the
// same shield; members and visitors find none of these endpoints (404).
import sharp from 'sharp';
import { beforeAll, describe, expect, test } from 'vitest';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { cookieHeader, ORIGIN } from '../../helpers/api.ts';
import { insertAdInReview, type TestMember } from '../../helpers/moderation.ts';
import { smallJpeg } from '../../helpers/photo-fixtures.ts';
import { textOf } from '../../helpers/html-text.ts';
import {
  blurredPhotoApiPath,
  photoSettingsApiPath,
  photoSizeApiPath,
  moderateAdApiPath,
  moderatePath,
  moderateVerificationsPath,
  revealPhotoApiPath,
  verificationChallengeApiPath,
  verificationSelfieApiPath,
} from '../../../core/paths.ts';
import { photoStoredBeforeScoring, storedRow } from '../../helpers/stored-rows.ts';

/** Low enough that the tests' ordinary pictures (scored 0.001 to 0.07) are over it. */
const THRESHOLD = 0.0001;

const t = moderationWorld({
  moderators: 2,
  photos: true,
  photoExplicitThreshold: THRESHOLD,
});
const [moderator, otherModerator] = t.moderators;
let poster: TestMember;
beforeAll(async () => {
  poster = await t.signUpMember('shield');
});

let nextSeed = 3100;
/** A photo of the poster's, processed and scored by the worker. */
async function scoredPhoto(): Promise<{ id: number; score: number }> {
  const id = await t.keptPhotoId(poster.accountId, await smallJpeg(nextSeed++));
  const score = (await t.store.photos.find(id))!.score!.explicit;
  expect(score).toBeGreaterThanOrEqual(THRESHOLD);
  return { id, score };
}
/**
 * A photo as stored before scoring existed (or whose scoring failed): its score NULL, written
 * directly since no path stores a photo unscored on demand.
 */
async function unscoredPhoto(): Promise<number> {
  const id = await t.keptPhotoId(poster.accountId, await smallJpeg(nextSeed++));
  await photoStoredBeforeScoring(t, id);
  return id;
}
async function adWith(photoIds: number[], minutesAgo: number): Promise<number> {
  const adId = await insertAdInReview(t, {
    accountId: poster.accountId,
    submittedMinutesAgo: minutesAgo,
  });
  await t.putPhotosOnAd(adId, poster.accountId, photoIds);
  return adId;
}

async function queueHtml(session = moderator.session): Promise<string> {
  const response = await t.getPage(moderatePath(), session);
  expect(response.status).toBe(200);
  return response.text();
}
/** The queue's item of one photo (its <li>). */
function photoItem(html: string, photoId: number): string {
  const start = html.indexOf(`id="photo-${photoId}"`);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</li>', start));
}
const isBlurred = (item: string, photoId: number) => {
  const blurred = item.includes(`src="${blurredPhotoApiPath(photoId)}"`);
  // Blurred, the page holds no size of the photo itself; shown, no blurred rendering.
  expect(item.includes(photoSizeApiPath(photoId, 320))).toBe(!blurred);
  return blurred;
};

describe('a photo over the threshold', () => {
  test('is blurred in the queue, labelled with its score, and its ad comes before older ads', async () => {
    const older = await adWith([await unscoredPhoto()], 120);
    const explicit = await scoredPhoto();
    const newer = await adWith([explicit.id], 5);
    const html = await queueHtml();
    expect(html.indexOf(`id="ad-${newer}"`)).toBeGreaterThan(-1);
    expect(html.indexOf(`id="ad-${newer}"`)).toBeLessThan(html.indexOf(`id="ad-${older}"`));
    expect(textOf(html)).toContain('Ads with likely explicit photos are listed first');
    const item = photoItem(html, explicit.id);
    expect(isBlurred(item, explicit.id)).toBe(true);
    const label = `Likely explicit (score ${explicit.score >= 0.01 ? explicit.score.toFixed(2) : String(explicit.score)})`;
    expect(textOf(item)).toContain(label);
    expect(textOf(item)).toContain('Show photo');
    expect(item).toContain(`action="${revealPhotoApiPath(explicit.id)}"`);
    // The store's order, not the page's: the queue's first ad is it even when only one is read.
    const [first] = await t.store.moderation.queue(1, THRESHOLD);
    expect(first!.id).toBe(newer);
  });

  test('a photo not scored says so and is not blurred', async () => {
    const unscored = await unscoredPhoto();
    await adWith([unscored], 60);
    const item = photoItem(await queueHtml(), unscored);
    expect(textOf(item)).toContain('Not scored');
    expect(textOf(item)).not.toContain('Likely explicit');
    expect(isBlurred(item, unscored)).toBe(false);
  });

  test('its blurred rendering is a 24-pixel-wide WebP, for moderators only', async () => {
    const { id } = await scoredPhoto();
    await adWith([id], 1);
    const blurred = (session?: string) =>
      t.app.request(`${ORIGIN}${blurredPhotoApiPath(id)}`, {
        headers: session ? cookieHeader(session) : {},
      });
    const response = await blurred(moderator.session);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(24);
    // Its own member sees the photo itself elsewhere; nobody but a moderator gets this.
    expect((await blurred(poster.session)).status).toBe(404);
    expect((await blurred()).status).toBe(404);
    expect((await blurred(moderator.session.replace(/.$/, 'x'))).status).toBe(404);
  });
});

describe('Show photo', () => {
  test('without JavaScript: the form reveals that one photo for that moderator, and it stays revealed', async () => {
    const [a, b] = [await scoredPhoto(), await scoredPhoto()];
    const adId = await adWith([a.id, b.id], 30);
    const response = await t.postForm(revealPhotoApiPath(a.id), {}, moderator.session);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/moderate#photo-${a.id}`);
    const html = await queueHtml();
    expect(isBlurred(photoItem(html, a.id), a.id)).toBe(false);
    expect(textOf(photoItem(html, a.id))).toContain('Likely explicit');
    expect(isBlurred(photoItem(html, b.id), b.id)).toBe(true);
    // Another moderator chose nothing: still blurred for them.
    const theirs = await queueHtml(otherModerator.session);
    expect(isBlurred(photoItem(theirs, a.id), a.id)).toBe(true);
    // The queue's own forms (a refused rejection here) leave the choice as it was.
    const refused = await t.postForm(
      moderateAdApiPath(adId, 'reject'),
      { revision: '0', reason: 'other', note: '' },
      moderator.session,
    );
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(isBlurred(photoItem(await queueHtml(), a.id), a.id)).toBe(false);
  });

  test('with a script: JSON with the photo sizes, and the reveal stored', async () => {
    const { id } = await scoredPhoto();
    await adWith([id], 20);
    const response = await t.postJson(revealPhotoApiPath(id), {}, moderator.session);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { src: string; srcSet: string };
    expect(answer.src).toMatch(new RegExp(`^/api/photos/${id}/\\d+$`));
    expect(answer.srcSet).toContain(`${photoSizeApiPath(id, 320)} 320w`);
    expect(
      await storedRow(
        t,
        'SELECT photo_id FROM moderator_photo_reveals WHERE account_id = ? AND photo_id = ?',
        moderator.accountId,
        id,
      ),
    ).toBeTruthy();
  });

  test('an unknown or removed photo is refused as unknown', async () => {
    const unknown = await t.postJson(revealPhotoApiPath(999_999), {}, moderator.session);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'There is no photo 999999.' });
    const { id } = await scoredPhoto();
    await t.store.photos.markRemoved(id, {
      reason: 'other',
      note: 'test',
      moderatorId: moderator.accountId,
      at: '2026-11-01T00:00:00.000Z',
    });
    const removed = await t.postJson(revealPhotoApiPath(id), {}, moderator.session);
    expect(removed.status).toBe(404);
  });
});

describe("the verifications' review", () => {
  test("shows the member's photos behind the same shield, and Show photo comes back to it", async () => {
    const member = await t.signUpMember('shield-verify');
    const explicit = await t.keptPhotoId(member.accountId, await smallJpeg(nextSeed++));
    const adId = await insertAdInReview(t, { accountId: member.accountId, submittedMinutesAgo: 3 });
    await t.putPhotosOnAd(adId, member.accountId, [explicit]);
    expect((await t.postForm(verificationChallengeApiPath(), {}, member.session)).status).toBe(303);
    const selfie = new FormData();
    const bytes = new Uint8Array(await smallJpeg(4900, 600, 800));
    selfie.append('selfie', new File([bytes], 'selfie.jpg', { type: 'image/jpeg' }));
    const sent = await t.app.request(`${ORIGIN}${verificationSelfieApiPath()}`, {
      method: 'POST',
      headers: { origin: ORIGIN, accept: 'text/html', ...cookieHeader(member.session) },
      body: selfie,
    });
    expect(sent.status).toBe(303);

    const review = async (session = moderator.session) => {
      const response = await t.getPage(moderateVerificationsPath(), session);
      expect(response.status).toBe(200);
      return photoItem(await response.text(), explicit);
    };
    const item = await review();
    expect(isBlurred(item, explicit)).toBe(true);
    expect(textOf(item)).toContain('Likely explicit (score');
    expect(item).toContain(`action="${revealPhotoApiPath(explicit)}"`);
    expect(item).toContain('name="from" value="verifications"');

    // Without JavaScript, the reveal comes back to the review, where the photo is shown.
    const shown = await t.postForm(
      revealPhotoApiPath(explicit),
      { from: 'verifications' },
      moderator.session,
    );
    expect(shown.status).toBe(303);
    expect(shown.headers.get('location')).toBe(`/moderate/verifications#photo-${explicit}`);
    expect(isBlurred(await review(), explicit)).toBe(false);
    // The other moderator chose nothing: still blurred for them.
    expect(isBlurred(await review(otherModerator.session), explicit)).toBe(true);
  });
});

describe('Show all photos blurred', () => {
  test("is each moderator's own: on, every photo is blurred until shown; off again, as before", async () => {
    const unscored = await unscoredPhoto();
    await adWith([unscored], 10);
    expect(isBlurred(photoItem(await queueHtml(), unscored), unscored)).toBe(false);
    expect(textOf(await queueHtml())).toContain('Off: only photos likely explicit are blurred.');

    const on = await t.postForm(photoSettingsApiPath(), { blurAll: 'on' }, moderator.session);
    expect(on.status).toBe(303);
    expect(on.headers.get('location')).toBe('/moderate?done=blur-all-on');
    const after = await t.getPage('/moderate?done=blur-all-on', moderator.session);
    const html = await after.text();
    expect(textOf(html)).toContain('Every photo is now shown blurred until you choose to see it.');
    expect(textOf(html)).toContain('On: every photo is blurred until you show it.');
    // The class only finds the setting's form (locating, not checking).
    const setting = html.slice(html.indexOf('class="photo-setting"'), html.indexOf('</form>'));
    expect(setting).toContain('name="blurAll" checked=""');
    const item = photoItem(html, unscored);
    expect(isBlurred(item, unscored)).toBe(true);
    expect(textOf(item)).toContain('Blurred by your setting');
    expect(textOf(item)).toContain('Not scored');
    // Not the other moderator's.
    expect(isBlurred(photoItem(await queueHtml(otherModerator.session), unscored), unscored)).toBe(
      false,
    );
    expect(await t.store.moderatorPhotos.blurAll(moderator.accountId)).toBe(true);

    // An unchecked box sends nothing: off.
    const off = await t.postForm(photoSettingsApiPath(), {}, moderator.session);
    expect(off.headers.get('location')).toBe('/moderate?done=blur-all-off');
    expect(isBlurred(photoItem(await queueHtml(), unscored), unscored)).toBe(false);
    expect(await t.store.moderatorPhotos.blurAll(moderator.accountId)).toBe(false);
  });

  test('as JSON, and a value that is neither on nor off is refused', async () => {
    const response = await t.postJson(
      photoSettingsApiPath(),
      { blurAll: true },
      otherModerator.session,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ blurAll: true });
    expect(await t.store.moderatorPhotos.blurAll(otherModerator.accountId)).toBe(true);
    const refused = await t.postJson(
      photoSettingsApiPath(),
      { blurAll: 'maybe' },
      otherModerator.session,
    );
    expect(refused.status).toBe(400);
    expect(await t.store.moderatorPhotos.blurAll(otherModerator.accountId)).toBe(true);
    await t.postJson(photoSettingsApiPath(), { blurAll: false }, otherModerator.session);
    expect(await t.store.moderatorPhotos.blurAll(otherModerator.accountId)).toBe(false);
  });
});

describe('not a moderator', () => {
  test('members and visitors find neither the reveal nor the setting (404), and nothing is stored', async () => {
    const { id } = await scoredPhoto();
    await adWith([id], 3);
    for (const session of [poster.session, undefined]) {
      const reveal = await t.postForm(revealPhotoApiPath(id), {}, session);
      expect(reveal.status).toBe(404);
      const setting = await t.postJson(photoSettingsApiPath(), { blurAll: true }, session);
      expect(setting.status).toBe(404);
    }
    expect(
      await storedRow(
        t,
        'SELECT account_id FROM moderator_photo_reveals WHERE account_id = ?',
        poster.accountId,
      ),
    ).toBeUndefined();
    expect(
      await storedRow(
        t,
        'SELECT account_id FROM moderator_photo_settings WHERE account_id = ?',
        poster.accountId,
      ),
    ).toBeUndefined();
  });
});
