// A long conversation on the production build (docs/product.md section 7), in Chromium with
// JavaScript and again without it: 120 messages, the newest 50 first with the reply form; Older
// and Newer are plain links through the pages; a reply from the newest page lands on the latest
// message. Screenshots of the newest and an older page at 390 and 1280 px, and axe-core on them.
import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeModerator } from '../../server/moderator-command.ts';
import { conversationPath } from '../../src/paths.ts';
import { gotoEnhanced, waitForEnhanced } from '../helpers/browser-waits.ts';
import { signUpWithApi, uniqueEmail, verifyFromMail } from '../helpers/e2e-members.ts';
import { insertMessage } from '../helpers/member-data.ts';
import { startModerationServer, type ModerationServer } from '../helpers/moderation-server.ts';
import { seriousAxeViolations } from '../helpers/page-checks.ts';
import { launchChromium, siteDir } from './support.ts';

const SHOTS = process.env.MESSAGES_SCREENSHOTS_DIR ?? '/tmp/localboard-messages-screenshots';

let browser: Browser;
let server: ModerationServer;
let moderator: BrowserContext;
beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startModerationServer(siteDir())]);
  moderator = await browser.newContext();
  const email = uniqueEmail('moderator');
  await signUpWithApi(moderator, server.url, email);
  expect(makeModerator(server.db, email).code).toBe(0);
});
afterAll(async () => {
  await moderator?.close();
  await browser?.close();
  await server?.stop();
});

/** A verified member in a new context; their account id. */
async function member(context: BrowserContext, label: string): Promise<number> {
  const email = uniqueEmail(label);
  await signUpWithApi(context, server.url, email);
  const page = await context.newPage();
  await verifyFromMail(page, server, email);
  await page.close();
  return (server.db.prepare('SELECT id FROM accounts WHERE email = ?').get(email) as { id: number })
    .id;
}

/** Screenshots at both widths; with JavaScript, axe-core too. */
async function lookAt(page: Page, name: string, javaScriptEnabled: boolean) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    if (javaScriptEnabled)
      expect(await seriousAxeViolations(page), `${name} at ${width}`).toEqual([]);
  }
}

const shown = async (page: Page) =>
  (await page.locator('.message__body').allTextContents()).map((text) =>
    Number(/Message (\d+)/.exec(text)?.[1]),
  );
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe.each([
  ['in Chromium with JavaScript', true],
  ['without JavaScript', false],
])('a conversation of 120 messages, %s', (_, javaScriptEnabled) => {
  const run = javaScriptEnabled ? 'js' : 'nojs';
  let posterContext: BrowserContext;
  let replierContext: BrowserContext;
  let page: Page;
  let conversationId = 0;

  beforeAll(async () => {
    const options = { javaScriptEnabled, bypassCSP: true, viewport: { width: 1280, height: 900 } };
    posterContext = await browser.newContext(options);
    replierContext = await browser.newContext(options);
    const posterId = await member(posterContext, `long-poster-${run}`);
    const replierId = await member(replierContext, `long-replier-${run}`);
    const posted = await posterContext.request.post(`${server.url}/api/ads`, {
      data: {
        state: 'California',
        city: javaScriptEnabled ? 'Fresno' : 'Modesto',
        age: '36',
        seeks: 'w4m',
        title: `Long talks about old films (${run})`,
        description: 'Old films, long walks and a good bookshop.',
      },
    });
    expect(posted.status()).toBe(201);
    const { id: adId } = (await posted.json()) as { id: number };
    const approved = await moderator.request.post(
      `${server.url}/api/moderate/ads/${adId}/approve`,
      { data: { revision: 1 } },
    );
    expect(approved.status()).toBe(200);
    const started = await replierContext.request.post(`${server.url}/api/messages`, {
      data: { ad: String(adId), body: 'Message 1: hello, I love old films too.' },
    });
    expect(started.status()).toBe(201);
    conversationId = ((await started.json()) as { conversationId: number }).conversationId;
    // The rest of a long talk, as the two would have written it (too many for the send limit).
    for (let n = 2; n <= 120; n += 1)
      insertMessage(
        server.db,
        conversationId,
        n % 2 === 1 ? replierId : posterId,
        n % 10 === 0
          ? `Message ${n}: a longer one, to see how the page holds it. We talked about the matinee at the old theatre, the bookshop on the corner and whether the coffee there is any good.`
          : `Message ${n}: more about films.`,
        200 - n,
      );
    page = await posterContext.newPage();
  });
  afterAll(async () => {
    await posterContext?.close();
    await replierContext?.close();
  });

  test('the newest 50 first, with the reply form; Older and Newer lead through the pages', async () => {
    await gotoEnhanced(page, `${server.url}${conversationPath(conversationId)}`, javaScriptEnabled);
    expect(await shown(page)).toEqual(range(71, 120));
    expect(await page.locator('.thread-pages__where').first().textContent()).toBe(
      'Messages 71–120 of 120',
    );
    expect(await page.locator('#latest .message__body').textContent()).toContain('Message 120');
    expect(await page.getByLabel('Reply to the member').count()).toBe(1);
    await lookAt(page, `long-conversation-newest-${run}`, javaScriptEnabled);

    await page.getByRole('link', { name: '← Older messages' }).first().click();
    await page.waitForURL(/\?before=\d+$/);
    await waitForEnhanced(page, javaScriptEnabled);
    expect(await shown(page)).toEqual(range(21, 70));
    expect(await page.getByLabel('Reply to the member').count()).toBe(0);
    await lookAt(page, `long-conversation-older-${run}`, javaScriptEnabled);

    await page.getByRole('link', { name: '← Older messages' }).first().click();
    await page.waitForURL(/\?before=\d+$/);
    expect(await shown(page)).toEqual(range(1, 20));
    expect(await page.getByRole('link', { name: '← Older messages' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Newer messages →' }).last().click();
    await page.waitForURL(/\?before=\d+$/);
    expect(await shown(page)).toEqual(range(21, 70));
    await page.getByRole('link', { name: 'Newer messages →' }).last().click();
    await page.waitForURL(`${server.url}${conversationPath(conversationId)}`);
    expect(await shown(page)).toEqual(range(71, 120));
  });

  test('a reply from the newest page lands on it, at the latest message', async () => {
    await gotoEnhanced(page, `${server.url}${conversationPath(conversationId)}`, javaScriptEnabled);
    await page.getByLabel('Reply to the member').fill('Message 121: see you at the matinee.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForURL(`${server.url}${conversationPath(conversationId)}#latest`);
    await waitForEnhanced(page, javaScriptEnabled);
    expect(await page.locator('#latest .message__body').textContent()).toContain('Message 121');
    expect(await page.locator('.thread-pages__where').first().textContent()).toBe(
      'Messages 72–121 of 121',
    );
  });
});
