// Saved searches in Chromium on the production build (docs/product.md section 11): a verified
// member saves the search they look at ("Email me new ads like these"), finds it on /account,
// opens it, deletes it; an unverified member is told to verify first; a digest's unsubscribe link
// works signed out. Screenshots at 390 and 1280 px (axe-core clean) into
// SAVED_SEARCH_SCREENSHOTS_DIR (default /tmp/localboard-saved-search-screenshots).
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  UNSUBSCRIBE_SECRET,
  unsubscribeToken,
} from '../../server/saved-searches/saved-searches.ts';
import { gotoEnhanced } from '../helpers/browser-waits.ts';
import { heading, signUpAndVerify, signUpWithApi, uniqueEmail } from '../helpers/e2e-members.ts';
import { chromiumAndServerForFile } from '../helpers/moderation-browser.ts';
import { lookAtWidths, overflowWidth } from '../helpers/page-checks.ts';
import { searchPath } from '../../core/paths.ts';

const SHOTS =
  process.env.SAVED_SEARCH_SCREENSHOTS_DIR ?? '/tmp/localboard-saved-search-screenshots';
const SAVED = 'Your search is saved. We email you its new ads, at most once a day.';
const DELETED = 'Your saved search is deleted. We will not email you about it again.';
const NOT_VERIFIED =
  'Please verify your email address before saving a search: open the link we emailed you.';

const world = chromiumAndServerForFile();

/** A context for a person looking at pages: axe-core may be injected (bypassCSP). */
const newContext = () =>
  world.browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });

const accountIdOf = async (email: string) =>
  (await world.server.store.accounts.findByEmail(email))!.id;

const savedQueriesOf = async (email: string) =>
  (await world.server.store.savedSearches.listOwned(await accountIdOf(email))).map((s) => s.query);

/** On a search's results, "Email me new ads like these", as the member presses it. */
async function saveSearch(page: Page, query: string) {
  await gotoEnhanced(page, `${world.server.url}/search?${query}`);
  await page.getByRole('button', { name: 'Email me new ads like these' }).click();
  await page.waitForLoadState('load');
}

/** The names of the saved searches /account lists, in order. */
const listed = (page: Page) => page.locator('#saved-searches .my-data__item a').allTextContents();

