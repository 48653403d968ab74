// Email verification and password reset on the production build, in Chromium with JavaScript and
// again without it (every form as a plain POST): sign up, open the mailed link, verify, see it on
// the account page, resend the link, sign in and back, forgot → reset → the new password works and
// the old one and the old sessions do not. The mail is read from the test server's outbox.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import {
  gotoEnhanced,
  shownText,
  submitWithFetch,
  waitForEnhanced,
} from '../helpers/browser-waits.ts';
import { bothWays } from '../helpers/both-ways.ts';
import {
  heading,
  mailTo as mailInOutbox,
  PASSWORD,
  signUpWithForm,
  uniqueEmail,
} from '../helpers/e2e-members.ts';
import { linkToken, type ReadMail } from '../helpers/mail.ts';
import { FORGOT_SENT } from '../../src/pages/forgot/forgotData.ts';
import { baseUrl, fetchPage, chromiumForTests } from './support.ts';
import {
  accountPath,
  forgotPath,
  resetPath,
  signinApiPath,
  signinPath,
  verifyPath,
} from '../../core/paths.ts';

const chromium = chromiumForTests();

const NEW_PASSWORD = 'an even longer new password';

/** The newest mail to `to` whose subject contains `about`, once there are more than `after`. */
const mailTo = (to: string, about: string, after = 0) =>
  mailInOutbox(inject('outboxDir'), to, about, after);

/** The link's path on the test server (the mails link to it: its own base URL). */
function linkPath(mail: ReadMail, path: string): string {
  const token = linkToken(mail, path);
  expect(mail.text).toContain(`${baseUrl()}${path}?token=${token}`);
  return `${path}?token=${token}`;
}

const signUp = (page: Page, email: string, javaScriptEnabled: boolean) =>
  signUpWithForm(page, baseUrl(), email, '1990-04-12', javaScriptEnabled);

/** Signs in on the /signin page; with JavaScript, until the answer to its fetch has arrived. */
async function signIn(page: Page, email: string, password: string, javaScriptEnabled: boolean) {
  await page.fill('#signin-email', email);
  await page.fill('#signin-password', password);
  const button = page.getByRole('button', { name: 'Sign In' });
  if (javaScriptEnabled) await submitWithFetch(button, signinApiPath());
  else await button.click();
}

