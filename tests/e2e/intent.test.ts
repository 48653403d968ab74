// The visitor's intent, kept (docs/product.md section 3): Reply on an ad, signed out, leads through
// sign-in or sign-up and the verification mail back to that ad's reply screen, not to /success;
// with JavaScript through the dialog, without it through /signin and /signup. And a refused
// sign-in answered before the page's script arrived keeps its message once the script takes over.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { inject } from 'vitest';
import {
  adPath,
  newMessagePath,
  signinApiPath,
  signupApiPath,
  verifyPath,
} from '../../core/paths.ts';
import { waitForEnhanced } from '../helpers/browser-waits.ts';
import { fillJoinForm, mailTo, PASSWORD, uniqueEmail } from '../helpers/e2e-members.ts';
import { linkPath } from '../helpers/mail.ts';
import { baseUrl, builtAds, chromiumForTests } from './support.ts';

const chromium = chromiumForTests();

const ad = () => builtAds().find((entry) => entry.city === 'Los Angeles')!;
const replyScreen = () => `${baseUrl()}${newMessagePath(ad().id)}`;
const heading = (page: Page) => page.locator('h1').first().textContent();

/** Opens the verification link mailed to `email`, as it is in the mail, and presses the button. */
async function verifyFromTheMail(page: Page, email: string) {
  const link = linkPath(await mailTo(inject('outboxDir'), email, 'Verify'), verifyPath());
  expect(new URL(link, baseUrl()).searchParams.get('next')).toBe(newMessagePath(ad().id));
  await page.goto(`${baseUrl()}${link}`);
  await Promise.all([
    page.waitForURL(replyScreen()),
    page.getByRole('button', { name: 'Verify my email' }).click(),
  ]);
}

async function signUpOnThePage(page: Page, email: string) {
  await fillJoinForm(page, 'signup', { email });
  await Promise.all([
    page.waitForURL(replyScreen()),
    page.getByRole('button', { name: 'Continue' }).click(),
  ]);
}

describe('Reply on an ad, signed out', () => {
  let context: BrowserContext | undefined;
  afterAll(async () => {
    await context?.close();
  });

  test('without JavaScript: sign-in page, one click to sign-up, the mail, back to the reply screen', async () => {
    context = await chromium.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}${adPath(ad().state, ad().city, ad().id)}`);
    await Promise.all([
      page.waitForURL(`${baseUrl()}/signin?next=${encodeURIComponent(newMessagePath(ad().id))}`),
      page.getByRole('link', { name: 'Send Message' }).click(),
    ]);
    await Promise.all([
      page.waitForURL(`${baseUrl()}/signup?next=${encodeURIComponent(newMessagePath(ad().id))}`),
      page.getByRole('link', { name: 'Create a free account' }).click(),
    ]);
    const email = uniqueEmail('intent-plain');
    await signUpOnThePage(page, email);
    // Signed up, not yet verified: the reply screen of the ad says why it cannot be written yet.
    expect(await heading(page)).toBe('Reply to an ad');
    await verifyFromTheMail(page, email);
    expect(await heading(page)).toBe('Reply to an ad');
    expect(await page.locator('.banner--error').count()).toBe(0);
    await context.close();
    context = undefined;
  });

  test('with JavaScript: the dialog from Reply, the mail, back to the reply screen', async () => {
    context = await chromium.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${baseUrl()}${adPath(ad().state, ad().city, ad().id)}`);
    await page.getByRole('link', { name: 'Send Message' }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    const email = uniqueEmail('intent-dialog');
    await fillJoinForm(page, 'dialog', { email });
    await Promise.all([
      page.waitForURL(replyScreen()),
      dialog.getByRole('button', { name: 'Continue' }).click(),
    ]);
    await verifyFromTheMail(page, email);
    expect(await heading(page)).toBe('Reply to an ad');
    await context.close();
    context = undefined;
  });

  test('an existing member signs in from the sign-in page and lands on the reply screen', async () => {
    context = await chromium.browser.newContext();
    const email = uniqueEmail('intent-signin');
    const signup = await context.request.post(`${baseUrl()}${signupApiPath()}`, {
      data: { email, password: PASSWORD, dateOfBirth: '1990-04-12' },
    });
    expect(signup.status()).toBe(201);
    await context.clearCookies();
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/signin?next=${encodeURIComponent(newMessagePath(ad().id))}`);
    await waitForEnhanced(page);
    await page.fill('#signin-email', email);
    await page.fill('#signin-password', PASSWORD);
    await Promise.all([
      page.waitForURL(replyScreen()),
      page.getByRole('button', { name: 'Sign In' }).click(),
    ]);
    await context.close();
    context = undefined;
  });

  test('a `next` that is not a path of this site is never carried', async () => {
    const response = await fetch(
      `${baseUrl()}/signup?next=${encodeURIComponent('//evil.example/x')}`,
    );
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).not.toContain('evil.example');
  });
});

describe('a refused sign-in answered before the script arrives', () => {
  test('keeps its message, the email and where to go once the script has taken over', async () => {
    const context = await chromium.browser.newContext();
    try {
      const page = await context.newPage();
      // The page's scripts (the chunk that enhances the forms among them) are held back until
      // the answer page is on screen: a slow first load.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/.*\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      const next = newMessagePath(ad().id);
      // The page is on screen, its scripts not yet run: no waiting for its load event.
      await page.goto(`${baseUrl()}/signin?next=${encodeURIComponent(next)}`, {
        waitUntil: 'domcontentloaded',
      });
      await page.fill('#signin-email', 'nobody-here@example.com');
      await page.fill('#signin-password', 'not the password');
      await Promise.all([
        page.waitForResponse((response) => response.url().endsWith(signinApiPath())),
        page.getByRole('button', { name: 'Sign In' }).click(),
      ]);
      await page.waitForLoadState('domcontentloaded');
      expect(page.url()).toBe(`${baseUrl()}${signinApiPath()}`);
      expect(await page.locator('[data-enhanced="true"]').count()).toBe(0);
      expect(await page.locator('.banner--error').textContent()).toBe(
        'Email or password is incorrect.',
      );
      release();
      await waitForEnhanced(page);
      expect(await page.locator('.banner--error').textContent()).toBe(
        'Email or password is incorrect.',
      );
      expect(await page.inputValue('#signin-email')).toBe('nobody-here@example.com');
      expect(await page.locator('input[type="hidden"][name="next"]').inputValue()).toBe(next);
      expect(
        await page.getByRole('link', { name: 'Create a free account' }).getAttribute('href'),
      ).toBe(`/signup?next=${encodeURIComponent(next)}`);
    } finally {
      await context.close();
    }
  });
});
