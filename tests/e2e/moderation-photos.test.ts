// The queue's photos on the production build, in Chromium with JavaScript and again without it: a
// moderator sees an ad's photos large (loaded through the server, numbered, with their alt texts
// and the flag of one that looks like a removed photo), removes one with a reason and a note, and
// the queue shows the ad without it; the photo's row says why, its hash is blocked. Then axe-core
// and screenshots of the queue with photos at 390 and 1280 px.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { bothWays } from '../helpers/both-ways.ts';
import { gotoEnhanced, loadedWidth } from '../helpers/browser-waits.ts';
import { insertAdInReview } from '../helpers/moderation.ts';
import { moderatorPageForTests, photoQueueForFile } from '../helpers/moderation-browser.ts';
import { lookAtWidths } from '../helpers/page-checks.ts';
import { nearCopy, smallJpeg } from '../helpers/photo-fixtures.ts';
import { photoSizeApiPath } from '../../core/paths.ts';
import { storedRow, storedRows } from '../helpers/stored-rows.ts';

const SHOTS =
  process.env.MODERATION_SCREENSHOTS_DIR ?? join(tmpdir(), 'localboard-moderation-photos');

const world = photoQueueForFile();

let seed = 7000;

/** A member's ad in review with three photos, the third a copy of one removed as spam before. */
async function adWithPhotos(title: string) {
  const accountId = await world.memberId('photos');
  const keep = async (bytes: Buffer) => world.keptPhotoId(accountId, bytes);
  const spam = await smallJpeg(seed++, 1600, 1200);
  const spamRow = (await world.server.store.photos.find(await keep(spam)))!;
  await world.server.store.photos.block({
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
  const adId = await insertAdInReview(world.server, { accountId, title });
  await world.putPhotosOnAd(adId, accountId, ids);
  return { adId, ids };
}

describe.each(bothWays('in Chromium'))(
  'the queue with photos %s',
  (_label, javaScriptEnabled, run) => {
    const moderator = moderatorPageForTests(world, javaScriptEnabled);

    test('shows the photos large, numbered, with alt texts and the flag; one removed with a reason', async () => {
      const { adId, ids } = await adWithPhotos('Sunday market and coffee');
      const [first, second, flagged] = ids as [number, number, number];
      await gotoEnhanced(moderator.page, `${world.server.url}/moderate`, javaScriptEnabled);
      const entry = moderator.page.locator(`#ad-${adId}`);
      const photos = entry.locator('.queue-photo');
      expect(await photos.count()).toBe(3);
      expect(await entry.getByRole('heading', { name: 'Photos (3)' }).count()).toBe(1);
      // Each at its largest size through the server, loaded, its alt text the default one.
      const images = entry.locator('img.queue-photo__image');
      expect(await images.nth(0).getAttribute('src')).toBe(photoSizeApiPath(first, 1280));
      expect(await images.nth(1).getAttribute('src')).toBe(photoSizeApiPath(second, 1200));
      for (let index = 0; index < 3; index++) {
        expect(await loadedWidth(images.nth(index))).toBeGreaterThan(0);
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

      await lookAtWidths(moderator.page, SHOTS, `queue-photos-${run}`, javaScriptEnabled);
      await moderator.page.setViewportSize({ width: 1280, height: 900 });

      // Remove the second: open its form (a <details>), a reason and a note.
      const remove = photos.nth(1);
      await remove.getByText('Remove photo 2…').click();
      await remove
        .getByLabel('Reason')
        .selectOption({ label: "Uses someone else's photos or identity" });
      await remove.getByLabel('Note to the member (optional)').fill('This is a stock photo.');
      await remove.getByRole('button', { name: 'Remove this photo' }).click();
      await moderator.page.waitForURL(
        `${world.server.url}/moderate?done=photo-removed&photo=${second}&ad=${adId}#ad-${adId}`,
      );
      expect(await moderator.page.locator('.banner').first().textContent()).toContain(
        `Photo ${second} removed from ad ${adId}`,
      );
      const after = moderator.page.locator(`#ad-${adId} img.queue-photo__image`);
      expect(await after.count()).toBe(2);
      expect(await after.nth(1).getAttribute('src')).toBe(photoSizeApiPath(flagged, 1280));
      expect(await after.nth(1).getAttribute('alt')).toBe('Photo 2 of 2: Sunday market and coffee');
      expect(
        await storedRow(
          world.server,
          'SELECT removed_reason, removed_note FROM photos WHERE id = ?',
          second,
        ),
      ).toEqual({ removed_reason: 'identity', removed_note: 'This is a stock photo.' });
      expect(
        await storedRows(
          world.server,
          'SELECT reason FROM blocked_photos WHERE photo_id = ?',
          second,
        ),
      ).toEqual([{ reason: 'identity' }]);
      await lookAtWidths(moderator.page, SHOTS, `queue-photo-removed-${run}`, javaScriptEnabled);
    });
  },
);
