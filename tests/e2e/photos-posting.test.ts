// Photos on the posting form (/post) on the production build, in Chromium: with JavaScript,
// previews of the chosen files, their alt text, Move up / Remove, the form sent with its upload
// progress (XMLHttpRequest, multipart), the ad in review with its photos in the order shown; a
// file that is not a photo named beside the field with everything typed kept, and the good file
// sent with it kept by the server (not uploaded again); without JavaScript, the plain multipart
// form. Screenshots at 390 and 1280 px and axe-core on the form with previews.
import type { BrowserContext, Page, Request } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { desktopContext } from '../helpers/both-ways.ts';
import { gotoEnhanced, waitForEnhanced } from '../helpers/browser-waits.ts';
import { heading, signUpAndVerify } from '../helpers/e2e-members.ts';
import { lookAtWidths } from '../helpers/page-checks.ts';
import { phpAsJpg, smallJpeg, smallPng, smallWebp } from '../helpers/photo-fixtures.ts';
import { openSqliteTestStore } from '../helpers/test-store.ts';
import { baseUrl, chromiumForTests } from './support.ts';
import { adsApiPath } from '../../core/paths.ts';
import { fillNewAd } from '../helpers/ad-form.ts';
import { storedRow } from '../helpers/stored-rows.ts';

const SHOTS = process.env.POSTING_SCREENSHOTS_DIR ?? '/tmp/localboard-posting-screenshots';
const NOT_A_PHOTO =
  "shell.jpg: This file isn't a photo we can use. Choose a JPEG, PNG, WebP or HEIF photo (SVG and other files can't be used).";

const chromium = chromiumForTests();

/** A signed-up, verified member in the context (its cookies); `bypassCSP` lets axe-core in. */
async function memberContext(javaScriptEnabled: boolean): Promise<BrowserContext> {
  const context = await desktopContext(chromium.browser, javaScriptEnabled);
  await signUpAndVerify(context, { url: baseUrl(), outboxDir: inject('outboxDir') }, 'photos', {
    throughApi: true,
  });
  return context;
}

/** Three photos told apart by their sizes (the photos table keeps each one's width and height). */
async function threePhotos() {
  return [
    { name: 'beach.jpg', mimeType: 'image/jpeg', buffer: await smallJpeg(1, 800, 600) },
    { name: 'garden.png', mimeType: 'image/png', buffer: await smallPng(2, 600, 800) },
    { name: 'bicycle.webp', mimeType: 'image/webp', buffer: await smallWebp(3, 700, 500) },
  ];
}

const fillAd = (page: Page, title: string) =>
  fillNewAd(page, {
    ...{ city: 'Los Angeles', age: '36', seeks: 'm4w', title },
    description: 'Long walks, old films and a good bookshop.',
  });

/** The member's newest ad with its photos as stored: their sizes and alt texts, in the ad's order. */
async function newestAdWithTitle(title: string) {
  const { store, sql } = openSqliteTestStore(inject('databasePath'));
  try {
    const ad = await storedRow<{ id: number; status: string; photos: string }>(
      sql,
      'SELECT id, status, photos FROM member_ads WHERE title = ? ORDER BY id DESC',
      title,
    );
    expect(ad).toBeDefined();
    const refs = JSON.parse(ad!.photos) as Array<{ id: number; alt: string }>;
    const photos = [];
    for (const ref of refs) {
      const photo = await storedRow<{ width: number; height: number; ad_id: number | null }>(
        sql,
        'SELECT width, height, ad_id FROM photos WHERE id = ?',
        ref.id,
      );
      photos.push({ size: `${photo?.width}x${photo?.height}`, alt: ref.alt, adId: photo?.ad_id });
    }
    return { id: ad!.id, status: ad!.status, photos };
  } finally {
    await store.close();
  }
}

const previewNames = (page: Page) => page.locator('.photo-preview__file').allTextContents();
const field = (page: Page) => page.locator('[data-photo-field]');

/** Clicks Submit and waits for the post it sends; the request, for what it carried. */
async function submitAndWatch(page: Page): Promise<Request> {
  const [request] = await Promise.all([
    page.waitForRequest(
      (sent) => sent.method() === 'POST' && new URL(sent.url()).pathname === adsApiPath(),
    ),
    page.getByRole('button', { name: 'Submit for review' }).click(),
  ]);
  return request;
}

