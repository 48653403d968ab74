// Members in the e2e tests, against a server whose outbox and database the test holds (the
// moderation and publishing servers): unique addresses, sign-up (the join form filled in on
// /signup or in the dialog, or the API), the mailed verification link,
// moderators made as the operator's command makes them, the page's heading, and a reply sent in a
// conversation as a member sends it.
import { mkdirSync, watch } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Store } from '../../store/store.ts';
import { makeModerator } from '../../server/moderation/moderator-command.ts';
import { signupApiPath, verifyApiPath, verifyPath } from '../../core/paths.ts';
import { gotoEnhanced, waitForEnhanced } from './browser-waits.ts';
import { linkToken, mailsTo, type ReadMail } from './mail.ts';

export const PASSWORD = 'a long enough password';

/** What these helpers need of the server under test. */
export interface MemberSite {
  url: string;
  /** The server's store: moderators are made through it, as the operator's command does. */
  store: Store;
  outboxDir: string;
}

let count = 0;
/** An address no other test in the run uses (tests of one file share a server). */
export const uniqueEmail = (label: string) => `${label}-${Date.now()}-${(count += 1)}@example.com`;

export const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

/**
 * The newest mail to `to` whose subject has `about`, once there are more than `after` of them. Mail
 * is sent in the background, and the server may run in another process (the shared one runs in
 * vitest's global setup): the mail's .eml file landing in the outbox is the event to wait for.
 */
export async function mailTo(
  outboxDir: string,
  to: string,
  about: string,
  after = 0,
): Promise<ReadMail> {
  // A mail written whole ends with its closing MIME boundary; a file seen half-written is not it.
  const found = () =>
    mailsTo(outboxDir, to).filter(
      (mail) => mail.subject.includes(about) && mail.raw.trimEnd().endsWith('--'),
    );
  // The mailer makes the folder with the first mail; watched from before the first look, no mail
  // is missed.
  mkdirSync(outboxDir, { recursive: true });
  const watcher = watch(outboxDir);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<ReadMail>((resolve, reject) => {
      const look = () => {
        const mails = found();
        if (mails.length > after) resolve(mails.at(-1)!);
      };
      watcher.on('change', look);
      watcher.on('error', reject);
      // Not a wait: how long a mail may take before the test says it never came.
      timer = setTimeout(
        () => reject(new Error(`No mail to ${to} about "${about}" within 10 s`)),
        10_000,
      );
      look();
    });
  } finally {
    clearTimeout(timer);
    watcher.close();
  }
}

/** Signs up through the API in this browser context (its cookie jar keeps the session). */
export async function signUpWithApi(context: BrowserContext, url: string, email: string) {
  const response = await context.request.post(`${url}${signupApiPath()}`, {
    data: { email, password: PASSWORD, dateOfBirth: '1990-04-12' },
  });
  expect(response.status()).toBe(201);
}

/** What a person types into the join form (the tests' password and a 1990 birthday unless told). */
export interface JoinFormValues {
  email: string;
  password?: string;
  dateOfBirth?: string;
  /** The terms box ticked (unless false). */
  terms?: boolean;
}

/** Fills in the join form, on /signup (`signup`) or in the dialog from a link (`dialog`). */
export async function fillJoinForm(
  page: Page,
  form: 'signup' | 'dialog',
  { email, password = PASSWORD, dateOfBirth = '1990-04-12', terms = true }: JoinFormValues,
) {
  await page.fill(`#${form}-email`, email);
  await page.fill(`#${form}-password`, password);
  await page.fill(`#${form}-dateOfBirth`, dateOfBirth);
  if (terms) await page.check(`#${form}-acceptTerms`);
}

/**
 * Signs up with the form on /signup, as a person would (with JavaScript, once the page's script
 * has enhanced the form); the server answers with /success.
 */
export async function signUpWithForm(
  page: Page,
  url: string,
  email: string,
  dateOfBirth: string,
  javaScriptEnabled: boolean,
) {
  await gotoEnhanced(page, `${url}/signup`, javaScriptEnabled);
  await fillJoinForm(page, 'signup', { email, dateOfBirth });
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${url}/success`);
}

/** Opens the verification link mailed to `email` and verifies, as a person would. */
export async function verifyFromMail(
  page: Page,
  site: Pick<MemberSite, 'url' | 'outboxDir'>,
  email: string,
) {
  const token = linkToken(await mailTo(site.outboxDir, email, 'Verify'), verifyPath());
  await page.goto(`${site.url}/verify?token=${token}`);
  await page.getByRole('button', { name: 'Verify my email' }).click();
  await page.waitForLoadState('load');
  expect(await heading(page)).toBe('Your email is verified');
}

/**
 * A browser context signed in as a new moderator; `bypassCSP` lets the test inject axe-core (the
 * site's Content-Security-Policy forbids inline scripts).
 */
export async function moderatorContext(
  browser: Browser,
  site: MemberSite,
  javaScriptEnabled: boolean,
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; email: string }> {
  const context = await browser.newContext({ javaScriptEnabled, viewport, bypassCSP: true });
  const email = uniqueEmail('moderator');
  await signUpWithApi(context, site.url, email);
  expect((await makeModerator(site.store, email)).code).toBe(0);
  return { context, email };
}

/**
 * Signs up in the context and verifies with the mailed link: opened in a new page and its button
 * pressed, as a person would, or (`throughApi`) its token posted to the API; the email.
 */
export async function signUpAndVerify(
  context: BrowserContext,
  site: Pick<MemberSite, 'url' | 'outboxDir'>,
  label: string,
  { throughApi = false } = {},
): Promise<string> {
  const email = uniqueEmail(label);
  await signUpWithApi(context, site.url, email);
  if (throughApi) {
    const token = linkToken(await mailTo(site.outboxDir, email, 'Verify'), verifyPath());
    const verified = await context.request.post(`${site.url}${verifyApiPath()}`, {
      data: { token },
    });
    expect(verified.status()).toBe(200);
  } else {
    const page = await context.newPage();
    await verifyFromMail(page, site, email);
    await page.close();
  }
  return email;
}

/**
 * Opens the conversation at `url`, writes `text` in its reply box (labelled 'Reply to the member'
 * for the poster, 'Reply to the poster' for the one who wrote first), sends it, and waits for the
 * conversation again at its latest message, enhanced when JavaScript runs.
 */
export async function sendReply(
  page: Page,
  url: string,
  box: 'Reply to the member' | 'Reply to the poster',
  text: string,
  javaScriptEnabled: boolean,
): Promise<void> {
  await gotoEnhanced(page, url, javaScriptEnabled);
  await page.getByLabel(box).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.waitForURL(`${url}#latest`);
  await waitForEnhanced(page, javaScriptEnabled);
}
