// Issue 20's "done when", end to end on the production build with the server's own publisher: a
// member posts WITHOUT JavaScript (the posting form as a plain multipart form) a 3000×2000 phone
// JPEG whose EXIF says "rotate 90°" and carries GPS, make, model, serial number and artist; a
// moderator approves (no JavaScript either); the ad page then shows it upright (portrait, the red
// corner top-right in the published 1280 file) and no published file of it carries any of those
// tags (read with exiftool).
import sharp from 'sharp';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { adPath } from '../../core/paths.ts';
import { heading, moderatorContext, signUpAndVerify } from '../helpers/e2e-members.ts';
import { exifTagsOf, phoneJpeg, privateTagsIn, redCornerOf } from '../helpers/photo-fixtures.ts';
import { chromiumAndPublishingSite } from '../helpers/publishing-site.ts';
import { fillNewAd } from '../helpers/ad-form.ts';
import { myAdIdOnMyAds } from '../helpers/my-data.ts';

const TITLE = 'Sunday farmers market, then coffee';
let member: BrowserContext;
let moderator: BrowserContext;

const world = chromiumAndPublishingSite({ label: 'photos-done-when' }, 240_000);
beforeAll(async () => {
  member = await world.browser.newContext({ javaScriptEnabled: false });
  ({ context: moderator } = await moderatorContext(world.browser, world.site, false));
});

afterAll(async () => {
  await member?.close();
  await moderator?.close();
});

/** The srcset entries of the ad page's first photo, widest last. */
function firstPhotoSizes(html: string): { path: string; width: number }[] {
  // The class only finds the first photo (locating, not checking).
  const img = /<div class="ad-photos__first">[\s\S]*?<img\b([^>]*)>/.exec(html)?.[1] ?? '';
  const srcset = /srcSet="([^"]*)"/i.exec(img)?.[1] ?? '';
  return srcset
    .split(',')
    .map((entry) => entry.trim().split(' '))
    .filter((parts) => parts.length === 2)
    .map(([path, width]) => ({ path: path!, width: Number.parseInt(width!, 10) }));
}

test('a phone photo posted without JavaScript is published upright and without its private tags', async () => {
  await signUpAndVerify(member, world.site, 'photos-done-when');
  const page: Page = await member.newPage();
  await page.goto(`${world.site.url}/post`);
  expect(await heading(page)).toBe('Post an ad');
  const description = 'Peaches, bread and a slow walk by the lake.';
  await fillNewAd(page, { city: 'Oakland', title: TITLE, description });
  await page.setInputFiles('input[type="file"][name="photos"]', {
    name: 'IMG_2041.jpg',
    mimeType: 'image/jpeg',
    buffer: await phoneJpeg(),
  });
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await page.waitForURL(`${world.site.url}/post/in-review`);
  const id = await myAdIdOnMyAds(page, world.site.url, TITLE);

  const mod = await moderator.newPage();
  await mod.goto(`${world.site.url}/moderate`);
  await mod.locator(`#ad-${id}`).getByRole('button', { name: 'Approve', exact: true }).click();
  await mod.waitForURL(/\/moderate\?done=/);
  // The approval asked for a publish before it answered: done once the publisher is idle.
  await world.site.publisher.idle();
  expect(world.site.publisher.lastOutcome).toEqual({ ok: true });

  const response = await fetch(`${world.site.url}${adPath('California', 'Oakland', id)}`);
  expect(response.status).toBe(200);
  const sizes = firstPhotoSizes(await response.text());
  expect(sizes.map((size) => size.width)).toEqual([320, 640, 1280]);
  for (const { path, width } of sizes) {
    const file = await fetch(`${world.site.url}${path}`);
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    // Upright: portrait, at its published width.
    expect(meta.width).toBe(width);
    expect(meta.height).toBeGreaterThan(width);
    expect(privateTagsIn(await exifTagsOf(bytes))).toEqual([]);
    if (width === 1280) expect(await redCornerOf(bytes)).toBe('top-right');
  }
}, 120_000);
