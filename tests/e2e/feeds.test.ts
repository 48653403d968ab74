// The feed links of the city and search pages (docs/product.md section 11) on the production
// build, in Chromium: announced in the head, linked visibly near the list, the link leads to an
// Atom feed; screenshots at 390 and 1280 px into FEEDS_SCREENSHOTS_DIR (default
// /tmp/localboard-feeds-screenshots), with axe at both widths.
import { describe, expect, test } from 'vitest';
import { lookAtWidths } from '../helpers/page-checks.ts';
import { readAtom } from '../helpers/atom-checks.ts';
import { baseUrl, chromiumForTests } from './support.ts';

const SHOTS = process.env.FEEDS_SCREENSHOTS_DIR ?? '/tmp/localboard-feeds-screenshots';

const chromium = chromiumForTests();

describe('feed links', () => {
  test.each([
    {
      name: 'city-page',
      path: '/city/California/Los%20Angeles',
      title: 'New ads in Los Angeles',
      feed: '/city/California/Los%20Angeles/feed.xml',
    },
    {
      name: 'empty-city-page',
      path: '/city/Vermont/Stowe',
      title: 'New ads in Stowe',
      feed: '/city/Vermont/Stowe/feed.xml',
    },
    {
      name: 'search-page',
      path: '/search?q=coffee&state=California&sort=match',
      title: 'New ads for this search',
      feed: '/search/feed.xml?q=coffee&state=California',
    },
  ])('$name announces its feed and links it visibly', async ({ name, path, title, feed }) => {
    // axe-core is injected as a script: the site's CSP forbids that, so the test context bypasses it.
    const context = await chromium.browser.newContext({ bypassCSP: true });
    try {
      const page = await context.newPage();
      const response = await page.goto(`${baseUrl()}${path}`);
      expect(response?.status()).toBe(200);
      const announced = page.locator('head link[rel="alternate"][type="application/atom+xml"]');
      expect(await announced.getAttribute('title')).toBe(title);
      expect(await announced.getAttribute('href')).toBe(feed);
      const link = page.getByRole('link', { name: 'Feed of new ads' });
      expect(await link.isVisible()).toBe(true);
      expect(await link.getAttribute('href')).toBe(feed);
      await lookAtWidths(page, SHOTS, name, true);

      const answer = await fetch(`${baseUrl()}${feed}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('Content-Type')).toBe('application/atom+xml; charset=utf-8');
      readAtom(await answer.text());
    } finally {
      await context.close();
    }
  });
});
