// /search and the city pages' filter form on the production build (docs/product.md section 9): raw
// HTML without JavaScript, then in Chromium with JavaScript on and off; screenshots at 390 and
// 1280 px into SEARCH_SCREENSHOTS_DIR (default /tmp/localboard-search-screenshots).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CompiledAd } from '../../core/content/index.ts';
import { screenshotsAtWidths } from '../helpers/page-checks.ts';
import { formOf } from '../helpers/pages.ts';
import { baseUrl, builtAds, fetchPage, launchChromium, metaContent, textOf } from './support.ts';
import { searchPath } from '../../core/paths.ts';

const SHOTS = process.env.SEARCH_SCREENSHOTS_DIR ?? '/tmp/localboard-search-screenshots';
const LA = '/city/California/Los%20Angeles';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const words = (ad: CompiledAd) =>
  new Set(`${ad.title} ${ad.description}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
const cardIds = (html: string) =>
  [...html.matchAll(/id="ad-(\d+)-title"/g)].map((match) => Number(match[1]));
const countOf = (html: string) => /<strong>([\d,]+) ads?<\/strong>/.exec(html)?.[1];

const screenshots = (page: Page, name: string) =>
  screenshotsAtWidths(page, SHOTS, name, { fullPage: false });

describe('/search, raw HTML', () => {
  test('a word only one ad has finds that ad; the page is noindex', async () => {
    const withWord = builtAds().filter((ad) => words(ad).has('bozeman'));
    expect(withWord).toHaveLength(1);
    const { status, html } = await fetchPage('/search?q=Bozeman');
    expect(status).toBe(200);
    expect(metaContent(html, 'robots')).toBe('noindex, follow');
    expect(cardIds(html)).toEqual([withWord[0]!.id]);
    expect(textOf(html)).toContain('1 ad · Best match first');
  });

  test('the filters narrow to what the published ads say, 30 a page', async () => {
    const expected = builtAds().filter(
      (ad) => ad.city === 'Los Angeles' && ad.seeks === 'w4m' && ad.age >= 30 && ad.age <= 45,
    );
    expect(expected.length).toBeGreaterThan(0);
    const { status, html } = await fetchPage(
      '/search?state=California&city=Los+Angeles&seeks=w4m&minAge=30&maxAge=45',
    );
    expect(status).toBe(200);
    expect(countOf(html)).toBe(String(expected.length));
    expect(new Set(cardIds(html))).toEqual(new Set(expected.map((ad) => ad.id).slice(0, 30)));
  });

  test.each([
    ['age 12', 'minAge=12', 'Enter an age from 18 to 99.'],
    ['ages reversed', 'minAge=50&maxAge=30', 'The highest age must be at least the lowest (50).'],
    ['unknown state', 'state=Nowhere', 'Choose a state from the list.'],
    [
      'city not in the state',
      'state=Texas&city=Atlantis',
      'Texas has no city named “Atlantis” on this site.',
    ],
    ['within 5 days', 'within=5', 'Choose 1, 7 or 30 days, or any time.'],
    ['page past the last', 'page=500', 'There are only 11 pages of results for this search.'],
    [
      '10,000 characters',
      `q=${'x'.repeat(10_000)}`,
      'Search for at most 200 characters (this is 10000).',
    ],
  ])('%s is the form again with its message, status 400', async (_case, query, message) => {
    const { status, html } = await fetchPage(`/search?${query}`);
    expect(status).toBe(400);
    expect(textOf(html)).toContain(message);
    expect(formOf(html, searchPath())).toBeDefined();
  });

  test('FTS syntax is plain words: "unbalanced, NEAR(, * and AND OR are never an error', async () => {
    for (const q of ['"unbalanced', 'NEAR(coffee', 'coff*', 'AND OR', 'hiking"']) {
      const { status } = await fetchPage(`/search?q=${encodeURIComponent(q)}`);
      expect(status, q).toBe(200);
    }
  });

  test('every city page has the filter form, sent to /search with its state and city', async () => {
    const { html } = await fetchPage(LA);
    const filter = formOf(html, searchPath());
    expect(filter?.attributes.method).toBe('get');
    const form = filter?.html ?? '';
    expect(form).toContain('<input type="hidden" name="state" value="California"/>');
    expect(form).toContain('<input type="hidden" name="city" value="Los Angeles"/>');
    for (const name of ['q', 'seeks', 'minAge', 'maxAge']) expect(form).toContain(`name="${name}"`);
  });
});

describe('/search in Chromium', () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`the city filter form leads to its results, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async () => {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}${LA}`);
      if (javaScriptEnabled) await screenshots(page, 'city-filter');
      await page.getByLabel('Seeking', { exact: true }).selectOption('w4m');
      await page.getByLabel('Age from', { exact: true }).fill('30');
      await page.getByRole('button', { name: 'Search Los Angeles' }).click();
      await page.waitForURL(/\/search\?/);
      const url = new URL(page.url());
      expect(url.searchParams.get('state')).toBe('California');
      expect(url.searchParams.get('city')).toBe('Los Angeles');
      expect(url.searchParams.get('seeks')).toBe('w4m');
      const expected = builtAds().filter(
        (ad) => ad.city === 'Los Angeles' && ad.seeks === 'w4m' && ad.age >= 30,
      );
      await expect(page.locator('.search-summary strong').textContent()).resolves.toBe(
        `${expected.length} ${expected.length === 1 ? 'ad' : 'ads'}`,
      );
      expect(await page.locator('article.ad-card').count()).toBe(Math.min(30, expected.length));
      // The form shows the search, and can be changed: an age of 12 is refused beside the field.
      expect(await page.getByLabel('State', { exact: true }).inputValue()).toBe('California');
      expect(await page.getByLabel('Age from', { exact: true }).inputValue()).toBe('30');
      await page.getByLabel('Age from', { exact: true }).fill('12');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL(/minAge=12/);
      await expect(page.locator('#search-minAge-error').textContent()).resolves.toBe(
        'Enter an age from 18 to 99.',
      );
      if (javaScriptEnabled) await screenshots(page, 'search-refused');
      await context.close();
    });
  }

  test('words and pages: Next Page keeps the search', async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl()}/search`);
    await page.getByLabel('Words', { exact: true }).fill('coffee');
    await page.getByLabel('Seeking', { exact: true }).selectOption('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/q=coffee/);
    const total = Number(
      (await page.locator('.search-summary strong').textContent())?.replace(/\D/g, ''),
    );
    expect(total).toBeGreaterThan(30);
    await screenshots(page, 'search-results');
    const firstPage = await page
      .locator('article.ad-card h2')
      .evaluateAll((titles) => titles.map((title) => title.id));
    await page.getByRole('link', { name: 'Next Page →' }).click();
    await page.waitForURL(/page=2/);
    expect(new URL(page.url()).searchParams.get('q')).toBe('coffee');
    const secondPage = await page
      .locator('article.ad-card h2')
      .evaluateAll((titles) => titles.map((title) => title.id));
    expect(secondPage.length).toBeGreaterThan(0);
    for (const id of secondPage) expect(firstPage).not.toContain(id);
    await page.close();
  });

  test('the order: best match with words, newest first when chosen (JavaScript off)', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/search?q=coffee`);
    await expect(page.locator('.search-summary').textContent()).resolves.toContain(
      'Best match first',
    );
    await page.getByLabel('Order', { exact: true }).selectOption('newest');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/sort=newest/);
    await expect(page.locator('.search-summary').textContent()).resolves.toContain('Newest first');
    const expected = builtAds()
      .filter((ad) => words(ad).has('coffee'))
      .sort((a, b) => (a.postedAt < b.postedAt ? 1 : a.postedAt > b.postedAt ? -1 : b.id - a.id));
    const shown = await page
      .locator('article.ad-card h2')
      .evaluateAll((titles) => titles.map((title) => Number(/\d+/.exec(title.id)?.[0])));
    expect(shown).toEqual(expected.slice(0, 30).map((ad) => ad.id));
    await context.close();
  });
});
