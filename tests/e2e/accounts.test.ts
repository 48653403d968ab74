// Membership in Chromium: the sign-up dialog from every kind of member action, its focus and
// messages, sign-up, sign-in, the header, sign-out, and /signup without JavaScript.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  aboutPath,
  adPath,
  cityPath,
  meApiPath,
  signinApiPath,
  signoutApiPath,
  signupApiPath,
} from '../../core/paths.ts';
import {
  gotoEnhanced,
  shownText,
  submitWithFetch,
  waitForEnhanced,
} from '../helpers/browser-waits.ts';
import { fillJoinForm, type JoinFormValues } from '../helpers/e2e-members.ts';
import { startSiteServer } from './servers.ts';
import { builtAds, baseUrl, builtContent, chromiumForTests, siteDir } from './support.ts';

const chromium = chromiumForTests();

let emailCount = 0;
const uniqueEmail = () => `member${Date.now()}-${(emailCount += 1)}@example.com`;
const yearsAgo = (years: number, days = 0) => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() - years);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
};

/** A new page at `path`, once its script has enhanced it (member actions open the dialog). */
async function openPage(path: string, origin = baseUrl()): Promise<Page> {
  const page = await chromium.browser.newPage();
  await gotoEnhanced(page, `${origin}${path}`);
  return page;
}

const dialog = (page: Page) => page.locator('dialog[open]');

const fillSignup = (page: Page, values: JoinFormValues) => fillJoinForm(page, 'dialog', values);

function firstAd() {
  const ad = builtAds().find((entry) => entry.city === 'Los Angeles')!;
  return ad;
}

