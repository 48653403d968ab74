// The same photo on two accounts in the queue, on the production build, in Chromium with
// JavaScript and again without it (docs/product.md section 10, issue 31): a member's ad whose
// photo is a cropped, resized, re-encoded copy of a photo on another member's live ad shows the
// warning in words, both photos side by side (loaded through the moderator-only photo URL), a
// link to the other ad; the reject for "someone else's photos or identity" in the warning rejects
// the ad. axe-core and screenshots at 390 and 1280 px.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { gotoEnhanced, loadedWidth } from '../helpers/browser-waits.ts';
import { approveInStore, insertAdInReview } from '../helpers/moderation.ts';
import { moderatorPageForTests, photoQueueForFile } from '../helpers/moderation-browser.ts';
import { lookAtWidths } from '../helpers/page-checks.ts';
import { nearCopy, smallJpeg } from '../helpers/photo-fixtures.ts';
import { blurredPhotoApiPath } from '../../core/paths.ts';

const SHOTS =
  process.env.MODERATION_SCREENSHOTS_DIR ?? join(tmpdir(), 'localboard-moderation-photos');

const world = photoQueueForFile();

/** A live ad of one member with a photo, and an ad in review of another with a copy of it. */
async function copiedPhoto(seed: number) {
  const [first, second] = [await world.memberId('original'), await world.memberId('copier')];
  const original = await smallJpeg(seed, 1600, 1200);
  const originalId = await world.keptPhotoId(first, original);
  const liveAd = await insertAdInReview(world.server, { accountId: first, title: 'Trail runs' });
  await world.putPhotosOnAd(liveAd, first, [originalId]);
  await approveInStore(world.server, liveAd, { postedOn: '2026-11-03', expiresOn: '2026-12-03' });
  const copyId = await world.keptPhotoId(second, await nearCopy(original));
  const flagged = await insertAdInReview(world.server, {
    accountId: second,
    title: 'Coffee walks',
  });
  await world.putPhotosOnAd(flagged, second, [copyId]);
  return { liveAd, originalId, flagged, copyId };
}

describe.each([
  ['in Chromium', true, 3109],
  ['without JavaScript', false, 3101],
])('a photo also on another member’s ad, %s', (_label, javaScriptEnabled, seed) => {
  const run = javaScriptEnabled ? 'js' : 'nojs';
  const moderator = moderatorPageForTests(world, javaScriptEnabled);

  test('shows both photos and a link to the other ad; the reject in the warning rejects the ad', async () => {
    const { liveAd, originalId, flagged, copyId } = await copiedPhoto(seed);
    await gotoEnhanced(moderator.page, `${world.server.url}/moderate`, javaScriptEnabled);
    const warning = moderator.page.locator(`#ad-${flagged} .photos-elsewhere`);
    expect(await warning.getByRole('heading').textContent()).toContain(
      "A photo of this ad is on another member's ad",
    );
    expect(await warning.locator('.photos-elsewhere__text').textContent()).toContain(
      `Photo 1: this photo is also on ad ${liveAd} of another member (posted November 3, 2026), live on the site.`,
    );
    const link = warning.getByRole('link', { name: `Ad ${liveAd} on the site` });
    expect(await link.getAttribute('href')).toMatch(new RegExp(`/${liveAd}/?$`));
    const images = warning.locator('img');
    expect(await images.count()).toBe(2);
    expect(await images.nth(0).getAttribute('src')).toMatch(new RegExp(`^/api/photos/${copyId}/`));
    expect(await images.nth(1).getAttribute('src')).toMatch(
      new RegExp(`^/api/photos/${originalId}/`),
    );
    for (let index = 0; index < 2; index++)
      expect(await loadedWidth(images.nth(index))).toBeGreaterThan(0);
    // Side by side: the two at one height, the second to the right of the first.
    const [left, right] = [await images.nth(0).boundingBox(), await images.nth(1).boundingBox()];
    expect(right!.x).toBeGreaterThan(left!.x + left!.width - 1);
    expect(Math.abs(right!.y - left!.y)).toBeLessThan(2);
    await lookAtWidths(moderator.page, SHOTS, `queue-photo-elsewhere-${run}`, javaScriptEnabled);
    await moderator.page.setViewportSize({ width: 1280, height: 900 });

    // With "Show all photos blurred", both are blurred: the same picture twice.
    const setting = moderator.page.getByRole('form', { name: 'Photo setting' });
    const saveBlurAll = async (on: boolean, done: string) => {
      await setting.getByLabel('Show all photos blurred').setChecked(on);
      await setting.getByRole('button', { name: 'Save setting' }).click();
      await moderator.page.waitForURL(`${world.server.url}/moderate?done=${done}`);
    };
    await saveBlurAll(true, 'blur-all-on');
    expect(await images.nth(0).getAttribute('src')).toBe(blurredPhotoApiPath(copyId));
    expect(await images.nth(1).getAttribute('src')).toBe(blurredPhotoApiPath(originalId));
    await warning.scrollIntoViewIfNeeded();
    await lookAtWidths(
      moderator.page,
      SHOTS,
      `queue-photo-elsewhere-blurred-${run}`,
      javaScriptEnabled,
    );
    await moderator.page.setViewportSize({ width: 1280, height: 900 });
    await saveBlurAll(false, 'blur-all-off');

    await warning
      .getByRole('button', { name: "Reject: Uses someone else's photos or identity" })
      .click();
    await moderator.page.waitForURL(`${world.server.url}/moderate?done=rejected&ad=${flagged}**`);
    expect(await moderator.page.locator('.banner').first().textContent()).toContain(
      `Ad ${flagged} rejected.`,
    );
    expect(await world.server.store.memberAds.find(flagged)).toMatchObject({
      status: 'rejected',
      rejectedReason: "Uses someone else's photos or identity",
    });
    expect((await world.server.store.memberAds.find(liveAd))!.status).toBe('live');
  });
});
