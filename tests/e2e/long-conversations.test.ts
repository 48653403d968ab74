// A long conversation on the production build (docs/product.md section 7), in Chromium with
// JavaScript and again without it: 120 messages, the newest 50 first with the reply form; Older
// and Newer are plain links through the pages; a reply from the newest page lands on the latest
// message. Screenshots of the newest and an older page at 390 and 1280 px, and axe-core on them.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { conversationPath, messagesApiPath } from '../../core/paths.ts';
import { bothWays, desktopContext } from '../helpers/both-ways.ts';
import { gotoEnhanced, waitForEnhanced } from '../helpers/browser-waits.ts';
import { sendReply, signUpAndVerify } from '../helpers/e2e-members.ts';
import { addMessage } from '../helpers/member-data.ts';
import { liveAdThroughApi, moderationBrowserForFile } from '../helpers/moderation-browser.ts';
import { lookAtWidths } from '../helpers/page-checks.ts';

const SHOTS = process.env.MESSAGES_SCREENSHOTS_DIR ?? '/tmp/localboard-messages-screenshots';

const world = moderationBrowserForFile();

/** A verified member in a new context; their account id. */
async function member(context: BrowserContext, label: string): Promise<number> {
  const email = await signUpAndVerify(context, world.server, label);
  return (await world.server.store.accounts.findByEmail(email))!.id;
}

/** Screenshots at both widths; with JavaScript, axe-core too. */
const lookAt = (page: Page, name: string, javaScriptEnabled: boolean) =>
  lookAtWidths(page, SHOTS, name, javaScriptEnabled);

const shown = async (page: Page) =>
  (await page.locator('.message__body').allTextContents()).map((text) =>
    Number(/Message (\d+)/.exec(text)?.[1]),
  );
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

describe.each(bothWays())('a conversation of 120 messages, %s', (_, javaScriptEnabled, run) => {
  let posterContext: BrowserContext;
  let replierContext: BrowserContext;
  let page: Page;
  let conversationId = 0;

  beforeAll(async () => {
    posterContext = await desktopContext(world.browser, javaScriptEnabled);
    replierContext = await desktopContext(world.browser, javaScriptEnabled);
    const posterId = await member(posterContext, `long-poster-${run}`);
    const replierId = await member(replierContext, `long-replier-${run}`);
    const adId = await liveAdThroughApi(world, posterContext, {
      city: javaScriptEnabled ? 'Fresno' : 'Modesto',
      title: `Long talks about old films (${run})`,
      description: 'Old films, long walks and a good bookshop.',
    });
    const started = await replierContext.request.post(`${world.server.url}${messagesApiPath()}`, {
      data: { ad: String(adId), body: 'Message 1: hello, I love old films too.' },
    });
    expect(started.status()).toBe(201);
    conversationId = ((await started.json()) as { conversationId: number }).conversationId;
    // The rest of a long talk, as the two would have written it (too many for the send limit).
    for (let n = 2; n <= 120; n += 1)
      await addMessage(
        world.server,
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
    await gotoEnhanced(
      page,
      `${world.server.url}${conversationPath(conversationId)}`,
      javaScriptEnabled,
    );
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
    await page.waitForURL(`${world.server.url}${conversationPath(conversationId)}`);
    expect(await shown(page)).toEqual(range(71, 120));
  });

  test('a reply from the newest page lands on it, at the latest message', async () => {
    await sendReply(
      page,
      `${world.server.url}${conversationPath(conversationId)}`,
      'Reply to the member',
      'Message 121: see you at the matinee.',
      javaScriptEnabled,
    );
    expect(await page.locator('#latest .message__body').textContent()).toContain('Message 121');
    expect(await page.locator('.thread-pages__where').first().textContent()).toBe(
      'Messages 72–121 of 121',
    );
  });
});
