// The production build fetched without JavaScript: prerendered texts, head metadata, statuses.
import { describe, expect, test } from 'vitest';
import {
  aboutPath,
  adPath,
  cityPath,
  safetyNoticePath,
  signupPath,
  statePath,
} from '../../core/paths.ts';
import {
  builtAds,
  baseUrl,
  builtContent,
  canonicalOf,
  fetchPage,
  metaContent,
  textOf,
  titleOf,
} from './support.ts';

const BASE = 'https://localboard.example';

function adsIn(state: string, city: string) {
  return builtAds().filter((ad) => ad.state === state && ad.city === city);
}

function expectCompleteHead(html: string, canonicalPath: string) {
  expect(titleOf(html)?.length).toBeGreaterThan(5);
  expect(metaContent(html, 'description')?.length).toBeGreaterThan(20);
  expect(canonicalOf(html)).toBe(`${BASE}${canonicalPath}`);
  expect(metaContent(html, 'robots')).toMatch(/^(no)?index, (no)?follow$/);
  expect(metaContent(html, 'og:title')).toBe(titleOf(html));
  expect(metaContent(html, 'og:description')).toBe(metaContent(html, 'description'));
  expect(metaContent(html, 'og:type')).toMatch(/^(website|article)$/);
  expect(metaContent(html, 'og:url')).toBe(`${BASE}${canonicalPath}`);
}

