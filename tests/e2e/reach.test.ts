// Who may reach me on the production build, in Chromium (docs/product.md section 7): a poster saves
// hidden words and an age range on /account (with JavaScript, and again without, with "Only verified
// members": the form is a plain post either way; a wrong age comes back beside its box, the rest as
// it was filled in); a first message with a hidden
// word reads as sent to its writer and waits in the poster's Filtered folder, not the inbox; a
// writer outside the ages reads which ages the poster accepts. Screenshots at 390 and 1280 px
// (axe-core clean) into REACH_SCREENSHOTS_DIR (default /tmp/localboard-reach-screenshots).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { desktopContext } from '../helpers/both-ways.ts';
import { gotoEnhanced } from '../helpers/browser-waits.ts';
import { heading, signUpAndVerify } from '../helpers/e2e-members.ts';
import { insertLiveAd } from '../helpers/messages.ts';
import { startModerationServer, type ModerationServer } from '../helpers/moderation-server.ts';
import { lookAtWidths, overflowWidth } from '../helpers/page-checks.ts';
import { launchChromium, siteDir } from './support.ts';

const SHOTS = process.env.REACH_SCREENSHOTS_DIR ?? '/tmp/localboard-reach-screenshots';
const SAVED = 'Your settings are saved. They apply to the next first message.';
const AD_TITLE = 'Board games and a long lunch';

let browser: Browser;
let server: ModerationServer;
let posterContext: BrowserContext;
let poster: Page;
let adId = 0;

const newContext = (javaScriptEnabled = true) => desktopContext(browser, javaScriptEnabled);

beforeAll(async () => {
  [browser, server] = await Promise.all([launchChromium(), startModerationServer(siteDir())]);
  posterContext = await newContext();
  const email = await signUpAndVerify(posterContext, server, 'reach-poster');
  const accountId = (await server.store.accounts.findByEmail(email))!.id;
  adId = await insertLiveAd(server, { accountId }, AD_TITLE);
  poster = await posterContext.newPage();
});
afterAll(async () => {
  await posterContext?.close();
  await browser?.close();
  await server?.stop();
});

const form = (page: Page) => page.locator('#who-may-reach-me form');

/** Fills the poster's form and saves it, as a person does. */
async function saveSettings(page: Page, { min = '', max = '', words = '', verifiedOnly = false }) {
  await form(page)
    .getByLabel('Only verified members can start a conversation with me')
    .setChecked(verifiedOnly);
  await form(page).getByLabel('Youngest').fill(min);
  await form(page).getByLabel('Oldest').fill(max);
  await form(page).getByLabel('Words I don’t want to read first').fill(words);
  await form(page).getByRole('button', { name: 'Save who may reach me' }).click();
  await page.waitForLoadState('load');
}

/** A new member writes `text` to the poster's ad from its reply form; the page they land on. */
async function writeFirst(text: string): Promise<Page> {
  const context = await newContext();
  await signUpAndVerify(context, server, 'reach-writer');
  const page = await context.newPage();
  await gotoEnhanced(page, `${server.url}/messages/new?ad=${adId}`);
  await page.getByLabel('Your message').fill(text);
  await page.locator('.message-form button[type=submit]').click();
  await page.waitForLoadState('load');
  return page;
}