describe('saved searches in Chromium', () => {
  let context: BrowserContext;
  let page: Page;
  let email: string;
  beforeAll(async () => {
    context = await newContext();
    email = await signUpAndVerify(context, world.server, 'saver');
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  test('a verified member saves the search they look at and finds it on /account', async () => {
    await gotoEnhanced(page, `${world.server.url}/search?q=coffee`);
    await lookAtWidths(page, SHOTS, 'search-save', true);
    await saveSearch(page, 'q=coffee');
    expect(page.url()).toBe(`${world.server.url}/account?done=search-saved`);
    expect(await heading(page)).toBe('Your account');
    expect(await page.locator('#saved-searches .banner').textContent()).toBe(SAVED);
    expect(await listed(page)).toEqual(['“coffee”']);

    await saveSearch(page, 'state=California&city=Los+Angeles&seeks=w4m&sort=match');
    expect(page.url()).toBe(`${world.server.url}/account?done=search-saved`);
    expect(await listed(page)).toEqual([
      '“coffee”',
      'Woman seeking man, in Los Angeles, California',
    ]);
    expect(await savedQueriesOf(email)).toEqual([
      'q=coffee',
      'state=California&city=Los+Angeles&seeks=w4m',
    ]);
    await lookAtWidths(page, SHOTS, 'account-two-saved', true);
    expect(await overflowWidth(page)).toBeLessThanOrEqual(0);
  });

  test('a saved search’s link opens the search', async () => {
    await gotoEnhanced(page, `${world.server.url}/account`);
    await page.getByRole('link', { name: '“coffee”' }).click();
    await page.waitForURL(`${world.server.url}/search?q=coffee`);
    expect(await heading(page)).toBe('Search ads');
    expect(await page.getByLabel('Words', { exact: true }).inputValue()).toBe('coffee');
  });

  test('Delete removes it, and says so', async () => {
    await gotoEnhanced(page, `${world.server.url}/account`);
    await page.getByRole('button', { name: 'Delete “coffee”' }).click();
    await page.waitForURL(`${world.server.url}/account?done=search-deleted`);
    expect(await page.locator('#saved-searches .banner').textContent()).toBe(DELETED);
    expect(await listed(page)).toEqual(['Woman seeking man, in Los Angeles, California']);
    expect(await savedQueriesOf(email)).toEqual(['state=California&city=Los+Angeles&seeks=w4m']);
  });

  test('an unverified member is told to verify first, on the search page', async () => {
    const unverified = await newContext();
    const address = uniqueEmail('unverified-saver');
    await signUpWithApi(unverified, world.server.url, address);
    const search = await unverified.newPage();
    await saveSearch(search, 'q=coffee');
    expect(await heading(search)).toBe('Search ads');
    expect(await search.locator('.search-save [role="alert"]').textContent()).toBe(NOT_VERIFIED);
    // Still the search, with its results.
    expect(await search.getByLabel('Words', { exact: true }).inputValue()).toBe('coffee');
    expect(await search.locator('article.ad-card').count()).toBeGreaterThan(0);
    expect(await savedQueriesOf(address)).toEqual([]);
    await lookAtWidths(search, SHOTS, 'search-save-refused', true);
    await unverified.close();
  });
});

describe('a digest’s unsubscribe link, signed out', () => {
  test('confirm, unsubscribe, then the link no longer works', async () => {
    const member = await newContext();
    const email = await signUpAndVerify(member, world.server, 'unsubscriber');
    const saving = await member.newPage();
    await saveSearch(saving, 'q=hiking&state=Texas&city=Austin');
    expect(saving.url()).toBe(`${world.server.url}/account?done=search-saved`);
    await member.close();
    // The link the digest mails: keyed with the server's secret from the saved search's row.
    const [saved] = await world.server.store.savedSearches.listOwned(await accountIdOf(email));
    const secret = await world.server.store.secrets.get(UNSUBSCRIBE_SECRET);
    const link = `${world.server.url}/unsubscribe/${unsubscribeToken(secret, saved!)}`;

    const visitor = await newContext();
    const page = await visitor.newPage();
    const opened = await page.goto(link);
    expect(opened?.status()).toBe(200);
    expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
    expect(await heading(page)).toBe('Unsubscribe from a saved search');
    expect(await page.locator('.unsubscribe__label strong').textContent()).toBe(
      '“hiking”, in Austin, Texas',
    );
    await lookAtWidths(page, SHOTS, 'unsubscribe-confirm', true);

    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.waitForLoadState('load');
    expect(page.url()).toBe(link);
    expect(await heading(page)).toBe('You are unsubscribed');
    expect(await savedQueriesOf(email)).toEqual([]);
    await lookAtWidths(page, SHOTS, 'unsubscribe-done', true);

    // Open the search to save it again: the token does not travel in a Referer.
    const [request] = await Promise.all([
      page.waitForRequest((sent) => new URL(sent.url()).pathname === searchPath()),
      page.getByRole('link', { name: 'Open the search' }).click(),
    ]);
    expect(request.headers().referer).toBeUndefined();
    await page.waitForLoadState('load');
    expect(page.url()).toBe(`${world.server.url}/search?q=hiking&state=Texas&city=Austin`);
    expect(await page.getByRole('button', { name: 'Email me new ads like these' }).count()).toBe(1);

    const again = await page.goto(link);
    expect(again?.status()).toBe(404);
    expect(await heading(page)).toBe('This link no longer works');
    await lookAtWidths(page, SHOTS, 'unsubscribe-gone', true);
    await visitor.close();
  });
});
