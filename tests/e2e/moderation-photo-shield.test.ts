// The queue's shield on the production build (docs/product.md section 6, issue 31 item 2), with
// the app's explicit threshold set low for the test: a photo over it is blurred (its blurred
// rendering loaded, 24 pixels wide), labelled with its score, and its ad comes first; "Show photo"
// shows that one photo in place in Chromium (no reload, the focus on the photo) and by a plain
// form post without JavaScript; "Show all photos blurred" blurs a photo never scored. Screenshots
// of the queue with a blurred photo at 390 and 1280 px.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, test } from 'vitest';
import { bothWays } from '../helpers/both-ways.ts';
import { gotoEnhanced, loadedWidth } from '../helpers/browser-waits.ts';
import { insertAdInReview } from '../helpers/moderation.ts';
import { moderatorPageForTests, photoQueueForFile } from '../helpers/moderation-browser.ts';
import { lookAtWidths } from '../helpers/page-checks.ts';
import { smallJpeg } from '../helpers/photo-fixtures.ts';
import { blurredPhotoApiPath } from '../../core/paths.ts';
import { photoStoredBeforeScoring } from '../helpers/stored-rows.ts';

const SHOTS =
  process.env.MODERATION_SCREENSHOTS_DIR ?? join(tmpdir(), 'localboard-moderation-shield');
/** Low enough that the tests' ordinary pictures are over it. */
const THRESHOLD = 0.0001;

const world = photoQueueForFile({ photoExplicitThreshold: THRESHOLD });
/**
 * The ads every test looks at, made once (each photo is processed and scored: seconds): what a
 * moderator shows, and their "Show all photos blurred", are theirs alone, and each describe below
 * signs in a moderator of its own.
 */
let ads: Awaited<ReturnType<typeof adsWithPhotos>>;
beforeAll(async () => {
  ads = await adsWithPhotos();
});

let seed = 7400;

/**
 * An older ad with a photo never scored, and a newer one with two photos over the threshold: the
 * newer's photos' ids and both ads' ids.
 */
async function adsWithPhotos() {
  const accountId = await world.memberId('shield');
  const keep = async () => world.keptPhotoId(accountId, await smallJpeg(seed++, 1600, 1200));
  const unscored = await keep();
  // As stored before scoring existed: no path stores a photo unscored on demand.
  await photoStoredBeforeScoring(world.server, unscored);
  const older = await insertAdInReview(world.server, {
    accountId,
    title: 'Board games on Thursdays',
    submittedMinutesAgo: 600,
  });
  await world.putPhotosOnAd(older, accountId, [unscored]);
  const ids = [await keep(), await keep()] as [number, number];
  const newer = await insertAdInReview(world.server, { accountId, title: 'Sunrise swim club' });
  await world.putPhotosOnAd(newer, accountId, ids);
  return { older, newer, ids, unscored };
}