describe('the sign-up dialog', () => {
  test.each([
    ['Post Your Ad', '/', 'Post Your Ad'],
    ['Get Started', '/', 'Get Started'],
    ['Join Free (footer)', aboutPath(), 'Join Free'],
    ['Post Ad (footer of a post-flagged state)', 'post-state', 'Post Ad'],
    ['Reply', 'city', 'Reply'],
    ['Send Message', 'ad', 'Send Message'],
  ])('opens from %s and closes with X, focus back on the opener', async (_label, where, name) => {
    const path =
      where === 'post-state'
        ? `/state/${encodeURIComponent(builtContent().states.find((s) => s.footerButton === 'post')!.name)}`
        : where === 'city'
          ? cityPath('California', 'Los Angeles')
          : where === 'ad'
            ? adPath(firstAd().state, firstAd().city, firstAd().id)
            : where;
    const page = await openPage(path);
    const opener = page.getByRole('link', { name: new RegExp(`^${name}`) }).last();
    await opener.click();
    await dialog(page).waitFor();
    expect(await dialog(page).count()).toBe(1);
    expect(page.url()).toBe(`${baseUrl()}${path}`);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe(
      'hidden',
    );

    await page.getByRole('button', { name: 'Close' }).click();
    await dialog(page).waitFor({ state: 'detached' });
    expect(await dialog(page).count()).toBe(0);
    expect(await opener.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe(
      'hidden',
    );
    await page.close();
  });

  test('Escape closes it; Tab and Shift+Tab stay inside', async () => {
    const page = await openPage('/');
    const opener = page.getByRole('link', { name: 'Post Your Ad' }).first();
    await opener.click();
    await dialog(page).waitFor();
    expect(await dialog(page).count()).toBe(1);
    for (let step = 0; step < 12; step += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog')))).toBe(
        true,
      );
    }
    for (let step = 0; step < 12; step += 1) {
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog')))).toBe(
        true,
      );
    }
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'detached' });
    expect(await dialog(page).count()).toBe(0);
    expect(await opener.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.close();
  });

  test('shows field messages and sends nothing for an under-18 date of birth', async () => {
    const page = await openPage('/');
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(signupApiPath())) requests.push(request.url());
    });
    await page.getByRole('link', { name: 'Post Your Ad' }).first().click();
    await dialog(page).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await dialog(page).locator('.field__error').first().waitFor();
    const text = await dialog(page).innerText();
    expect(text).toContain('Enter your email address.');
    expect(text).toContain('Password must be at least 8 characters.');
    expect(text).toContain('Enter your date of birth.');
    expect(text).toContain('Confirm that you are 18 or older and accept the Terms.');

    await fillSignup(page, { email: uniqueEmail(), dateOfBirth: yearsAgo(18, -1) });
    await page.getByRole('button', { name: 'Continue' }).click();
    await dialog(page)
      .locator('.field__error')
      .filter({ hasText: 'You must be 18 or older to join.' })
      .waitFor();
    expect(await dialog(page).innerText()).toContain('You must be 18 or older to join.');
    expect(requests).toEqual([]);
    await page.close();
  });

  test('reads Creating Account... while the request is in flight, then goes to the reply screen of the ad and shows the member', async () => {
    const page = await openPage(cityPath('California', 'Los Angeles'));
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${signupApiPath()}`, async (route) => {
      await held;
      await route.continue();
    });
    const reply = page.getByRole('link', { name: /^Reply/ }).first();
    const replyScreen = await reply.getAttribute('href');
    await reply.click();
    await dialog(page).waitFor();
    const email = uniqueEmail();
    await fillSignup(page, { email, dateOfBirth: yearsAgo(30) });
    await page.getByRole('button', { name: 'Continue' }).click();
    const button = dialog(page).locator('button[type="submit"]');
    await button.filter({ hasText: 'Creating Account...' }).waitFor();
    expect(await button.textContent()).toBe('Creating Account...');
    expect(await button.isDisabled()).toBe(true);
    release();
    // Where the visitor was going: the reply screen of that ad (docs/product.md section 3).
    await page.waitForURL(`${baseUrl()}${replyScreen}`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Reply to an ad');
    await waitForEnhanced(page);
    expect(await page.locator('.member-bar__email').textContent()).toBe(email);
    await page.close();
  });

  test('waits for a busy server by itself, saying it is still working, then signs up', async () => {
    const page = await openPage(aboutPath());
    // The first try finds password hashing at capacity (503, try again in 1 s); the next goes on.
    let tries = 0;
    await page.route(`**${signupApiPath()}`, async (route) => {
      tries += 1;
      if (tries > 1) return route.continue();
      await route.fulfill({
        status: 503,
        headers: { 'Retry-After': '1', 'Cache-Control': 'no-store' },
        contentType: 'application/json',
        body: JSON.stringify({
          error: 'The server is busy right now. Please try again in 1 second.',
        }),
      });
    });
    await page.getByRole('link', { name: 'Post Your Ad' }).first().click();
    await dialog(page).waitFor();
    await fillSignup(page, { email: uniqueEmail(), dateOfBirth: yearsAgo(30) });
    await page.getByRole('button', { name: 'Continue' }).click();
    const status = dialog(page).getByRole('status');
    await status.filter({ hasText: 'still working' }).waitFor();
    expect(await status.textContent()).toBe(
      'Lots of people are signing up right now: still working…',
    );
    const button = dialog(page).locator('button[type="submit"]');
    expect(await button.textContent()).toBe('Creating Account...');
    expect(await button.isDisabled()).toBe(true);
    expect(await dialog(page).locator('.banner--error').count()).toBe(0);
    // No error was shown: the second try signs up and leads where the visitor was going.
    await page.waitForURL(`${baseUrl()}/post`);
    expect(tries).toBe(2);
    await page.close();
  });

  test("shows the server's error text in a red banner and stays on the page", async () => {
    const email = uniqueEmail();
    const first = await chromium.browser.newContext();
    const page = await first.newPage();
    await gotoEnhanced(page, `${baseUrl()}/`);
    await page.getByRole('link', { name: 'Post Your Ad' }).first().click();
    await dialog(page).waitFor();
    await fillSignup(page, { email, dateOfBirth: yearsAgo(25) });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${baseUrl()}/post`);
    await first.close();

    const again = await openPage(aboutPath());
    await again.getByRole('link', { name: 'Post Your Ad' }).first().click();
    await dialog(again).waitFor();
    await fillSignup(again, { email: email.toUpperCase(), dateOfBirth: yearsAgo(25) });
    await submitWithFetch(again.getByRole('button', { name: 'Continue' }), signupApiPath());
    const banner = dialog(again).locator('.banner--error');
    expect(await shownText(banner)).toBe(
      'An account with this email already exists. Sign in instead.',
    );
    expect(await banner.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      'rgb(253, 232, 231)',
    );
    expect(again.url()).toBe(`${baseUrl()}/about`);
    expect(await dialog(again).locator('button[type="submit"]').textContent()).toBe('Continue');
    await again.close();
  });

  test('with the API stopped, shows the network-failure text and does not navigate', async () => {
    const server = await startSiteServer(siteDir());
    try {
      const page = await openPage('/', server.url);
      await page.getByRole('link', { name: 'Post Your Ad' }).first().click();
      await dialog(page).waitFor();
      expect(await dialog(page).count()).toBe(1);
      await fillSignup(page, { email: uniqueEmail(), dateOfBirth: yearsAgo(40) });
      await server.stop();
      // No answer comes: the request fails, and the dialog says so.
      await Promise.all([
        page.waitForEvent('requestfailed', (request) => request.url().endsWith(signupApiPath())),
        page.getByRole('button', { name: 'Continue' }).click(),
      ]);
      expect(await shownText(dialog(page).locator('.banner--error'))).toBe(
        'Could not reach the server. Please try again.',
      );
      expect(page.url()).toBe(`${server.url}/`);
      await page.close();
    } finally {
      await server.stop();
    }
  });
});

