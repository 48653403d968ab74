// An expired ad is renewed before it is edited (docs/product.md section 6), on the production
// build, in Chromium with JavaScript and again without it: its edit page says so with Renew
// instead of the form; Renew leads back to the edit page, now with the form, and the edit goes to
// review. Screenshots of the page at 390 and 1280 px, and axe-core on it.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { editAdPath, signinApiPath } from '../../core/paths.ts';
import { bothWays, desktopContext } from '../helpers/both-ways.ts';
import { gotoEnhanced, waitForEnhanced } from '../helpers/browser-waits.ts';
import {
  heading,
  PASSWORD,
  signUpWithApi,
  uniqueEmail,
  verifyFromMail,
} from '../helpers/e2e-members.ts';
import { liveAdThroughApi, moderationBrowserForFile } from '../helpers/moderation-browser.ts';
import { lookAtWidths } from '../helpers/page-checks.ts';
import { formatDate } from '../../core/format.ts';

const SHOTS = process.env.POSTING_SCREENSHOTS_DIR ?? '/tmp/localboard-posting-screenshots';

const world = moderationBrowserForFile();

const dayFromToday = (days: number) =>
  new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Screenshots at both widths; with JavaScript, axe-core too. */
const lookAt = (page: Page, name: string, javaScriptEnabled: boolean) =>
  lookAtWidths(page, SHOTS, name, javaScriptEnabled);

describe.each(bothWays())('the edit page of an expired ad, %s', (_, javaScriptEnabled, run) => {
  let context: BrowserContext;
  let page: Page;
  let adId = 0;

  beforeAll(async () => {
    context = await desktopContext(world.browser, javaScriptEnabled);
    const email = uniqueEmail(`expired-${run}`);
    await signUpWithApi(context, world.server.url, email);
    page = await context.newPage();
    await verifyFromMail(page, world.server, email);
    adId = await liveAdThroughApi(world, context, {
      city: javaScriptEnabled ? 'Fresno' : 'Modesto',
      title: `Sunday markets and long walks (${run})`,
      description: 'Farmers markets on Sundays, then a long walk.',
    });
    // Time passes, on the server's clock (the machine's Date, faked): 35 days on, the ad expired
    // five days ago, and the member signs in again (a session lasts 30 days).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 35 * 86_400_000 });
    const signedIn = await context.request.post(`${world.server.url}${signinApiPath()}`, {
      data: { email, password: PASSWORD },
    });
    expect(signedIn.status()).toBe(200);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await context?.close();
  });

  test('says to renew first, with Renew instead of the form; Renew leads back to the form', async () => {
    await gotoEnhanced(page, `${world.server.url}${editAdPath(adId)}`, javaScriptEnabled);
    expect(await heading(page)).toBe('Renew your ad first');
    expect(await page.locator('.renew-first').textContent()).toContain(
      'Renew it before editing it',
    );
    expect(await page.getByLabel('Title').count()).toBe(0);
    await lookAt(page, `edit-expired-${run}`, javaScriptEnabled);

    await page.getByRole('button', { name: /^Renew/ }).click();
    await page.waitForURL(`${world.server.url}${editAdPath(adId)}?done=renewed`);
    await waitForEnhanced(page, javaScriptEnabled);
    expect(await heading(page)).toBe('Edit your ad');
    expect(await page.getByRole('status').first().textContent()).toContain(
      'Your ad is renewed and live until',
    );
    await lookAt(page, `edit-renewed-${run}`, javaScriptEnabled);
    await page.getByLabel('Title').fill(`Sunday markets, edited (${run})`);
    await page.getByRole('button', { name: 'Send changes for review' }).click();
    await page.waitForURL(`${world.server.url}/account?done=edit-in-review`);
    // My ads says so: live 30 days from today, the changes in review, the edit page shows them.
    const myAds = await page.locator('main').textContent();
    expect(myAds).toContain(`Expires on ${formatDate(dayFromToday(30))}`);
    expect(myAds).toContain('Your changes are in review');
    await gotoEnhanced(page, `${world.server.url}${editAdPath(adId)}`, javaScriptEnabled);
    expect(await page.getByLabel('Title').inputValue()).toBe(`Sunday markets, edited (${run})`);
  });
});