describe('photos on /post in Chromium with JavaScript', () => {
  test('previews, alt text, reorder and remove; the ad in review with its photos in that order', async () => {
    const context = await memberContext(true);
    const page = await context.newPage();
    await gotoEnhanced(page, `${baseUrl()}/post`);
    await fillAd(page, 'Photos in the chosen order');
    await field(page)
      .locator('input[type="file"][name="photos"]')
      .setInputFiles(await threePhotos());

    // Each file is shown with its name, size, number and an alt field whose placeholder is the
    // default alt text.
    await expect.poll(() => previewNames(page)).toHaveLength(3);
    expect((await previewNames(page)).map((text) => text.split(' · ')[0])).toEqual([
      'beach.jpg',
      'garden.png',
      'bicycle.webp',
    ]);
    expect(await page.locator('.photo-preview__number').allTextContents()).toEqual([
      'Photo 1 of 3',
      'Photo 2 of 3',
      'Photo 3 of 3',
    ]);
    const thirdAlt = page
      .locator('.photo-preview')
      .nth(2)
      .getByLabel('Describe this photo (optional)');
    expect(await thirdAlt.getAttribute('placeholder')).toBe(
      'Photo 3 of 3: Photos in the chosen order',
    );
    // Every thumbnail is the chosen file itself, decoded by the browser.
    expect(
      await page
        .locator('.photo-preview img')
        .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth)),
    ).toEqual([800, 600, 700]);

    await thirdAlt.fill('A red bicycle by the door');
    // The bicycle to the top by keyboard: focus stays on it as it moves.
    await page.getByRole('button', { name: 'Move up photo 3' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Move up photo 2',
    );
    await page.keyboard.press('Enter');
    expect(await page.getByRole('button', { name: 'Move up photo 1' }).isDisabled()).toBe(true);
    // The garden photo, now third, removed.
    await page.getByRole('button', { name: 'Remove photo 3' }).click();
    expect((await previewNames(page)).map((text) => text.split(' · ')[0])).toEqual([
      'bicycle.webp',
      'beach.jpg',
    ]);
    expect(await page.locator('[data-photo-announcer]').textContent()).toBe(
      'Photo 3 removed. 2 of 6 photos.',
    );
    // What a plain submit would send too: the files in the order shown, and that order.
    expect(
      await page.evaluate(() =>
        [...document.querySelector<HTMLInputElement>('input[name="photos"]')!.files!].map(
          (file) => file.name,
        ),
      ),
    ).toEqual(['bicycle.webp', 'beach.jpg']);
    expect(await page.inputValue('input[name="photo_order"]')).toBe('f0,f1');

    await lookAtWidths(page, SHOTS, 'post-with-photo-previews', true);
    await page.setViewportSize({ width: 1280, height: 900 });

    const request = await submitAndWatch(page);
    // Sent by the script (for its progress bar) as multipart, asking for JSON.
    expect(request.resourceType()).toBe('xhr');
    expect(await request.headerValue('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(await request.headerValue('accept')).toBe('application/json');
    await page.waitForURL(`${baseUrl()}/post/in-review`);

    const ad = await newestAdWithTitle('Photos in the chosen order');
    expect(ad.status).toBe('review');
    expect(ad.photos).toEqual([
      { size: '700x500', alt: 'A red bicycle by the door', adId: ad.id },
      { size: '800x600', alt: '', adId: ad.id },
    ]);
    await context.close();
  });

  test('a file that is not a photo: named beside the field, everything kept, the good one not sent again', async () => {
    const context = await memberContext(true);
    const page = await context.newPage();
    await gotoEnhanced(page, `${baseUrl()}/post`);
    await fillAd(page, 'A shell among the photos');
    const [beach] = await threePhotos();
    await field(page)
      .locator('input[type="file"][name="photos"]')
      .setInputFiles([beach!, await phpAsJpg()]);
    await expect.poll(() => previewNames(page)).toHaveLength(2);

    await submitAndWatch(page);
    const error = field(page).locator('.field__error');
    await error.waitFor();
    expect(await error.textContent()).toContain(NOT_A_PHOTO);
    expect(await page.getAttribute('input[name="photos"]', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#ad-title')).toBe('A shell among the photos');
    expect(await page.inputValue('#ad-description')).toBe(
      'Long walks, old films and a good bookshop.',
    );
    // The beach photo was processed: it is now a kept photo (its preview from the server), the
    // shell is gone from the list, and no file is left to send.
    await page.locator('.photo-preview[data-photo-id]').waitFor();
    expect(await page.locator('.photo-preview').count()).toBe(1);
    expect(await page.locator('.photo-preview img').getAttribute('src')).toMatch(
      /^\/api\/photos\/\d+\/320$/,
    );
    expect(await previewNames(page)).toEqual([]);
    await lookAtWidths(page, SHOTS, 'post-with-a-refused-file', true);
    await page.setViewportSize({ width: 1280, height: 900 });

    const again = await submitAndWatch(page);
    expect(again.postData() ?? '').not.toContain('filename=');
    await page.waitForURL(`${baseUrl()}/post/in-review`);
    const ad = await newestAdWithTitle('A shell among the photos');
    expect(ad.photos).toEqual([{ size: '800x600', alt: '', adId: ad.id }]);
    await context.close();
  });

  test('more than 6 photos: the first ones up to 6 are added, the rest named', async () => {
    const context = await memberContext(true);
    const page = await context.newPage();
    await gotoEnhanced(page, `${baseUrl()}/post`);
    const seven = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7].map(async (seed) => ({
        name: `photo-${seed}.jpg`,
        mimeType: 'image/jpeg',
        buffer: await smallJpeg(seed, 320, 240),
      })),
    );
    await field(page).locator('input[type="file"][name="photos"]').setInputFiles(seven);
    await expect.poll(() => previewNames(page)).toHaveLength(6);
    expect(await field(page).locator('.field__error').textContent()).toBe(
      'An ad can have up to 6 photos: 1 of the files you chose was not added.',
    );
    await context.close();
  });
});

describe('photos on /post without JavaScript', () => {
  test('the plain multipart form posts its files; the ad is in review with them', async () => {
    const context = await memberContext(false);
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/post`);
    await waitForEnhanced(page, false);
    expect(await heading(page)).toBe('Post an ad');
    await fillAd(page, 'Photos without a script');
    const [beach, garden] = await threePhotos();
    await page.setInputFiles('input[type="file"][name="photos"]', [beach!, garden!]);
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForURL(`${baseUrl()}/post/in-review`);
    const ad = await newestAdWithTitle('Photos without a script');
    expect(ad.photos).toEqual([
      { size: '800x600', alt: '', adId: ad.id },
      { size: '600x800', alt: '', adId: ad.id },
    ]);
    await context.close();
  });
  test('a refused file: the message beside the field, the good photo kept and shown, sent once', async () => {
    const context = await memberContext(false);
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/post`);
    await waitForEnhanced(page, false);
    await fillAd(page, 'A shell without a script');
    const [beach] = await threePhotos();
    await page.setInputFiles('input[type="file"][name="photos"]', [beach!, await phpAsJpg()]);
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForLoadState();
    expect(await page.locator('#ad-photos-error').textContent()).toBe(NOT_A_PHOTO);
    expect(await page.inputValue('#ad-title')).toBe('A shell without a script');
    // The beach photo is kept: a thumbnail through the server, and its id in the form.
    const kept = page.locator('[data-kept-photos] [data-photo-id]');
    expect(await kept.count()).toBe(1);
    const thumbnail = kept.locator('img');
    expect(await thumbnail.getAttribute('src')).toMatch(/^\/api\/photos\/\d+\/320$/);
    expect(await thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(320);
    await lookAtWidths(page, SHOTS, 'post-refused-file-no-js', false);
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForURL(`${baseUrl()}/post/in-review`);
    const ad = await newestAdWithTitle('A shell without a script');
    expect(ad.photos).toEqual([{ size: '800x600', alt: '', adId: ad.id }]);
    await context.close();
  });
});
