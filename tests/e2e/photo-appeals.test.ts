// A removed photo's appeal in Chromium (issue 30), on the production build: a moderator removes a
// photo from a member's live ad; the member, without JavaScript, appeals it from /account; another
// moderator sees the removed photo itself on /moderate/appeals (loaded through the moderators-only
// URL, with its alt text), with axe-core and screenshots at 390 and 1280 px, and reverses it: the
// photo is the member's again and the site is asked to publish it.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, test } from 'vitest';
import { moderatorContext, signUpWithApi, uniqueEmail } from '../helpers/e2e-members.ts';
import { photoQueueForFile } from '../helpers/moderation-browser.ts';
import { lookAtWidths } from '../helpers/page-checks.ts';
import { smallJpeg } from '../helpers/photo-fixtures.ts';
import { insertLiveAd } from '../helpers/reports.ts';
import { photoSizeApiPath, removePhotoApiPath } from '../../core/paths.ts';
import { textOf } from './support.ts';

const SHOTS = process.env.MODERATION_SCREENSHOTS_DIR ?? join(tmpdir(), 'localboard-photo-appeals');

const world = photoQueueForFile();

describe('a removed photo appealed and reversed', () => {
  test('the appeal shows the photo as it was to another moderator, who puts it back', async () => {
    const member = await world.browser.newContext({ javaScriptEnabled: false });
    const email = uniqueEmail('photo-appeal');
    await signUpWithApi(member, world.server.url, email);
    const { id: accountId } = (await world.server.store.accounts.findByEmail(email))!;
    const ids = [
      await world.keptPhotoId(accountId, await smallJpeg(8801, 1600, 1200)),
      await world.keptPhotoId(accountId, await smallJpeg(8802, 1200, 1600)),
    ];
    const adId = await insertLiveAd(world.server, { accountId, title: 'Canyon hike on Sunday' });
    await world.putPhotosOnAd(adId, accountId, ids);
    const [removedId] = ids as [number, number];

    const a = await moderatorContext(world.browser, world.server, true);
    const removed = await a.context.request.post(
      `${world.server.url}${removePhotoApiPath(removedId)}`,
      { data: { reason: 'identity', note: 'Looks like a stock photo.' } },
    );
    expect(removed.status()).toBe(200);
    expect(
      (await member.request.get(`${world.server.url}${photoSizeApiPath(removedId, 320)}`)).status(),
    ).toBe(404);

    // The member appeals, without JavaScript.
    const page = await member.newPage();
    await page.goto(`${world.server.url}/account`);
    expect(textOf(await page.content())).toContain('A photo was removed from your ad.');
    await page.getByRole('link', { name: 'Appeal this decision' }).first().click();
    await page.waitForURL(/\/account\/decisions\/\d+$/);
    expect(textOf(await page.content())).toContain(
      'we keep the photo where only moderators can see it',
    );
    await page.getByLabel('Your appeal').fill('I took this photo myself on the canyon trail.');
    await page.getByRole('button', { name: 'Send my appeal' }).click();
    await page.waitForURL(/done=appealed$/);

    // Another moderator sees the photo itself, and reverses the removal.
    const b = await moderatorContext(world.browser, world.server, true);
    const bPage = await b.context.newPage();
    await bPage.goto(`${world.server.url}/moderate/appeals`);
    const image = bPage.locator(`.appeal__photo img[src^="/api/photos/${removedId}/"]`);
    await image.first().scrollIntoViewIfNeeded();
    const width = await image.first().evaluate((element: HTMLImageElement) =>
      element.complete && element.naturalWidth > 0
        ? element.naturalWidth
        : new Promise<number>((resolve, reject) => {
            element.addEventListener('load', () => resolve(element.naturalWidth), { once: true });
            element.addEventListener('error', reject, { once: true });
          }),
    );
    expect(width).toBeGreaterThan(0);
    expect(textOf(await bPage.content())).toContain('The removed photo as it was.');
    await lookAtWidths(bPage, SHOTS, 'photo-appeal', true);
    await bPage.setViewportSize({ width: 1280, height: 900 });

    const published = world.server.published.length;
    await bPage.getByRole('button', { name: 'Reverse it' }).click();
    await bPage.waitForURL(/done=reversed$/);
    expect(world.server.published.slice(published)).toEqual([
      `reversed on appeal: photo ${removedId} back on ad ${adId}`,
    ]);
    expect(
      (await member.request.get(`${world.server.url}${photoSizeApiPath(removedId, 320)}`)).status(),
    ).toBe(200);
    await page.goto(`${world.server.url}/account`);
    expect(textOf(await page.content())).toContain('Reversed');
    await Promise.all([member.close(), a.context.close(), b.context.close()]);
  });
});
