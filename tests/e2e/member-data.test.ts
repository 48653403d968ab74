// The member's own data on the production build, in Chromium with JavaScript and again without it
// (every step a plain link or form post): a member signs up, verifies through the mailed link,
// posts an ad, downloads their data (the file's JSON has the ad), is refused with a wrong password,
// deletes the account with the right one, and can then no longer sign in. Then axe-core and
// screenshots of /account and /account/delete at 390 and 1280 px.
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  heading,
  mailTo,
  PASSWORD,
  signUpAndVerify as signUpAndVerifyOn,
  signUpWithForm,
  verifyFromMail,
} from '../helpers/e2e-members.ts';
import { bothWays } from '../helpers/both-ways.ts';
import { gotoEnhanced, shownText, submitWithFetch } from '../helpers/browser-waits.ts';
import { chromiumAndServerForFile } from '../helpers/moderation-browser.ts';
import {
  overflowWidth,
  screenshot,
  screenshotPath,
  seriousAxeViolations,
} from '../helpers/page-checks.ts';
import { textOf } from './support.ts';
import {
  accountDataApiPath,
  accountPath,
  adsApiPath,
  deleteAccountPath,
  signinApiPath,
} from '../../core/paths.ts';
import { fillNewAd } from '../helpers/ad-form.ts';

const world = chromiumAndServerForFile();

/** Signs up with the form, opens the mailed link and verifies, as a person would. */
async function signUpAndVerify(page: Page, email: string, javaScriptEnabled: boolean) {
  await signUpWithForm(page, world.server.url, email, '1988-06-30', javaScriptEnabled);
  await verifyFromMail(page, world.server, email);
}

async function postAd(page: Page, city: string, title: string, javaScriptEnabled: boolean) {
  await gotoEnhanced(page, `${world.server.url}/post`, javaScriptEnabled);
  const description = 'Early walks, old films and a good bookshop. Coffee first.';
  await fillNewAd(page, { city, title, description });
  const submit = page.getByRole('button', { name: 'Submit for review' });
  if (javaScriptEnabled) await submitWithFetch(submit, adsApiPath());
  else await submit.click();
  await page.waitForURL(`${world.server.url}/post/in-review`);
}

describe.each(bothWays())(
  'download my data, then delete my account, %s',
  (_, javaScriptEnabled, run) => {
    const email = `leaving-${run}-${Date.now()}@example.com`;
    const title = `Sunday crosswords and tea (${run})`;
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      context = await world.browser.newContext({ javaScriptEnabled, acceptDownloads: true });
      page = await context.newPage();
      await signUpAndVerify(page, email, javaScriptEnabled);
      await postAd(page, javaScriptEnabled ? 'Fresno' : 'Modesto', title, javaScriptEnabled);
    });
    afterAll(async () => {
      await context?.close();
    });

    test('Download my data on /account gives a JSON file with the ad', async () => {
      await gotoEnhanced(page, `${world.server.url}/account`, javaScriptEnabled);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download my data' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(
        `localboard-data-${new Date().toISOString().slice(0, 10)}.json`,
      );
      const file = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
        format: number;
        account: { email: string; dateOfBirth: string };
        ads: { title: string; status: string; city: string }[];
      };
      expect(file.format).toBe(1);
      expect(file.account).toMatchObject({ email, dateOfBirth: '1988-06-30' });
      expect(file.ads).toEqual([
        expect.objectContaining({
          title,
          status: 'review',
          city: javaScriptEnabled ? 'Fresno' : 'Modesto',
        }),
      ]);
      // Still on the account page: a download does not navigate.
      expect(await heading(page)).toBe('Your account');
    });

    test('a wrong password: the form again with the message, nothing deleted', async () => {
      await gotoEnhanced(page, `${world.server.url}/account`, javaScriptEnabled);
      await page.getByRole('link', { name: 'Delete my account' }).click();
      await page.waitForURL(`${world.server.url}/account/delete`);
      expect(await heading(page)).toBe('Delete my account');
      await page.getByLabel('Your password').fill('not the password');
      await page.getByRole('button', { name: 'Delete my account' }).click();
      await page.waitForLoadState('load');
      expect(await page.getByRole('alert').textContent()).toBe(
        'That password is not right. Your account was not deleted.',
      );
      expect(await world.server.store.accounts.findByEmail(email)).toBeDefined();
    });

    test('the right password: the account is deleted, and says so', async () => {
      await page.getByLabel('Your password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Delete my account' }).click();
      await page.waitForURL(`${world.server.url}/account/delete?done=1`);
      expect(await heading(page)).toBe('Your account is deleted');
      expect(await world.server.store.accounts.findByEmail(email)).toBeUndefined();
      expect((await mailTo(world.server.outboxDir, email, 'has been deleted')).subject).toBe(
        'Your Localboard account has been deleted',
      );
      // Signed out: the account page asks to sign in.
      await page.goto(`${world.server.url}/account`);
      await page.waitForURL(/\/signin\?next=%2Faccount$/);
    });

    test('signing in again fails with the ordinary message', async () => {
      await gotoEnhanced(page, `${world.server.url}/signin`, javaScriptEnabled);
      await page.fill('#signin-email', email);
      await page.fill('#signin-password', PASSWORD);
      const button = page.getByRole('button', { name: 'Sign In' });
      if (javaScriptEnabled) await submitWithFetch(button, signinApiPath());
      else await button.click();
      expect(await shownText(page.getByRole('alert'))).toBe('Email or password is incorrect.');
      expect(page.url()).not.toMatch(/\/account/);
    });
  },
);

describe('without a browser: the raw answers', () => {
  test('signed out, the data is 401 and the deletion page sends to sign in', async () => {
    const data = await fetch(`${world.server.url}${accountDataApiPath()}`);
    expect(data.status).toBe(401);
    const page = await fetch(`${world.server.url}/account/delete`, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/signin?next=%2Faccount%2Fdelete');
    const done = await fetch(`${world.server.url}/account/delete?done=1`);
    expect(textOf(await done.text())).toContain('Your account is deleted');
  });
});

describe('/account and /account/delete at 390 and 1280 px', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await world.browser.newContext({ bypassCSP: true });
    // Arranged through the API: the forms are the describes' above.
    await signUpAndVerifyOn(context, world.server, 'screens');
    const posted = await context.request.post(`${world.server.url}${adsApiPath()}`, {
      data: {
        state: 'California',
        city: 'Bakersfield',
        age: '36',
        seeks: 'w4m',
        title: 'Board games on Sunday afternoons',
        description: 'Early walks, old films and a good bookshop. Coffee first.',
      },
    });
    expect(posted.status()).toBe(201);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  for (const width of [390, 1280]) {
    test(`no serious or critical axe violation, nothing wider than the screen, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, path] of [
        ['account', accountPath()],
        ['delete-account', deleteAccountPath()],
      ] as const) {
        await gotoEnhanced(page, `${world.server.url}${path}`);
        await screenshot(page, screenshotPath(`${name}-${width}`), { fullPage: true });
        expect(await seriousAxeViolations(page), name).toEqual([]);
        expect(await overflowWidth(page), name).toBeLessThanOrEqual(0);
      }
    });
  }
});