describe.each(bothWays('in Chromium'))(
  'a likely explicit photo in the queue %s',
  (_label, javaScriptEnabled, run) => {
    const moderator = moderatorPageForTests(world, javaScriptEnabled);

    test('is blurred, labelled, its ad first; Show photo shows that one photo', async () => {
      const { older, newer, ids, unscored } = ads;
      const [first, second] = ids;
      await gotoEnhanced(moderator.page, `${world.server.url}/moderate`, javaScriptEnabled);
      expect(await moderator.page.locator('.moderation__lead').textContent()).toContain(
        'Ads with likely explicit photos are listed first',
      );
      const order = await moderator.page
        .locator('.queue-item')
        .evaluateAll((items) => items.map((item) => item.id));
      expect(order.indexOf(`ad-${newer}`)).toBeGreaterThan(-1);
      expect(order.indexOf(`ad-${newer}`)).toBeLessThan(order.indexOf(`ad-${older}`));

      const photo = (id: number) => moderator.page.locator(`#photo-${id}`);
      for (const id of ids) {
        const image = photo(id).locator('img');
        expect(await image.getAttribute('src')).toBe(blurredPhotoApiPath(id));
        expect(await loadedWidth(image)).toBe(24);
        expect(await photo(id).locator('.queue-photo__why').textContent()).toMatch(
          /^Likely explicit \(score 0\.\d+\)$/,
        );
      }
      const plain = photo(unscored);
      expect(await plain.getByText('Not scored').count()).toBe(1);
      expect(await plain.locator('img').getAttribute('src')).toMatch(
        new RegExp(`^/api/photos/${unscored}/\\d+$`),
      );
      await photo(first).scrollIntoViewIfNeeded();
      await lookAtWidths(moderator.page, SHOTS, `queue-blurred-${run}`, javaScriptEnabled);
      await moderator.page.setViewportSize({ width: 1280, height: 900 });

      // Show the first photo, by keyboard: the focus on its button, Enter.
      if (javaScriptEnabled)
        await moderator.page.evaluate(() => ((window as { kept?: number }).kept = 1));
      await photo(first).getByRole('button', { name: 'Show photo 1' }).focus();
      await moderator.page.keyboard.press('Enter');
      const shown = photo(first).locator('img');
      await expect
        .poll(() => shown.getAttribute('src'))
        .toMatch(new RegExp(`^/api/photos/${first}/\\d+$`));
      expect(await loadedWidth(shown)).toBeGreaterThan(24);
      expect(await shown.getAttribute('alt')).toBe('Photo 1 of 2: Sunrise swim club');
      expect(await photo(first).getByRole('button', { name: 'Show photo 1' }).count()).toBe(0);
      if (javaScriptEnabled) {
        // In place: the page was not loaded again, and the focus is on the photo shown.
        expect(await moderator.page.evaluate(() => (window as { kept?: number }).kept)).toBe(1);
        expect(
          await moderator.page.evaluate(() => document.activeElement?.closest('li')?.id ?? null),
        ).toBe(`photo-${first}`);
      } else {
        expect(moderator.page.url()).toBe(`${world.server.url}/moderate#photo-${first}`);
      }
      // The choice is per photo: the second is still blurred, and stays shown after a reload.
      expect(await photo(second).locator('img').getAttribute('src')).toBe(
        blurredPhotoApiPath(second),
      );
      await gotoEnhanced(moderator.page, `${world.server.url}/moderate`, javaScriptEnabled);
      expect(await photo(first).locator('img').getAttribute('src')).toMatch(
        new RegExp(`^/api/photos/${first}/\\d+$`),
      );
      expect(await photo(second).locator('img').getAttribute('src')).toBe(
        blurredPhotoApiPath(second),
      );
    });

    test('Show all photos blurred blurs a photo never scored, until shown', async () => {
      const { unscored } = ads;
      await gotoEnhanced(moderator.page, `${world.server.url}/moderate`, javaScriptEnabled);
      const setting = moderator.page.getByRole('form', { name: 'Photo setting' });
      await setting.getByLabel('Show all photos blurred').check();
      await setting.getByRole('button', { name: 'Save setting' }).click();
      await moderator.page.waitForURL(`${world.server.url}/moderate?done=blur-all-on`);
      expect(await moderator.page.locator('.banner').first().textContent()).toContain(
        'Every photo is now shown blurred until you choose to see it.',
      );
      const photo = moderator.page.locator(`#photo-${unscored}`);
      expect(await photo.locator('img').getAttribute('src')).toBe(blurredPhotoApiPath(unscored));
      expect(await photo.locator('.queue-photo__why').textContent()).toBe(
        'Blurred by your setting',
      );
      expect(await photo.getByText('Not scored').count()).toBe(1);
      await photo.scrollIntoViewIfNeeded();
      await lookAtWidths(moderator.page, SHOTS, `queue-blur-all-${run}`, javaScriptEnabled);
      await moderator.page.setViewportSize({ width: 1280, height: 900 });
      // Off again.
      await setting.getByLabel('Show all photos blurred').uncheck();
      await setting.getByRole('button', { name: 'Save setting' }).click();
      await moderator.page.waitForURL(`${world.server.url}/moderate?done=blur-all-off`);
      expect(
        await moderator.page.locator(`#photo-${unscored} img`).getAttribute('src'),
      ).not.toContain('blurred');
    });
  },
);
