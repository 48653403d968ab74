// The whole loop of issue 10 on the production build, with the real publisher (the build's own
// steps, run by the server) and a real SQLite file: sign up → open the verification mail → verify
// → post → a moderator approves → the ad is on its city page, its own page and in the counts;
// reject → the member sees the reason; edit → back in review (the live ad unchanged); delete →
// 404 once published; expiry by the build date. Once in Chromium with JavaScript and once without
// it: every screen on the way is a plain form.
// The site is a copy of the shared build (dist/ and .content/) in a temporary folder, so that
// publishing changes nothing other tests read.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BuildPublisher } from '../../server/publishing/build-publisher.ts';
import { accountPath, adPath, adsApiPath, cityPath } from '../../core/paths.ts';
import { bothWays } from '../helpers/both-ways.ts';
import { gotoEnhanced, submitWithFetch, waitForEnhanced } from '../helpers/browser-waits.ts';
import {
  heading,
  mailTo,
  moderatorContext,
  signUpWithForm,
  verifyFromMail,
} from '../helpers/e2e-members.ts';
import { chromiumAndPublishingSite } from '../helpers/publishing-site.ts';
import { textOf } from './support.ts';
import { fillNewAd } from '../helpers/ad-form.ts';
import { formatDate } from '../../core/format.ts';
import { myAdIdOnMyAds } from '../helpers/my-data.ts';

const today = new Date().toISOString().slice(0, 10);
const daysFrom = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

let publisher: BuildPublisher;
let url = '';
let buildDate = today;

const world = chromiumAndPublishingSite({
  label: 'member-ad-flow',
  buildDate: () => buildDate,
});
beforeAll(() => {
  ({ url, publisher } = world.site);
});

/** What the server answers for a path now: status and visible text. */
async function fetched(path: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}${path}`);
  return { status: response.status, text: textOf(await response.text()) };
}

/** The landing page's count of active ads. */
async function activeAds(): Promise<number> {
  const { text } = await fetched('/');
  const count = /([\d,]+) active ads?/.exec(text)?.[1];
  if (!count) throw new Error(`No active-ads count on the landing page: ${text.slice(-400)}`);
  return Number(count.replace(/,/g, ''));
}

async function postAd(
  page: Page,
  city: string,
  title: string,
  javaScriptEnabled: boolean,
): Promise<number> {
  await gotoEnhanced(page, `${url}/post`, javaScriptEnabled);
  expect(await heading(page)).toBe('Post an ad');
  const description = 'Weekend hikes, old films and a good bookshop.\nCoffee first, then we see.';
  await fillNewAd(page, { city, title, description });
  const submit = page.getByRole('button', { name: 'Submit for review' });
  if (javaScriptEnabled) await submitWithFetch(submit, adsApiPath());
  else await submit.click();
  await page.waitForURL(`${url}/post/in-review`);
  expect(await heading(page)).toBe('Your ad is in review');
  return myAdIdOnMyAds(page, url, title);
}

async function moderate(
  page: Page,
  adId: number,
  action: 'Approve' | 'Approve the edit' | 'Reject',
  javaScriptEnabled: boolean,
  reason?: string,
) {
  await gotoEnhanced(page, `${url}/moderate`, javaScriptEnabled);
  const entry = page.locator(`#ad-${adId}`);
  if (reason) await entry.getByLabel('Reason').selectOption({ label: reason });
  await entry.getByRole('button', { name: action, exact: true }).click();
  await page.waitForURL(/\/moderate\?done=/);
}

