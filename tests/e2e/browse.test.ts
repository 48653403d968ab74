// Browsing the production build in Chromium, with JavaScript on and off.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { baseUrl, builtAds, chromiumForTests } from './support.ts';
import { signupPath } from '../../core/paths.ts';

const chromium = chromiumForTests();

async function walkHomeToAdAndBack(page: Page) {
  const adsInLosAngeles = builtAds().filter(
    (ad) => ad.city === 'Los Angeles' && ad.state === 'California',
  );
  await page.goto(`${baseUrl()}/`);
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBeTruthy();

  await page.getByRole('link', { name: /^California\b/ }).click();
  await page.waitForURL('**/state/California');
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
    'Find Personals in California',
  );

  await page
    .getByRole('link', { name: /^Los Angeles\b/ })
    .first()
    .click();
  await page.waitForURL('**/city/California/Los%20Angeles');
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
    'Los Angeles, California',
  );
  expect(await page.locator('article.ad-card').count()).toBe(30);

  await page.getByRole('link', { name: 'Next Page →' }).click();
  await page.waitForURL('**/city/California/Los%20Angeles/page/2');
  expect(await page.locator('article.ad-card').count()).toBe(
    Math.min(30, adsInLosAngeles.length - 30),
  );

  const firstTitle = page.locator('article.ad-card h2 a').first();
  const title = (await firstTitle.textContent()) ?? '';
  await firstTitle.click();
  await page.waitForURL(/\/city\/California\/Los%20Angeles\/ad\/\d+$/);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
  await expect(page.getByText(/^Age: \d+$/).count()).resolves.toBe(1);

  await page.getByRole('link', { name: '← Back to Los Angeles ads' }).click();
  await page.waitForURL('**/city/California/Los%20Angeles');
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
    'Los Angeles, California',
  );
}

describe('browsing', () => {
  test('home → state → city → next page → ad → back, with JavaScript', async () => {
    const page = await chromium.browser.newPage();
    await walkHomeToAdAndBack(page);
    await page.close();
  });

  test('the same path with JavaScript disabled', async () => {
    const context = await chromium.browser.newContext({ javaScriptEnabled: false });
    await walkHomeToAdAndBack(await context.newPage());
    await context.close();
  });

  test('Browse Ads scrolls to the states grid; the header menu opens without JavaScript', async () => {
    const context = await chromium.browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 800 },
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/`);
    await page.getByRole('link', { name: 'Browse Ads' }).click();
    await page.waitForURL(`${baseUrl()}/#states`);
    expect(await page.evaluate(() => location.hash)).toBe('#states');
    const statesHeading = page.getByRole('heading', { name: 'Browse by state' });
    await statesHeading.waitFor();
    expect(await statesHeading.isVisible()).toBe(true);

    const menuLink = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Join Free' });
    expect(await menuLink.isVisible()).toBe(false);
    await page.locator('summary', { hasText: 'Menu' }).click();
    expect(await menuLink.isVisible()).toBe(true);
    expect(await menuLink.getAttribute('href')).toBe(signupPath());
    await context.close();
  });

  test('state grids have 2 columns on phones and 5 on wide screens', async () => {
    for (const [width, columns] of [
      [390, 2],
      [1280, 5],
    ] as const) {
      const page = await chromium.browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(`${baseUrl()}/`);
      const tops = await page
        .locator('#states li')
        .evaluateAll((items) => items.slice(0, 6).map((item) => item.getBoundingClientRect().top));
      expect(tops.filter((top) => top === tops[0])).toHaveLength(columns);
      await page.close();
    }
  });

  test.each([
    ['/state/Atlantis', 'State not found', 'Return to home'],
    ['/city/Texas/Atlantis', 'City not found', 'Return to home'],
    ['/city/California/Los%20Angeles/ad/424242', 'Ad not found', 'Return to home'],
    ['/nothing-here', 'Page Not Found', 'Return Home'],
  ])('%s shows %s with HTTP 404 and a way home', async (path, heading, linkText) => {
    const page = await chromium.browser.newPage();
    const response = await page.goto(`${baseUrl()}${path}`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
    await page.getByRole('link', { name: linkText }).click();
    await page.waitForURL(`${baseUrl()}/`);
    await page.close();
  });
});