describe('who may reach me, in Chromium', () => {
  test('the poster saves hidden words on /account', async () => {
    await gotoEnhanced(poster, `${server.url}/account`);
    expect(await heading(poster)).toBe('Your account');
    await saveSettings(poster, { words: 'crypto\ngift cards' });
    expect(poster.url()).toBe(`${server.url}/account?done=reach-saved#who-may-reach-me`);
    expect(await poster.locator('#who-may-reach-me .banner').textContent()).toBe(SAVED);
    expect(await form(poster).getByLabel('Words I don’t want to read first').inputValue()).toBe(
      'crypto\ngift cards',
    );
    await poster.locator('#who-may-reach-me').scrollIntoViewIfNeeded();
    await lookAtWidths(poster, SHOTS, 'account-reach-saved', true);
    expect(await overflowWidth(poster)).toBeLessThanOrEqual(0);
  });

  test('a first message with one reads as sent, and waits in Filtered', async () => {
    const writer = await writeFirst('Hi! Love board games. Do you know anything about Crypto?');
    expect(await writer.locator('.thread').textContent()).toContain('anything about Crypto?');
    expect(await writer.textContent('body')).not.toMatch(/filtered|hidden word/i);

    await gotoEnhanced(poster, `${server.url}/messages`);
    expect(await poster.locator('.inbox__list').count()).toBe(0);
    await poster.getByRole('link', { name: 'Filtered (1)' }).click();
    await poster.waitForLoadState('load');
    expect(await heading(poster)).toBe('Filtered messages');
    expect(await poster.locator('.inbox__list').textContent()).toContain(AD_TITLE);
    await lookAtWidths(poster, SHOTS, 'messages-filtered', true);
    await poster.getByRole('link', { name: AD_TITLE }).click();
    await poster.waitForLoadState('load');
    expect(await poster.textContent('body')).toContain(
      'This conversation is in your Filtered folder',
    );
    await lookAtWidths(poster, SHOTS, 'conversation-filtered', true);
  });

  test('a wrong age comes back beside its box; then the range is saved', async () => {
    await gotoEnhanced(poster, `${server.url}/account`);
    await saveSettings(poster, { min: '45', max: '40', words: 'crypto' });
    const oldest = form(poster).getByLabel('Oldest');
    expect(await oldest.getAttribute('aria-invalid')).toBe('true');
    expect(await poster.locator('#who-may-reach-me').textContent()).toContain(
      'The youngest age must not be over the oldest.',
    );
    expect(await form(poster).getByLabel('Youngest').inputValue()).toBe('45');
    // A box left unticked comes back unticked.
    expect(
      await form(poster)
        .getByLabel('Only verified members can start a conversation with me')
        .isChecked(),
    ).toBe(false);
    await poster.locator('#who-may-reach-me').scrollIntoViewIfNeeded();
    await lookAtWidths(poster, SHOTS, 'account-reach-refused', true);
    await saveSettings(poster, { min: '40', max: '60', words: 'crypto' });
    expect(await poster.locator('#who-may-reach-me .banner').textContent()).toBe(SAVED);
  });

  test('a writer outside the ages reads which ages the poster accepts', async () => {
    // signUpAndVerify's members were born on 1990-04-12: 36.
    const writer = await writeFirst('Hello! Which board games do you like?');
    const alert = writer.getByRole('alert');
    expect(await alert.textContent()).toContain(
      'This member accepts first messages from ages 40–60',
    );
    expect(await writer.getByLabel('Your message').inputValue()).toBe(
      'Hello! Which board games do you like?',
    );
    expect(await writer.textContent('body')).not.toContain('crypto');
    await lookAtWidths(writer, SHOTS, 'reply-outside-ages', true);
  });

  test('without JavaScript the form is the same plain post', async () => {
    const context = await newContext(false);
    const email = await signUpAndVerify(context, server, 'reach-nojs');
    const page = await context.newPage();
    await page.goto(`${server.url}/account`);
    const verifiedOnly = form(page).getByLabel(
      'Only verified members can start a conversation with me',
    );
    // Refused, the form comes back as it was filled in, the box still ticked; nothing is saved.
    await saveSettings(page, { min: '45', max: '40', words: 'telegram', verifiedOnly: true });
    expect(await page.locator('#who-may-reach-me').textContent()).toContain(
      'The youngest age must not be over the oldest.',
    );
    expect(await verifiedOnly.isChecked()).toBe(true);
    expect(await form(page).getByLabel('Youngest').inputValue()).toBe('45');
    const accountId = (await server.store.accounts.findByEmail(email))!.id;
    expect(await server.store.verifications.verifiedFirstOnly(accountId)).toBe(false);

    await saveSettings(page, { min: '30', words: 'telegram', verifiedOnly: true });
    expect(await page.locator('#who-may-reach-me .banner').textContent()).toBe(SAVED);
    expect(await verifiedOnly.isChecked()).toBe(true);
    expect(await server.store.reachSettings.of(accountId)).toEqual({
      minAge: 30,
      maxAge: null,
      hiddenWords: ['telegram'],
    });
    expect(await server.store.verifications.verifiedFirstOnly(accountId)).toBe(true);
    await lookAtWidths(page, SHOTS, 'account-reach-no-js', false);
    await context.close();
  });
});