describe('signing in and out', () => {
  test('sign in shows the member in the header; sign out brings back Join Free', async () => {
    const email = uniqueEmail();
    const context = await chromium.browser.newContext();
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const signup = await fetch(`${baseUrl()}${signupApiPath()}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        email,
        password: 'a long enough password',
        dateOfBirth: yearsAgo(33),
      }),
    });
    expect(signup.status).toBe(201);

    await gotoEnhanced(page, `${baseUrl()}/signin`);
    await page.fill('#signin-email', email);
    await page.fill('#signin-password', 'not the password');
    await submitWithFetch(page.getByRole('button', { name: 'Sign In' }), signinApiPath());
    expect(await shownText(page.locator('.banner--error'))).toBe('Email or password is incorrect.');

    await page.fill('#signin-password', 'a long enough password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${baseUrl()}/`);
    await waitForEnhanced(page);
    expect(await page.locator('.member-bar__email').textContent()).toBe(email);
    expect(await page.getByRole('link', { name: 'Join Free' }).first().isVisible()).toBe(false);

    await Promise.all([
      page.waitForResponse((response) => response.url().endsWith(signoutApiPath())),
      page.getByRole('button', { name: 'Sign out' }).click(),
    ]);
    await page.waitForLoadState('load');
    await waitForEnhanced(page);
    expect(await page.locator('.member-bar').count()).toBe(0);
    expect(await page.locator('footer').getByRole('link', { name: 'Join Free' }).isVisible()).toBe(
      true,
    );
    const me = await page.evaluate(async (url) => (await fetch(url)).status, meApiPath());
    expect(me).toBe(401);
    await context.close();
  });
});

describe('/signup without JavaScript', () => {
  test('refuses an under-18 date with the message on the page, then creates the account', async () => {
    const context = await chromium.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail();
    await page.goto(`${baseUrl()}/`);
    // Post Your Ad is a real link to /post, which asks a visitor to sign in or create an account.
    await page.getByRole('link', { name: 'Post Your Ad' }).first().click();
    await page.waitForURL(`${baseUrl()}/signin?next=%2Fpost`);
    await page.getByRole('link', { name: 'Create a free account' }).click();
    await page.waitForURL(`${baseUrl()}/signup?next=%2Fpost`);

    await fillJoinForm(page, 'signup', { email, dateOfBirth: yearsAgo(17) });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForLoadState('load');
    expect(await page.locator('.banner--error').textContent()).toBe(
      'You must be 18 or older to join.',
    );
    expect(await page.inputValue('#signup-email')).toBe(email);
    expect(await page.inputValue('#signup-password')).toBe('');

    await page.fill('#signup-password', 'a long enough password');
    await page.fill('#signup-dateOfBirth', yearsAgo(45));
    await page.check('#signup-acceptTerms');
    await page.getByRole('button', { name: 'Continue' }).click();
    // On to where the visitor was going: the posting page, which asks to verify the email first.
    await page.waitForURL(`${baseUrl()}/post`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Verify your email to post',
    );
    await context.close();
  });
});
