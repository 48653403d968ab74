// Search by distance on the production build of the shipped content (docs/product.md section 9):
// the raw HTML of /search?near=…&within=… without JavaScript, then the form in Chromium with
// JavaScript on and off, through the choice of a city two states share; screenshots at 390 and
// 1280 px in {tmp}/localboard-screenshots/search-near-*.png, to open and look at.
import { dirname } from 'node:path';
import { describe, expect, test } from 'vitest';
import { nearestFirst } from '../helpers/search-fixture.ts';
import { lookAtWidths, overflowWidth, screenshotPath } from '../helpers/page-checks.ts';
import { baseUrl, builtAds, builtContent, fetchPage, chromiumForTests, textOf } from './support.ts';

const cityOf = (state: string, city: string) =>
  builtContent()
    .states.find((candidate) => candidate.name === state)!
    .cities.find((candidate) => candidate.name === city)!;

/** The built ads within `miles` of a city: nearest city first, then newest. */
function adsWithin(state: string, city: string, miles: number) {
  return nearestFirst(builtAds(), cityOf(state, city), miles, cityOf);
}

const cardIds = (html: string) =>
  [...html.matchAll(/id="ad-(\d+)-title"/g)].map((match) => Number(match[1]));

describe('/search near a city, raw HTML', () => {
  test('within 100 miles of Seattle: only the ads of cities within it, nearest first', async () => {
    const expected = adsWithin('Washington', 'Seattle', 100);
    expect(expected.length).toBeGreaterThan(0);
    const { status, html } = await fetchPage('/search?near=Washington/Seattle&within=100');
    expect(status).toBe(200);
    expect(cardIds(html)).toEqual(expected.slice(0, 30).map(({ ad }) => ad.id));
    expect(textOf(html)).toContain('Nearest first');
  });

  test('within 25 miles of Portland, Oregon, from a town across the Columbia', async () => {
    const expected = adsWithin('Washington', 'Vancouver', 25);
    expect(new Set(expected.map(({ ad }) => ad.city))).toEqual(new Set(['Portland']));
    const { html } = await fetchPage('/search?near=Washington/Vancouver&within=25');
    expect(cardIds(html)).toEqual(expected.map(({ ad }) => ad.id));
    expect(textOf(html)).toContain('8 mi away, in Portland, Oregon');
  });
});

describe('/search near a city, in Chromium', () => {
  const chromium = chromiumForTests();

  for (const javaScriptEnabled of [true, false]) {
    test(`the form: a city two states share, then the one chosen, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async () => {
      const context = await chromium.browser.newContext({ javaScriptEnabled, bypassCSP: true });
      const page = await context.newPage();
      const dir = dirname(screenshotPath('search-near'));
      const suffix = javaScriptEnabled ? '' : '-nojs';
      await page.goto(`${baseUrl()}/search`);
      await page.getByLabel('Within', { exact: true }).selectOption('25');
      await page.getByLabel('Near city', { exact: true }).fill('Portland');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.waitForURL(/near=Portland/);
      const choices = textOf(await page.content());
      expect(choices).toMatch(/\d+ cities are called “Portland”: choose one\./);
      await lookAtWidths(page, dir, `search-near-choices${suffix}`, javaScriptEnabled);
      expect(await overflowWidth(page)).toBeLessThanOrEqual(0);

      await page.getByRole('link', { name: 'Portland, Oregon', exact: true }).click();
      await page.waitForURL(/near=Oregon%2FPortland&within=25/);
      const expected = adsWithin('Oregon', 'Portland', 25);
      expect(await page.locator('article.ad-card').count()).toBe(Math.min(30, expected.length));
      expect(await page.locator('.ad-card__away').first().textContent()).toBe(
        'under 1 mi away, in Portland, Oregon',
      );
      expect(await page.getByLabel('Near city', { exact: true }).inputValue()).toBe(
        'Oregon/Portland',
      );
      await lookAtWidths(page, dir, `search-near-results${suffix}`, javaScriptEnabled);
      expect(await overflowWidth(page)).toBeLessThanOrEqual(0);
      await context.close();
    });
  }
});
