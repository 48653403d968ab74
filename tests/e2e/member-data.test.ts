// The member's own data on the production build, in Chromium with JavaScript and again without it
// (every step a plain link or form post): a member signs up, verifies through the mailed link,
// posts an ad, downloads their data (the file's JSON has the ad), is refused with a wrong password,
// deletes the account with the right one, and can then no longer sign in. Then axe-core and
// screenshots of /account and /account/delete at 390 and 1280 px.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mailsTo, type ReadMail } from '../helpers/mail.ts';
import { startModerationServer, type ModerationServer } from '../helpers/moderation-server.ts';
import { launchChromium, siteDir, textOf } from './support.ts';

const axeSource = createRequire(import.meta.url)('axe-core').source as string;
const PASSWORD = 'a long enough password';

let browser: Browser;
let server: ModerationServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startModerationServer(siteDir())]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

/** The newest mail to `to` whose subject has `about`, waiting up to 10 s for it (it is sent in the background). */
async function mailTo(to: string, about: string): Promise<ReadMail> {
  for (let waited = 0; waited < 10_000; waited += 100) {
    const found = mailsTo(server.outboxDir, to).filter((mail) => mail.subject.includes(about));
    if (found.length > 0) return found.at(-1)!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No mail to ${to} about "${about}" within 10 s`);
}

/** Signs up with the form, opens the mailed link and verifies, as a person would. */
async function signUpAndVerify(page: Page, email: string) {
  await page.goto(`${server.url}/signup`);
  await page.fill('#signup-email', email);
  await page.fill('#signup-password', PASSWORD);
  await page.fill('#signup-dateOfBirth', '1988-06-30');
  await page.check('#signup-acceptTerms');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL(`${server.url}/success`);
  const mail = await mailTo(email, 'Verify');
  const link = /https?:\/\/\S+(\/verify\?token=\S+)/.exec(mail.text)?.[1];
  if (!link) throw new Error(`No verification link in:\n${mail.text}`);
  await page.goto(`${server.url}${link}`);
  await page.getByRole('button', { name: 'Verify my email' }).click();
  await page.waitForLoadState('load');
  expect(await heading(page)).toBe('Your email is verified');
}

async function postAd(page: Page, city: string, title: string) {
  await page.goto(`${server.url}/post`);
  await page.selectOption('#ad-state', 'California');
  await page.fill('#ad-city', city);
  await page.selectOption('#ad-seeks', 'w4m');
  await page.fill('#ad-title', title);
  await page.fill('#ad-description', 'Early walks, old films and a good bookshop. Coffee first.');
  await page.getByRole('button', { name: 'Submit for review' }).click();
  await page.waitForURL(`${server.url}/post/in-review`);
}

describe.each([
  ['in Chromium with JavaScript', true],
  ['without JavaScript', false],
])('download my data, then delete my account, %s', (_, javaScriptEnabled) => {
  const run = javaScriptEnabled ? 'js' : 'nojs';
  const email = `leaving-${run}-${Date.now()}@example.com`;
  const title = `Sunday crosswords and tea (${run})`;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    context = await browser.newContext({ javaScriptEnabled, acceptDownloads: true });
    page = await context.newPage();
    await signUpAndVerify(page, email);
    await postAd(page, javaScriptEnabled ? 'Fresno' : 'Modesto', title);
  });
  afterAll(async () => {
    await context?.close();
  });

  test('Download my data on /account gives a JSON file with the ad', async () => {
    await page.goto(`${server.url}/account`);
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
    await page.goto(`${server.url}/account`);
    await page.getByRole('link', { name: 'Delete my account' }).click();
    await page.waitForURL(`${server.url}/account/delete`);
    expect(await heading(page)).toBe('Delete my account');
    await page.getByLabel('Your password').fill('not the password');
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toBe(
      'That password is not right. Your account was not deleted.',
    );
    expect(server.db.prepare('SELECT id FROM accounts WHERE email = ?').get(email)).toBeDefined();
  });

  test('the right password: the account is deleted, and says so', async () => {
    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(`${server.url}/account/delete?done=1`);
    expect(await heading(page)).toBe('Your account is deleted');
    expect(server.db.prepare('SELECT id FROM accounts WHERE email = ?').get(email)).toBeUndefined();
    expect((await mailTo(email, 'has been deleted')).subject).toBe(
      'Your Localboard account has been deleted',
    );
    // Signed out: the account page asks to sign in.
    await page.goto(`${server.url}/account`);
    await page.waitForURL(/\/signin\?next=%2Faccount$/);
  });

  test('signing in again fails with the ordinary message', async () => {
    await page.goto(`${server.url}/signin`);
    await page.fill('#signin-email', email);
    await page.fill('#signin-password', PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toBe('Email or password is incorrect.');
    expect(page.url()).not.toMatch(/\/account/);
  });
});

describe('without a browser: the raw answers', () => {
  test('signed out, the data is 401 and the deletion page sends to sign in', async () => {
    const data = await fetch(`${server.url}/api/account/data`);
    expect(data.status).toBe(401);
    const page = await fetch(`${server.url}/account/delete`, { redirect: 'manual' });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/signin?next=%2Faccount%2Fdelete');
    const done = await fetch(`${server.url}/account/delete?done=1`);
    expect(textOf(await done.text())).toContain('Your account is deleted');
  });
});

describe('/account and /account/delete at 390 and 1280 px', () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await browser.newContext({ bypassCSP: true });
    page = await context.newPage();
    const email = `screens-${Date.now()}@example.com`;
    await signUpAndVerify(page, email);
    await postAd(page, 'Bakersfield', 'Board games on Sunday afternoons');
  });
  afterAll(async () => {
    await context?.close();
  });

  for (const width of [390, 1280]) {
    test(`no serious or critical axe violation, nothing wider than the screen, at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const dir = join(tmpdir(), 'localboard-screenshots');
      mkdirSync(dir, { recursive: true });
      for (const [name, path] of [
        ['account', '/account'],
        ['delete-account', '/account/delete'],
      ] as const) {
        await page.goto(`${server.url}${path}`);
        await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
        await page.addScriptTag({ content: axeSource });
        const violations = (await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown }> } })
            .axe;
          return (await axe.run()).violations;
        })) as Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }>;
        const serious = violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => `${name}: ${violation.id}`);
        expect(serious).toEqual([]);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
      }
    });
  }
});