describe('landing page', () => {
  test('has the hero, all 50 states, popular cities, eight FAQs and counts computed from content', async () => {
    const { status, html } = await fetchPage('/');
    expect(status).toBe(200);
    expectCompleteHead(html, '/');
    const text = textOf(html);
    expect(html).toContain('href="#states"');
    expect(text).toContain('Browse Ads');
    expect(text).toContain('Post Your Ad');
    expect(text).toContain('Get Started');
    const stateLinks = new Set([...html.matchAll(/href="(\/state\/[^"]+)"/g)].map((m) => m[1]));
    expect(stateLinks.size).toBe(50);
    // Raw HTML without JavaScript: the classes here are what is checked (FAQ items, the menu,
    // featured cards).
    expect(html.match(/class="faq__item"/g)).toHaveLength(8);
    const content = builtContent();
    const cities = new Set(builtAds().map((ad) => `${ad.state}/${ad.city}`));
    expect(text).toContain(`${builtAds().length} active ads in ${cities.size} cities`);
    for (const popular of content.site.popularCities) {
      expect(html).toContain(`href="${cityPath(popular.state, popular.city)}"`);
    }
    expect(text).toContain('Localboard - Personal ads in the United States - 18+ only');
  });
});

describe('state pages', () => {
  test('list every city of the state CSV and the state guide', async () => {
    const state = builtContent().states.find((entry) => entry.name === 'New Hampshire')!;
    const { status, html } = await fetchPage(statePath('New Hampshire'));
    expect(status).toBe(200);
    expectCompleteHead(html, '/state/New%20Hampshire');
    const text = textOf(html);
    expect(text).toContain('Find Personals in New Hampshire');
    expect(text).toContain(
      `Browse local ads in ${state.cities.length} cities across New Hampshire`,
    );
    expect(text).toContain("Localboard's Guide to New Hampshire");
    const cityLinks = [...html.matchAll(/href="\/city\/New%20Hampshire\/[^"/]+"/g)];
    expect(cityLinks).toHaveLength(state.cities.length);
  });

  test('follow their front-matter flags: header menu, footer button, brand prefix, robots, SEO title', async () => {
    const states = builtContent().states;
    const pick = (predicate: (state: (typeof states)[number]) => boolean) =>
      states.find(predicate)!;

    const noMenu = await fetchPage(statePath(pick((s) => s.headerMenu === 'none').name));
    expect(noMenu.html).not.toContain('<details class="menu"');
    expect(noMenu.html).toContain('site-header--centred');
    const withMenu = await fetchPage(statePath(pick((s) => s.headerMenu === 'dropdown').name));
    expect(withMenu.html).toContain('<details class="menu"');
    expect(
      textOf(withMenu.html.split('<details class="menu"')[1]!.split('</details>')[0]!),
    ).toContain('Home Join Free');

    const footerOf = (html: string) => textOf(html.split('<footer')[1]!);
    const postState = pick((s) => s.footerButton === 'post');
    expect(footerOf((await fetchPage(statePath(postState.name))).html)).toContain('Post Ad');
    const joinState = pick((s) => s.footerButton === 'join');
    const joinFooter = footerOf((await fetchPage(statePath(joinState.name))).html);
    expect(joinFooter).toContain('Join Free');
    expect(joinFooter).not.toContain('Post Ad');

    const unbranded = pick((s) => !s.brandPrefix);
    const unbrandedFooter = footerOf((await fetchPage(statePath(unbranded.name))).html);
    expect(unbrandedFooter).toContain(`Personal ads in ${unbranded.name} - 18+ only`);
    expect(unbrandedFooter).not.toContain(`Localboard - Personal ads in ${unbranded.name}`);
    const branded = pick((s) => s.brandPrefix);
    expect(footerOf((await fetchPage(statePath(branded.name))).html)).toContain(
      `Localboard - Personal ads in ${branded.name} - 18+ only`,
    );

    const noindex = pick((s) => s.robots.startsWith('noindex'));
    expect(metaContent((await fetchPage(statePath(noindex.name))).html, 'robots')).toBe(
      noindex.robots,
    );

    const seo = pick((s) => s.seoTitle !== undefined && s.seoDescription !== undefined);
    const seoPage = (await fetchPage(statePath(seo.name))).html;
    expect(titleOf(seoPage)).toBe(seo.seoTitle);
    expect(metaContent(seoPage, 'description')).toBe(seo.seoDescription);
  });
});

describe('city pages', () => {
  const [state, city] = ['California', 'Los Angeles'];

  test('show thirty ads a page, featured first, with Next Page only where a next page exists', async () => {
    const ads = adsIn(state, city);
    expect(ads.length).toBeGreaterThan(60);
    const pages = Math.ceil(ads.length / 30);
    const first = await fetchPage(cityPath(state, city));
    expect(first.status).toBe(200);
    expectCompleteHead(first.html, '/city/California/Los%20Angeles');
    expect(textOf(first.html)).toContain('Los Angeles, California');
    expect(textOf(first.html)).toContain('Browse local ads in Los Angeles');
    expect(first.html.match(/<article class="ad-card/g)).toHaveLength(30);
    const cardClasses = [...first.html.matchAll(/<article class="(ad-card[^"]*)"/g)].map(
      (m) => m[1],
    );
    const firstPlain = cardClasses.indexOf('ad-card');
    expect(cardClasses.slice(firstPlain).every((name) => name === 'ad-card')).toBe(true);
    expect(textOf(first.html)).toContain('Next Page →');
    expect(textOf(first.html)).toContain('View more ads in Los Angeles');
    expect(textOf(first.html)).toContain('Sample ad');

    const last = await fetchPage(cityPath(state, city, pages));
    expect(last.status).toBe(200);
    expect(last.html.match(/<article class="ad-card/g)).toHaveLength(ads.length - 30 * (pages - 1));
    expect(textOf(last.html)).not.toContain('Next Page');
    expect(canonicalOf(last.html)).toBe(
      `https://localboard.example/city/California/Los%20Angeles/page/${pages}`,
    );

    const beyond = await fetchPage(cityPath(state, city, pages + 1));
    expect(beyond.status).toBe(404);
  });

  test('a city without ads invites the first post and has no pagination', async () => {
    const content = builtContent();
    const withAds = new Set(builtAds().map((ad) => `${ad.state}/${ad.city}`));
    const empty = content.states[0]!.cities.find(
      (c) => !withAds.has(`${content.states[0]!.name}/${c.name}`),
    )!;
    const { status, html } = await fetchPage(cityPath(content.states[0]!.name, empty.name));
    expect(status).toBe(200);
    const text = textOf(html);
    // It leads with the nearest cities that have ads (docs/product.md section 3; tests/e2e/nearby.test.ts).
    expect(text).toContain(`No ads in ${empty.name} yet. Nearest ads:`);
    expect(text).toContain(`Be the first to post in ${empty.name}!`);
    expect(text).toContain('Post Your Ad');
    expect(text).not.toContain('Next Page');
  });
});

describe('ad pages', () => {
  test('show the ad with its facts, are noindex, and describe themselves with the first 150 characters', async () => {
    const ad = adsIn('New York', 'New York City')[0]!;
    const path = adPath(ad.state, ad.city, ad.id);
    const { status, html } = await fetchPage(path);
    expect(status).toBe(200);
    expectCompleteHead(html, path);
    expect(metaContent(html, 'robots')).toBe('noindex, follow');
    expect(metaContent(html, 'description')).toBe(
      Array.from(ad.description.replace(/\s+/g, ' ').trim()).slice(0, 150).join(''),
    );
    const text = textOf(html);
    expect(text).toContain('← Back to New York City ads');
    expect(text).toContain(ad.title);
    expect(text).toContain(`Age: ${ad.age}`);
    expect(text).toContain(`(${ad.seeks})`);
    expect(text).toContain('Posted in New York City, New York on');
    expect(text).toContain('Send Message');
    expect(text).toContain('Report this ad');
  });
});

describe('guides and legal pages', () => {
  test('about lists the eleven guides with the browse and post buttons', async () => {
    const { status, html } = await fetchPage(aboutPath());
    expect(status).toBe(200);
    expectCompleteHead(html, aboutPath());
    expect([...html.matchAll(/href="\/about\/[^"]+"/g)].length).toBeGreaterThanOrEqual(11);
    expect(textOf(html)).toContain('Browse Local Ads');
    expect(textOf(html)).toContain('GeoNames');
    for (const guide of builtContent().guides) {
      const page = await fetchPage(`/about/${guide.slug}`);
      expect(page.status).toBe(200);
      expect(textOf(page.html)).toContain(guide.title);
    }
  });

  test('the dating safety notice (Texas §106.006): its measures, linked from every footer and sign-up', async () => {
    const { status, html } = await fetchPage(safetyNoticePath());
    expect(status).toBe(200);
    expectCompleteHead(html, safetyNoticePath());
    const text = textOf(html);
    expect(text).toContain('Online Dating Safety Notice');
    expect(text).toContain('does not conduct criminal background checks');
    expect(text).toContain(
      'Anyone who is able to commit identity theft can also falsify a dating profile.',
    );
    expect(text).toContain('There is no substitute for acting with caution');
    expect(text).toContain('Never put your last name, email address, home address, phone number');
    expect(text).toContain('Never agree to be picked up at your home.');
    expect(text).toContain('Always provide your own transportation');
    for (const path of ['/', aboutPath(), statePath('Texas'), '/privacy']) {
      const page = await fetchPage(path);
      expect(page.html, path).toMatch(
        new RegExp(`<footer[\\s\\S]*href="${safetyNoticePath()}"[^>]*>Safety</a>`),
      );
    }
    const signup = await fetchPage(signupPath());
    expect(textOf(signup.html)).toContain(
      'We do not run criminal background checks. Before you meet anyone, read our online dating safety notice',
    );
    expect(signup.html).toContain(`href="${safetyNoticePath()}"`);
  });

  test('the top-cities guide ranks cities by their active ads', async () => {
    const { html } = await fetchPage('/about/top-cities');
    const counts = new Map<string, number>();
    for (const ad of builtAds())
      counts.set(`${ad.city}, ${ad.state}`, (counts.get(`${ad.city}, ${ad.state}`) ?? 0) + 1);
    const [topCity, topCount] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]!;
    expect(textOf(html).replace(/ :/g, ':')).toContain(`${topCity}: ${topCount} active ads`);
  });

  test.each(['terms', 'privacy'])(
    '/%s has its canonical link and a Last updated date',
    async (slug) => {
      const { status, html } = await fetchPage(`/${slug}`);
      expect(status).toBe(200);
      expectCompleteHead(html, `/${slug}`);
      expect(textOf(html)).toMatch(/Last updated [A-Z][a-z]+ \d{1,2}, \d{4}/);
      expect(textOf(html)).toMatch(/18/);
    },
  );
});

describe('not-found screens', () => {
  test.each([
    ['/state/Atlantis', 'State not found', 'Return to home'],
    ['/city/California/Atlantis', 'City not found', 'Return to home'],
    ['/city/Atlantis/Springfield', 'State not found', 'Return to home'],
    ['/city/California/Los%20Angeles/ad/424242', 'Ad not found', 'Return to home'],
    ['/no/such/page', 'Page Not Found', 'Return Home'],
  ])('%s answers 404 with %s', async (path, heading, link) => {
    const { status, html } = await fetchPage(path);
    expect(status).toBe(404);
    const text = textOf(html);
    expect(text).toContain(heading);
    expect(text).toContain(link);
    expect(html).toContain('href="/"');
    if (heading === 'Page Not Found')
      expect(text).toContain("The page you're looking for doesn't exist.");
  });
});

describe('sitemap and robots', () => {
  test('the sitemap lists indexable pages and leaves ad pages out; robots.txt points to it', async () => {
    const sitemap = await fetchPage('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    expect(sitemap.html).toContain('<loc>https://localboard.example/</loc>');
    expect(sitemap.html).toContain(
      '<loc>https://localboard.example/city/California/Los%20Angeles</loc>',
    );
    expect(sitemap.html).not.toMatch(/\/ad\/\d+<\/loc>/);
    const noindexState = builtContent().states.find((s) => s.robots.startsWith('noindex'))!;
    expect(sitemap.html).not.toContain(
      `<loc>https://localboard.example${statePath(noindexState.name)}</loc>`,
    );
    const robots = await fetchPage('/robots.txt');
    expect(robots.html).toContain('Sitemap: https://localboard.example/sitemap.xml');
  });
});

describe('serving', () => {
  test('pages are compressed and revalidated; hashed assets are cached for a year', async () => {
    const response = await fetch(`${baseUrl()}/`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const html = await response.text();
    const stylesheet = html.match(/<link rel="stylesheet" href="([^"]+)"/)?.[1];
    expect(stylesheet).toMatch(/^\/assets\//);
    const css = await fetchPage(stylesheet!);
    expect(css.status).toBe(200);
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
