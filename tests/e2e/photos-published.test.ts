// Members' photos on the published site, in Chromium (docs/product.md section 10): an approved ad
// with three photos (kept as the posting route keeps them, published by the server's own publisher)
// shows them on its page and its card, decoded, without moving the page as they load; View Photos
// opens them large without JavaScript, by keyboard; axe finds nothing serious; screenshots at 390
// and 1280 px of the city list, the ad page and the viewer, to look at.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { adPath, cityPath } from '../../core/paths.ts';
import { gotoEnhanced } from '../helpers/browser-waits.ts';
import { insertMemberAd } from '../helpers/member-ads.ts';
import {
  lookAtWidths,
  screenshot,
  screenshotPath,
  seriousAxeViolations,
} from '../helpers/page-checks.ts';
import { smallJpeg } from '../helpers/photo-fixtures.ts';
import { chromiumAndPublishingSite, type PublishingSite } from '../helpers/publishing-site.ts';
import { appPhotosOf, keptPhotoId, testPhotoPool } from '../helpers/moderation-photos.ts';

const TITLE = 'Tide pools and a thermos of coffee';
const pool = testPhotoPool();
let adId = 0;
const shots = join(screenshotPath('photos-published'), '..', 'photos-published');

// The ad and its photos are written before the start-up publish, which publishes them.
const world = chromiumAndPublishingSite(
  { label: 'photos-published', beforePublish: adWithPhotos },
  240_000,
);

/** The member's live ad and its photos, kept as the posting route keeps them. */
async function adWithPhotos(started: PublishingSite): Promise<void> {
  adId = await insertMemberAd(started, { state: 'California', city: 'San Jose', title: TITLE });
  const { accountId } = (await started.store.memberAds.find(adId))!;
  const photos = [];
  // A landscape, a portrait and a square photo.
  for (const [seed, width, height] of [
    [41, 1600, 1200],
    [42, 900, 1350],
    [43, 1000, 1000],
  ] as const) {
    const bytes = await smallJpeg(seed, width, height);
    const id = await keptPhotoId(started.store, appPhotosOf(started.store, pool), accountId, bytes);
    photos.push({ id, alt: seed === 42 ? 'Rocks and sea anemones' : '' });
  }
  await started.store.photos.attach(
    photos.map((photo) => photo.id),
    adId,
    accountId,
  );
  const { revision } = (await started.store.memberAds.find(adId))!;
  await started.store.memberAds.setPhotos(adId, revision, photos, null, new Date().toISOString());
}

/** The page's photos as the browser has them: decoded sizes, and how far the page moved. */
function photosOf(page: Page, selector: string) {
  return page.$$eval(selector, (images) =>
    (images as HTMLImageElement[]).map((image) => ({
      alt: image.alt,
      complete: image.complete,
      naturalWidth: image.naturalWidth,
      currentSrc: image.currentSrc,
    })),
  );
}

const layoutShift = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let sum = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            sum += (entry as unknown as { value: number }).value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(sum), 300);
      }),
  );

describe('published photos in Chromium', () => {
  test('the ad page shows every photo, decoded, without layout shift; the card shows the first', async () => {
    const context = await world.browser.newContext({
      bypassCSP: true,
      viewport: { width: 1280, height: 900 },
    });
    try {
      const page = await context.newPage();
      await gotoEnhanced(page, `${world.site.url}${adPath('California', 'San Jose', adId)}`, true);
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('.ad-photos img')].every(
          (image) => image.complete && image.naturalWidth > 0,
        ),
      );
      const shown = await photosOf(page, '.ad-photos img');
      expect(shown.map((photo) => photo.alt)).toEqual([
        `Photo 1 of 3: ${TITLE}`,
        'Rocks and sea anemones',
        `Photo 3 of 3: ${TITLE}`,
      ]);
      for (const photo of shown) {
        expect(photo.naturalWidth).toBeGreaterThan(0);
        expect(photo.currentSrc).toMatch(/\/photos\/[0-9a-f]{2}\/[0-9a-f]{32}\.webp$/);
      }
      expect(await layoutShift(page)).toBeLessThan(0.01);
      await lookAtWidths(page, shots, 'ad-page', true);

      await gotoEnhanced(page, `${world.site.url}${cityPath('California', 'San Jose')}`, true);
      const card = page.locator('article.ad-card', { hasText: TITLE });
      await card.scrollIntoViewIfNeeded();
      await expect
        .poll(() => card.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0);
      expect(await card.locator('img').getAttribute('alt')).toBe(`Photo 1 of 3: ${TITLE}`);
      await lookAtWidths(page, shots, 'city-list', true);

      // The viewer as JavaScript leaves it: axe on the large photo.
      await gotoEnhanced(
        page,
        `${world.site.url}${adPath('California', 'San Jose', adId)}#photo-2`,
        true,
      );
      await expect.poll(() => page.locator('#photo-2').isVisible()).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  test('View Photos opens the photos large without JavaScript, by keyboard', async () => {
    const context = await world.browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    try {
      const page = await context.newPage();
      await page.goto(`${world.site.url}${adPath('California', 'San Jose', adId)}`);
      expect(await page.locator('#photo-1').isVisible()).toBe(false);
      await page.getByRole('link', { name: 'View Photos' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/#photo-1$/);
      const first = page.locator('#photo-1');
      await expect.poll(() => first.isVisible()).toBe(true);
      await expect
        .poll(() => first.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0);
      expect(await first.locator('figcaption').innerText()).toContain('Photo 1 of 3');
      // The large one: the 1280 size, or the nearest the screen asks for.
      expect(
        await first
          .locator('img')
          .evaluate((image: HTMLImageElement) => image.getBoundingClientRect().width),
      ).toBeGreaterThan(300);
      await screenshot(page, join(shots, 'viewer-390.png'));

      // Tab reaches Next from the photo; Enter shows the second, with its own alt text.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Next photo →');
      await page.keyboard.press('Enter');
      await page.waitForURL(/#photo-2$/);
      await expect.poll(() => page.locator('#photo-2').isVisible()).toBe(true);
      expect(await page.locator('#photo-1').isVisible()).toBe(false);
      expect(await page.locator('#photo-2 figcaption').innerText()).toContain(
        'Rocks and sea anemones',
      );
      await page.setViewportSize({ width: 1280, height: 900 });
      await screenshot(page, join(shots, 'viewer-1280.png'));

      // Close: back to the page, no photo over it.
      await page.locator('#photo-2').getByRole('link', { name: 'Close photos' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/#ad-photos$/);
      expect(await page.locator('.photo-viewer__photo:visible').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});
