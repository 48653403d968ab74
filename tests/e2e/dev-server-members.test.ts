// `npm run dev` serves what the server serves beside Vike's pages (server/dev/): in Chromium
// against the real `vite dev` process, a member signs up, sees their account, verifies from the dev
// outbox and posts an ad, which shows on the dev site once a moderator (made with
// `npm run moderator` on the dev database) approves it; and an edited member page reloads the
// page open in the browser. The content is compiled for this file (as `npm run dev` compiles it
// first), so that publishing changes nothing other tests read.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { filesStamp, PROJECT_SOURCES } from '../../pipeline/fingerprint.mjs';
import { adPath, cityPath } from '../../core/paths.ts';
import {
  heading,
  signUpWithApi,
  signUpWithForm,
  uniqueEmail,
  verifyFromMail,
} from '../helpers/e2e-members.ts';
import { openSqliteTestStore } from '../helpers/test-store.ts';
import { developerEnv, ROOT, startDevServer, TSX, type DevServer } from './dev-server-process.ts';
import { launchChromium, textOf } from './support.ts';
import { TEST_PASSWORD_HASH_COST } from '../helpers/password-cost.ts';
import { fillNewAd } from '../helpers/ad-form.ts';
import { storedRow } from '../helpers/stored-rows.ts';

let dev: DevServer;
let compiledContentDir: string;
let browser: Browser;
let member: BrowserContext;
let page: Page;
const email = uniqueEmail('dev-member');

beforeAll(async () => {
  compiledContentDir = mkdtempSync(join(tmpdir(), 'localboard-e2e-dev-content-'));
  dev = await startDevServer({
    compiledContentDir,
    compile: true,
    // A cheaper password hash keeps the test quick, as for the test servers (servers.ts).
    env: { PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST) },
  });
  browser = await launchChromium();
  member = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await member.newPage();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await dev?.stop();
  if (compiledContentDir) rmSync(compiledContentDir, { recursive: true, force: true });
});

describe('a member on the dev server', () => {
  test('signs up on /signup, then /account shows their email', async () => {
    await signUpWithForm(page, dev.url, email, '1990-04-12', true);
    await page.goto(`${dev.url}/account`);
    expect(await heading(page)).toBe('Your account');
    const facts = page.locator('.account-facts');
    expect(await facts.textContent()).toContain(email);
    expect(await facts.textContent()).toContain('Not verified yet');
    // The page links the stylesheet as Vite serves it (a browser's own body margin is 8px).
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
  });

  test('verifies with the link from the dev outbox', async () => {
    await verifyFromMail(page, dev, email);
    await page.goto(`${dev.url}/account`);
    expect(await page.locator('.account-facts').textContent()).toContain('Verified');
  });

  test('an ad a moderator approves is on the dev site', async () => {
    const title = 'Morning coffee and a walk in the park';
    await page.goto(`${dev.url}/post`);
    const description = 'Early walks, old films and a good bookshop.\nSay hello.';
    await fillNewAd(page, { city: 'Fresno', title, description });
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.waitForURL(`${dev.url}/post/in-review`);

    // The operator's command, on the dev database as README says.
    const moderator = uniqueEmail('dev-moderator');
    const context = await browser.newContext();
    await signUpWithApi(context, dev.url, moderator);
    const command = spawnSync(process.execPath, [TSX, 'scripts/moderator.ts', 'add', moderator], {
      cwd: ROOT,
      env: developerEnv({ DATABASE_PATH: dev.databasePath }),
      encoding: 'utf8',
    });
    expect(command.status).toBe(0);
    expect(command.stdout).toContain(`${moderator} is now a moderator`);

    const queue = await context.newPage();
    await queue.goto(`${dev.url}/moderate`);
    const entry = queue.locator('.queue-item', { hasText: title });
    await entry.getByRole('button', { name: 'Approve', exact: true }).click();
    await queue.waitForURL(/\/moderate\?done=/);
    await context.close();

    // Published once the content is compiled again: its page answers, and its city lists it.
    const { store, sql } = openSqliteTestStore(dev.databasePath);
    const { id } = (await storedRow<{ id: number }>(
      sql,
      'SELECT id FROM member_ads WHERE title = ?',
      title,
    ))!;
    await store.close();
    const path = adPath('California', 'Fresno', id);
    await expect
      .poll(async () => textOf(await (await fetch(`${dev.url}${path}`)).text()), {
        timeout: 30_000,
      })
      .toContain(title);
    await page.goto(`${dev.url}${cityPath('California', 'Fresno')}`);
    await page.locator(`a[href="${path}"]`).first().waitFor();
  });

  test('editing a member page reloads the open page with the change', async () => {
    await page.goto(`${dev.url}/account`);
    const file = join(ROOT, 'src', 'pages', 'account', '+Page.tsx');
    const original = readFileSync(file, 'utf8');
    const { mtimeNs } = statSync(file, { bigint: true });
    const sourcesBefore = filesStamp(ROOT, PROJECT_SOURCES);
    const mark = `dev-reload-${Date.now()}`;
    // An attribute only this test looks for, so that anything else reading the page meanwhile
    // renders it alike.
    const edited = original.replace(
      '<section className="container container--post form-page">',
      `<section className="container container--post form-page" data-test-mark="${mark}">`,
    );
    expect(edited).not.toBe(original);
    try {
      writeFileSync(file, edited);
      await page.locator(`[data-test-mark="${mark}"]`).waitFor({ timeout: 20_000 });
    } finally {
      writeFileSync(file, original);
      // The file as it was, to the build too: it tells a changed source by size and modification
      // time, to the nanosecond (its stamp reads mtimeMs, fraction included), which utimesSync's
      // milliseconds cannot put back: GNU touch can.
      const seconds = `${mtimeNs / 1_000_000_000n}.${String(mtimeNs % 1_000_000_000n).padStart(9, '0')}`;
      try {
        execFileSync('touch', ['-m', '-d', `@${seconds}`, file]);
      } catch {
        utimesSync(file, new Date(), new Date(Number(mtimeNs / 1_000_000n)));
      }
    }
    // Nothing for the next build's Vite step to do again.
    expect(filesStamp(ROOT, PROJECT_SOURCES)).toBe(sourcesBefore);
    await page.locator('[data-test-mark]').waitFor({ state: 'detached', timeout: 20_000 });
    expect(await page.locator('.account-facts').textContent()).toContain(email);
  });
});