describe.each(bothWays('in Chromium'))('emailed links %s', (_label, javaScriptEnabled) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await chromium.browser.newContext({ javaScriptEnabled });
  });
  afterAll(async () => {
    await context?.close();
  });

  test('sign up, open the mailed link, press Verify my email: the account page says verified', async () => {
    page = await context.newPage();
    const email = uniqueEmail('verify');
    await signUp(page, email, javaScriptEnabled);
    const mail = await mailTo(email, 'Verify');
    await page.goto(`${baseUrl()}/account`);
    expect(await page.locator('.status').textContent()).toBe('Not verified yet');

    await page.goto(`${baseUrl()}${linkPath(mail, verifyPath())}`);
    expect(await heading(page)).toBe('Verify your email');
    await page.getByRole('button', { name: 'Verify my email' }).click();
    await page.waitForLoadState('load');
    expect(await heading(page)).toBe('Your email is verified');

    await page.getByRole('link', { name: 'Go to your account' }).click();
    await page.waitForURL(`${baseUrl()}/account`);
    expect(await page.locator('dd').first().textContent()).toBe(email);
    expect(await page.locator('.status').textContent()).toBe('Verified');
    expect(await page.getByRole('button', { name: 'Resend the link' }).count()).toBe(0);

    // The same link again: already used.
    await page.goto(`${baseUrl()}${linkPath(mail, verifyPath())}`);
    expect(await heading(page)).toBe('This link was already used');
    await page.close();
  });

  test('Resend the link sends a new link that works', async () => {
    page = await context.newPage();
    const email = uniqueEmail('resend');
    await signUp(page, email, javaScriptEnabled);
    await mailTo(email, 'Verify');
    await page.goto(`${baseUrl()}/account`);
    await page.getByRole('button', { name: 'Resend the link' }).click();
    await page.waitForURL(`${baseUrl()}/account?sent=1`);
    expect(await page.locator('.banner--info').textContent()).toBe(
      `We have sent a new link to ${email}. It works once, for 24 hours.`,
    );
    const second = await mailTo(email, 'Verify', 1);
    await page.goto(`${baseUrl()}${linkPath(second, verifyPath())}`);
    await page.getByRole('button', { name: 'Verify my email' }).click();
    await page.waitForLoadState('load');
    expect(await heading(page)).toBe('Your email is verified');
    await page.close();
  });

  test('the account page sends a signed-out visitor to sign in, and back', async () => {
    const email = uniqueEmail('back');
    page = await context.newPage();
    await signUp(page, email, javaScriptEnabled);
    await context.clearCookies();
    await page.goto(`${baseUrl()}/account`);
    expect(page.url()).toBe(`${baseUrl()}/signin?next=%2Faccount`);
    await waitForEnhanced(page, javaScriptEnabled);
    await signIn(page, email, 'not the password', javaScriptEnabled);
    expect(await shownText(page.locator('.banner--error'))).toBe('Email or password is incorrect.');
    await signIn(page, email, PASSWORD, javaScriptEnabled);
    await page.waitForURL(`${baseUrl()}/account`);
    expect(await page.locator('dd').first().textContent()).toBe(email);
    await page.close();
  });

  test('forgot → reset mail → the new password works, the old one and old sessions do not', async () => {
    const email = uniqueEmail('reset');
    const other = await chromium.browser.newContext({ javaScriptEnabled });
    const elsewhere = await other.newPage();
    await signUp(elsewhere, email, javaScriptEnabled);
    await context.clearCookies();
    page = await context.newPage();

    // An address without an account gets the same answer.
    for (const address of [uniqueEmail('nobody'), email]) {
      await gotoEnhanced(page, `${baseUrl()}/signin`, javaScriptEnabled);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.waitForURL(`${baseUrl()}/forgot`);
      await page.fill('#forgot-email', address);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await page.waitForURL(`${baseUrl()}/forgot?sent=1`);
      expect(await page.locator('.banner--info').textContent()).toBe(FORGOT_SENT);
    }
    const mail = await mailTo(email, 'password');

    await page.goto(`${baseUrl()}${linkPath(mail, resetPath())}`);
    expect(await heading(page)).toBe('Choose a new password');
    await page.fill('#reset-password', 'short');
    await page.getByRole('button', { name: 'Set new password' }).click();
    // The browser's own check (minlength, with or without JavaScript) keeps the form here; the
    // server's answer to a short password is tested in tests/integration/accounts/password-reset.
    expect(page.url()).toBe(`${baseUrl()}${linkPath(mail, resetPath())}`);
    await page.fill('#reset-password', NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL(`${baseUrl()}/reset?done=1`);
    expect(await heading(page)).toBe('Your password has been changed');

    // The session of the other browser is gone.
    await elsewhere.goto(`${baseUrl()}/account`);
    expect(elsewhere.url()).toBe(`${baseUrl()}/signin?next=%2Faccount`);
    await other.close();

    await page.getByRole('link', { name: 'Sign In' }).last().click();
    await page.waitForURL(`${baseUrl()}/signin`);
    await waitForEnhanced(page, javaScriptEnabled);
    await signIn(page, email, PASSWORD, javaScriptEnabled);
    expect(await shownText(page.locator('.banner--error'))).toBe('Email or password is incorrect.');
    await signIn(page, email, NEW_PASSWORD, javaScriptEnabled);
    await page.waitForURL(`${baseUrl()}/`);

    // The link works once.
    await page.goto(`${baseUrl()}${linkPath(mail, resetPath())}`);
    expect(await heading(page)).toBe('This link was already used');
    await page.close();
  });
});

describe('the pages rendered on request, fetched raw', () => {
  test('are never cached, never in the sitemap, and link the same stylesheet as the prerendered pages', async () => {
    const signin = await fetchPage(signinPath());
    const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(signin.html)?.[1];
    expect(stylesheet).toMatch(/^\/assets\//);
    for (const path of [forgotPath(), verifyPath(), resetPath()]) {
      const { status, html, headers } = await fetchPage(path);
      expect(status).toBe(200);
      expect(headers.get('cache-control')).toBe('no-store');
      expect(html).toContain(`<link rel="stylesheet" href="${stylesheet}"/>`);
      expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
      expect(html).toContain('Personal ads in the United States - 18+ only');
    }
    const sitemap = await fetchPage('/sitemap.xml');
    for (const path of [forgotPath(), verifyPath(), resetPath(), accountPath()])
      expect(sitemap.html).not.toContain(`${path}</loc>`);
  });

  test('/account without a session is a redirect to sign in, on this site', async () => {
    const response = await fetch(`${baseUrl()}/account`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/signin?next=%2Faccount');
  });
});
