// The scam shield's warning on the production build, in Chromium (docs/product.md section 7): a
// member who answered a message is sent one asking for money; beside it they read the warning in
// words, with the safety guide, and report it as a scam in one step; the moderators read the
// report with the sender's record. The sender never sees the warning. Then axe-core on the page.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SCAM_WARNINGS } from '../../core/policy/index.ts';
import {
  adsApiPath,
  conversationPath,
  messagesApiPath,
  moderateAdApiPath,
  replyApiPath,
} from '../../core/paths.ts';
import { gotoEnhanced } from '../helpers/browser-waits.ts';
import { heading, signUpAndVerify } from '../helpers/e2e-members.ts';
import { startModerationBrowser, stopModerationBrowser } from '../helpers/moderation-browser.ts';
import type { ModerationServer } from '../helpers/moderation-server.ts';
import { lookAtWidths } from '../helpers/page-checks.ts';

const SHOTS = process.env.MESSAGES_SCREENSHOTS_DIR ?? '/tmp/localboard-messages-screenshots';
const MONEY = 'cashapp me $20 for gas and I will drive over tonight';

let browser: Browser;
let server: ModerationServer;
let moderator: BrowserContext;
let posterContext: BrowserContext;
let replierContext: BrowserContext;
let poster: Page;
let replierEmail = '';
let conversationId = 0;

/** Posts `data` as the context's member (JSON, as a page's script would); the answer's JSON. */
async function post(context: BrowserContext, path: string, data: unknown, status = 201) {
  const response = await context.request.post(`${server.url}${path}`, { data });
  expect(response.status()).toBe(status);
  return (await response.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  ({ browser, server, moderator } = await startModerationBrowser({ verifiedModerator: true }));
  const options = { bypassCSP: true, viewport: { width: 1280, height: 900 } };
  posterContext = await browser.newContext(options);
  replierContext = await browser.newContext(options);
  await signUpAndVerify(posterContext, server, 'scam-poster');
  replierEmail = await signUpAndVerify(replierContext, server, 'scam-replier');
  const { id: adId } = await post(posterContext, adsApiPath(), {
    state: 'California',
    city: 'Sacramento',
    age: '38',
    seeks: 'w4m',
    title: 'Riverside walks and coffee',
    description: 'Early mornings by the river, then a good coffee.',
  });
  await post(moderator, moderateAdApiPath(Number(adId), 'approve'), { revision: 1 }, 200);
  const started = await post(replierContext, messagesApiPath(), {
    ad: String(adId),
    body: 'Hi! I walk there too. Which bridge do you start from?',
  });
  conversationId = Number(started.conversationId);
  await post(posterContext, replyApiPath(conversationId), { body: 'Tower Bridge!' });
  const warned = await post(replierContext, replyApiPath(conversationId), {
    body: MONEY,
  });
  expect(warned.warned).toEqual(['money']);
  poster = await posterContext.newPage();
});

afterAll(async () => {
  await posterContext?.close();
  await replierContext?.close();
  await stopModerationBrowser({ browser, server, moderator });
});

describe('a message asking for money, after the member answered', () => {
  test('its recipient reads the warning in words beside it, with the guide', async () => {
    await gotoEnhanced(poster, `${server.url}${conversationPath(conversationId)}`);
    const message = poster.locator('.message', { hasText: MONEY });
    const warning = message.getByRole('note', {
      name: 'Warning: this message may be a scam',
    });
    await warning.waitFor();
    expect(await warning.textContent()).toContain(SCAM_WARNINGS.money);
    const guide = warning.getByRole('link', { name: 'How to recognize a scam' });
    expect(await guide.getAttribute('href')).toBe('/about/recognising-scams');
    // Only beside that message.
    expect(await poster.locator('.scam-warning').count()).toBe(1);
    await lookAtWidths(poster, SHOTS, 'conversation-scam-warning', true);
  });

  test('its sender never sees it', async () => {
    const replier = await replierContext.newPage();
    await gotoEnhanced(replier, `${server.url}${conversationPath(conversationId)}`);
    expect(await replier.locator('.message', { hasText: MONEY }).count()).toBe(1);
    expect(await replier.getByText('Warning: this message may be a scam').count()).toBe(0);
    expect(await replier.getByRole('button', { name: 'Report as scam' }).count()).toBe(0);
    await replier.close();
  });

  test('Report as scam: one click, and the moderators read it with the sender’s record', async () => {
    await gotoEnhanced(poster, `${server.url}${conversationPath(conversationId)}`);
    await poster.getByRole('button', { name: 'Report as scam' }).click();
    await poster.waitForURL(`${server.url}/report?sent=1`);
    expect(await heading(poster)).toBe('Thank you');
    expect(await poster.getByRole('status').textContent()).toContain(
      'Thank you, a moderator will look at it.',
    );

    const page = await moderator.newPage();
    await gotoEnhanced(page, `${server.url}/moderate/reports`);
    const group = page.locator('.report-group', { hasText: 'Riverside walks and coffee' });
    await group.waitFor();
    const text = (await group.textContent()) ?? '';
    expect(text).toContain('Scam or spam');
    expect(text).toContain(replierEmail);
    expect(text).toContain(MONEY);
    expect(text).toContain('Scam signals: 1 warned (money request 1)');
    // Screenshots only: this context keeps the site's script policy, and reports-flow.test.ts runs axe
    // on /moderate/reports.
    await lookAtWidths(page, SHOTS, 'moderate-reports-scam-record', false);
    await page.close();
  });
});