describe.each(bothWays())(
  'a member ad from sign-up to the site and away, %s',
  (_, javaScriptEnabled) => {
    let member: BrowserContext;
    let moderator: BrowserContext;
    let page: Page;
    let mod: Page;
    const run = javaScriptEnabled ? 'js' : 'nojs';
    const email = `flow-${run}-${Date.now()}@example.com`;
    // Each run posts in its own cities (1 new ad per city per day).
    const cities = javaScriptEnabled
      ? ['Fresno', 'Bakersfield', 'Stockton']
      : ['Modesto', 'Visalia', 'Salinas'];
    const titles = {
      live: `Trail walks and coffee (${run})`,
      edited: `Trail walks, coffee and films (${run})`,
      rejected: `Board games on Sundays (${run})`,
      expiring: `Farmers market mornings (${run})`,
    };
    let liveId = 0;

    beforeAll(async () => {
      member = await world.browser.newContext({ javaScriptEnabled });
      // The moderator: a member given the role by the operator's command.
      ({ context: moderator } = await moderatorContext(
        world.browser,
        world.site,
        javaScriptEnabled,
      ));
      page = await member.newPage();
      mod = await moderator.newPage();
      page.on('dialog', (dialog) => void dialog.accept());
    });
    afterAll(async () => {
      await member?.close();
      await moderator?.close();
    });

    test('sign up, open the verification mail, verify', async () => {
      await signUpWithForm(page, url, email, '1990-04-12', javaScriptEnabled);
      await verifyFromMail(page, world.site, email);
    });

    test('post → a moderator approves → its page, its city page and the counts', async () => {
      const before = await activeAds();
      liveId = await postAd(page, cities[0]!, titles.live, javaScriptEnabled);
      // Nothing is on the site before a moderator approves it.
      expect((await fetched(adPath('California', cities[0]!, liveId))).status).toBe(404);

      await moderate(mod, liveId, 'Approve', javaScriptEnabled);
      await publisher.idle();
      const adPage = await fetched(adPath('California', cities[0]!, liveId));
      expect(adPage.status).toBe(200);
      expect(adPage.text).toContain(titles.live);
      expect(adPage.text).toContain('Weekend hikes, old films and a good bookshop.');
      // A member's ad is not a sample.
      expect(adPage.text).not.toContain('Sample ad');
      expect((await fetched(cityPath('California', cities[0]!))).text).toContain(titles.live);
      expect(await activeAds()).toBe(before + 1);
      expect((await mailTo(world.site.outboxDir, email, 'Your ad is approved')).text).toContain(
        titles.live,
      );

      await gotoEnhanced(page, `${url}/account`, javaScriptEnabled);
      const item = page.locator('.my-ad', { hasText: titles.live });
      expect(await item.locator('.ad-status').first().textContent()).toBe('Live');
    });

    test('reject with a reason → the member sees it on the account page', async () => {
      const id = await postAd(page, cities[1]!, titles.rejected, javaScriptEnabled);
      await moderate(mod, id, 'Reject', javaScriptEnabled, 'Spam or duplicate');
      await gotoEnhanced(page, `${url}/account`, javaScriptEnabled);
      const item = page.locator('.my-ad', { hasText: titles.rejected });
      expect(await item.locator('.ad-status').first().textContent()).toBe('Rejected');
      expect(await item.textContent()).toContain('Spam or duplicate');
      expect((await fetched(adPath('California', cities[1]!, id))).status).toBe(404);
    });

    test('edit the live ad → back in review; the site keeps the live text until approved', async () => {
      await gotoEnhanced(page, `${url}/account`, javaScriptEnabled);
      await page.getByRole('link', { name: `Edit “${titles.live}”` }).click();
      await page.waitForURL(/\/edit$/);
      await waitForEnhanced(page, javaScriptEnabled);
      await page.fill('#ad-title', titles.edited);
      await page.getByRole('button', { name: 'Send changes for review' }).click();
      await page.waitForURL(`${url}/account?done=edit-in-review`);
      const item = page.locator('.my-ad', { hasText: titles.live });
      expect(await item.textContent()).toContain('Your changes are in review');
      expect((await fetched(adPath('California', cities[0]!, liveId))).text).toContain(titles.live);

      await moderate(mod, liveId, 'Approve the edit', javaScriptEnabled);
      await publisher.idle();
      const adPage = await fetched(adPath('California', cities[0]!, liveId));
      expect(adPage.text).toContain(titles.edited);
      expect(adPage.text).not.toContain(titles.live);
    });

    test('delete → 404 once published', async () => {
      await gotoEnhanced(page, `${url}/account`, javaScriptEnabled);
      await page.getByRole('button', { name: `Delete “${titles.edited}”` }).click();
      await page.waitForURL(`${url}/account?done=deleted`);
      await publisher.idle();
      expect((await fetched(adPath('California', cities[0]!, liveId))).status).toBe(404);
      expect((await fetched(cityPath('California', cities[0]!))).text).not.toContain(titles.edited);
    });

    test('expiry by the build date: gone when the site is published 30 days on', async () => {
      const id = await postAd(page, cities[2]!, titles.expiring, javaScriptEnabled);
      await moderate(mod, id, 'Approve', javaScriptEnabled);
      await publisher.idle();
      const path = adPath('California', cities[2]!, id);
      expect((await fetched(path)).status).toBe(200);
      // Live for 30 days, as the member's My ads says.
      const expiresOn = daysFrom(today, 30);
      await page.goto(`${url}${accountPath()}`);
      expect(
        await page.getByRole('listitem', { name: titles.expiring, exact: true }).textContent(),
      ).toContain(`Expires on ${formatDate(expiresOn)}`);

      buildDate = expiresOn;
      try {
        expect(await publisher.publish('daily publish')).toEqual({ ok: true });
        expect((await fetched(path)).status).toBe(404);
      } finally {
        buildDate = today;
        expect(await publisher.publish('back to today')).toEqual({ ok: true });
      }
      expect((await fetched(path)).status).toBe(200);
    });
  },
);
