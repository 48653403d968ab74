// Nearby cities on city pages (docs/product.md section 3, City page), on the production build of
// the shipped content: raw HTML without JavaScript, then Chromium at 390 and 1280 px (screenshots
// in {tmp}/localboard-screenshots/nearby-*.png, to open and look at).
import { describe, expect, test } from 'vitest';
import { milesBetween } from '../../core/geo/great-circle.ts';
import { lookAtWidths, overflowWidth, screenshotPath } from '../helpers/page-checks.ts';
import {
  baseUrl,
  builtContent,
  fetchPage,
  chromiumForTests,
  metaContent,
  textOf,
} from './support.ts';
import { dirname } from 'node:path';

const cityOf = (state: string, city: string) => {
  const found = builtContent()
    .states.find((candidate) => candidate.name === state)
    ?.cities.find((candidate) => candidate.name === city);
  if (!found) throw new Error(`no city ${city}, ${state}`);
  return found;
};

/** Every city with published ads, with its distance from `state`/`city`, nearest first. */
function citiesWithAdsByDistance(state: string, city: string) {
  const center = cityOf(state, city);
  const { adCounts, states } = builtContent();
  return states
    .flatMap((other) =>
      other.cities
        .filter((place) => (adCounts[other.name]?.[place.name] ?? 0) > 0)
        .filter((place) => !(other.name === state && place.name === city))
        .map((place) => ({
          state: other,
          city: place.name,
          ads: adCounts[other.name]![place.name]!,
          miles: milesBetween(center, place),
        })),
    )
    .sort((a, b) => a.miles - b.miles);
}

/** The nearby list of a page's raw HTML: [city label, miles, ads]. */
function nearbyListOf(html: string): Array<[string, number, number]> {
  const list = /<nav class="nearby"[^]*?<\/nav>/.exec(html)?.[0] ?? '';
  return [...list.matchAll(/<li[^>]*>([^]*?)<\/li>/g)].map(([, item]) => {
    const text = textOf(item!);
    const match = /^(.*?)\s*(\d[\d,]*|under 1) mi · (\d+) ads?$/.exec(text);
    if (!match) throw new Error(`a nearby item reads "${text}"`);
    const miles = match[2] === 'under 1' ? 0 : Number(match[2]!.replace(/,/g, ''));
    return [match[1]!, miles, Number(match[3])];
  });
}

describe('a city page without ads (raw HTML)', () => {
  test('leads with the nearest ads, nearest first, within a mile of the great-circle distance; noindex', async () => {
    const { status, html } = await fetchPage('/city/Oregon/Beaverton');
    expect(status).toBe(200);
    expect(metaContent(html, 'robots')).toBe('noindex, follow');
    // textOf puts a space after each element: "Portland , 7 mi" is "Portland, 7 mi" on screen.
    const text = textOf(html).replace(/ ,/g, ',');
    const expected = citiesWithAdsByDistance('Oregon', 'Beaverton')
      .filter(({ miles }) => miles <= 250)
      .slice(0, 8);
    expect(expected[0]?.city).toBe('Portland');
    expect(text).toContain(
      `No ads in Beaverton yet. Nearest ads: ${expected
        .map(
          ({ state, city, miles }) =>
            `${state.name === 'Oregon' ? city : `${city}, ${state.code}`}, ${Math.round(miles)} mi`,
        )
        .join(' · ')}`,
    );
    const list = nearbyListOf(html);
    expect(list.map(([label]) => label)).toEqual(
      expected.map(({ state, city }) =>
        state.name === 'Oregon' ? city : `${city}, ${state.code}`,
      ),
    );
    for (const [index, [, miles, ads]] of list.entries()) {
      expect(Math.abs(miles - expected[index]!.miles)).toBeLessThanOrEqual(1);
      expect(ads).toBe(expected[index]!.ads);
    }
  });

  test('lists cities across state lines with their state (Vancouver, WA → Portland)', async () => {
    const { html } = await fetchPage('/city/Washington/Vancouver');
    const [first] = nearbyListOf(html);
    expect(first?.[0]).toBe('Portland, OR');
    const portland = milesBetween(cityOf('Washington', 'Vancouver'), cityOf('Oregon', 'Portland'));
    expect(Math.abs(first![1] - portland)).toBeLessThanOrEqual(1);
    expect(html).toContain('href="/city/Oregon/Portland"');
  });

  test('stays out of the sitemap', async () => {
    const { html } = await fetchPage('/sitemap.xml');
    expect(html).not.toContain('/city/Oregon/Beaverton<');
  });
});

describe('a city page with ads (raw HTML)', () => {
  test('lists its nearby cities with ads under its own, never itself', async () => {
    const { html } = await fetchPage('/city/Oregon/Portland');
    const list = nearbyListOf(html);
    const expected = citiesWithAdsByDistance('Oregon', 'Portland')
      .filter(({ miles }) => miles <= 250)
      .slice(0, 8);
    expect(list.map(([label]) => label)).toEqual(
      expected.map(({ state, city }) =>
        state.name === 'Oregon' ? city : `${city}, ${state.code}`,
      ),
    );
    expect(list.map(([label]) => label)).not.toContain('Portland');
  });
});

describe('in Chromium', () => {
  const chromium = chromiumForTests();

  for (const javaScriptEnabled of [true, false]) {
    test(`an empty city page and one with ads, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, async () => {
      const context = await chromium.browser.newContext({ javaScriptEnabled, bypassCSP: true });
      const page = await context.newPage();
      const dir = dirname(screenshotPath('nearby'));
      const suffix = javaScriptEnabled ? '' : '-nojs';
      await page.goto(`${baseUrl()}/city/Oregon/Beaverton`);
      await page.getByRole('link', { name: 'Portland', exact: true }).first().click();
      await page.waitForURL('**/city/Oregon/Portland');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Portland, Oregon');
      await page.goto(`${baseUrl()}/city/Oregon/Beaverton`);
      await lookAtWidths(page, dir, `nearby-empty${suffix}`, javaScriptEnabled);
      expect(await overflowWidth(page)).toBeLessThanOrEqual(0);
      await page.goto(`${baseUrl()}/city/Oregon/Portland`);
      await expect(
        page.getByRole('navigation', { name: 'Nearby cities with ads' }).isVisible(),
      ).resolves.toBe(true);
      await lookAtWidths(page, dir, `nearby-portland${suffix}`, javaScriptEnabled);
      expect(await overflowWidth(page)).toBeLessThanOrEqual(0);
      await context.close();
    });
  }
});
