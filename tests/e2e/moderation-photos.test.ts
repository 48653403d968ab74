// The queue's photos on the production build, in Chromium with JavaScript and again without it: a
// moderator sees an ad's photos large (loaded through the server, numbered, with their alt texts
// and the flag of one that looks like a removed photo), removes one with a reason and a note, and
// the queue shows the ad without it; the photo's row says why, its hash is blocked. Then axe-core
// and screenshots of the queue with photos at 390 and 1280 px.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gotoEnhanced } from '../helpers/browser-waits.ts';
import { moderatorContext, signUpWithApi, uniqueEmail } from '../helpers/e2e-members.ts';
import { insertAdInReview } from '../helpers/moderation.ts';
import { appPhotosOf, keptPhotoId, putPhotosOnAd } from '../helpers/moderation-photos.ts';
import { startModerationServer, type ModerationServer } from '../helpers/moderation-server.ts';
import { lookAtWidths } from '../helpers/page-checks.ts';
import { nearCopy, smallJpeg } from '../helpers/photo-fixtures.ts';
import { createPhotoPool, type PhotoPool } from '../../server/photos/processing-pool.ts';
import { launchChromium, siteDir } from './support.ts';
import { photoSizeApiPath } from '../../core/paths.ts';

const SHOTS =
  process.env.MODERATION_SCREENSHOTS_DIR ?? join(tmpdir(), 'localboard-moderation-photos');

let browser: Browser;
let server: ModerationServer;
let pool: PhotoPool;
beforeAll(async () => {
  pool = createPhotoPool({ processes: 1 });
  [browser, server] = await Promise.all([launchChromium(), startModerationServer(siteDir())]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await pool?.close();
});

let seed = 7000;

/** A member's ad in review with three photos, the third a copy of one removed as spam before. */
async function adWithPhotos(title: string) {
  const context = await browser.newContext();
  const email = uniqueEmail('photos');
  await signUpWithApi(context, server.url, email);
  await context.close();
  const { id: accountId } = (await server.store.accounts.findByEmail(email))!;
  const photos = appPhotosOf(server.store, pool);
  const keep = async (bytes: Buffer) => keptPhotoId(server.store, photos, accountId, bytes);
  const spam = await smallJpeg(seed++, 1600, 1200);
  const spamRow = (await server.store.photos.find(await keep(spam)))!;
  await server.store.photos.block({
    phash: spamRow.phash,
    reason: 'spam',
    photoId: spamRow.id,
    adId: null,
    blockedAt: '2026-11-01T09:00:00.000Z',
  });
  const ids = [
    await keep(await smallJpeg(seed++, 1600, 1200)),
    await keep(await smallJpeg(seed++, 1200, 1600)),
    await keep(await nearCopy(spam)),
  ];
  const adId = await insertAdInReview(server, { accountId, title });
  await putPhotosOnAd(server, adId, accountId, ids);
  return { adId, ids };
}

/** Waits until the image has loaded (scrolled to first: the queue's photos load lazily). */
async function loaded(image: Locator): Promise<number> {
  await image.scrollIntoViewIfNeeded();
  await image.evaluate((element: HTMLImageElement) =>
    element.complete && element.naturalWidth > 0
      ? undefined
      : new Promise((resolve, reject) => {
          element.addEventListener('load', resolve, { once: true });
          element.addEventListener('error', reject, { once: true });
        }),
  );
  return image.evaluate((element: HTMLImageElement) => element.naturalWidth);
}

describe.each([
  ['in Chromium', true],
  ['without JavaScript', false],
])('the queue with photos %s', (_label, javaScriptEnabled) => {
  const run = javaScriptEnabled ? 'js' : 'nojs';
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context } = await moderatorContext(browser, server, javaScriptEnabled));
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  test('shows the photos large, numbered, with alt texts and the flag; one removed with a reason', async () => {
    const { adId, ids } = await adWithPhotos('Sunday market and coffee');
    const [first, second, flagged] = ids as [number, number, number];
    await gotoEnhanced(page, `${server.url}/moderate`, javaScriptEnabled);
    const entry = page.locator(`#ad-${adId}`);
    const photos = entry.locator('.queue-photo');
    expect(await photos.count()).toBe(3);
    expect(await entry.getByRole('heading', { name: 'Photos (3)' }).count()).toBe(1);
    // Each at its largest size through the server, loaded, its alt text the default one.
    const images = entry.locator('img.queue-photo__image');
    expect(await images.nth(0).getAttribute('src')).toBe(photoSizeApiPath(first, 1280));
    expect(await images.nth(1).getAttribute('src')).toBe(photoSizeApiPath(second, 1200));
    for (let index = 0; index < 3; index++) {
      expect(await loaded(images.nth(index))).toBeGreaterThan(0);
      expect(await images.nth(index).getAttribute('alt')).toBe(
        `Photo ${index + 1} of 3: Sunday market and coffee`,
      );
    }
    expect(await images.nth(1).getAttribute('height')).toBe('1600');
    // The flag on the third only.
    expect(await entry.locator('.queue-photo__flag').count()).toBe(1);
    expect(await photos.nth(2).locator('.queue-photo__flag').textContent()).toContain(
      'Looks like a photo removed on 2026-11-01 (Spam or duplicate).',
    );

    await lookAtWidths(page, SHOTS, `queue-photos-${run}`, javaScriptEnabled);
    await page.setViewportSize({ width: 1280, height: 900 });

    // Remove the second: open its form (a <details>), a reason and a note.
    const remove = photos.nth(1);
    await remove.getByText('Remove photo 2…').click();
    await remove
      .getByLabel('Reason')
      .selectOption({ label: "Uses someone else's photos or identity" });
    await remove.getByLabel('Note to the member (optional)').fill('This is a stock photo.');
    await remove.getByRole('button', { name: 'Remove this photo' }).click();
    await page.waitForURL(
      `${server.url}/moderate?done=photo-removed&photo=${second}&ad=${adId}#ad-${adId}`,
    );
    expect(await page.locator('.banner').first().textContent()).toContain(
      `Photo ${second} removed from ad ${adId}`,
    );
    const after = page.locator(`#ad-${adId} img.queue-photo__image`);
    expect(await after.count()).toBe(2);
    expect(await after.nth(1).getAttribute('src')).toBe(photoSizeApiPath(flagged, 1280));
    expect(await after.nth(1).getAttribute('alt')).toBe('Photo 2 of 2: Sunday market and coffee');
    expect(
      await server.sql.get('SELECT removed_reason, removed_note FROM photos WHERE id = ?', second),
    ).toEqual({ removed_reason: 'identity', removed_note: 'This is a stock photo.' });
    expect(
      await server.sql.all('SELECT reason FROM blocked_photos WHERE photo_id = ?', second),
    ).toEqual([{ reason: 'identity' }]);
    await lookAtWidths(page, SHOTS, `queue-photo-removed-${run}`, javaScriptEnabled);
  });
});
