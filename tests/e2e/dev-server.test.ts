// The dev server (`npm run dev`: Vike routing the page folders, and the server's app for the pages
// it renders on request) and the prerendered site (the build rendering the page registry) show the
// same pages: same status, same head metadata, same <main>. Both read the same compiled content.
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inject } from 'vitest';
import {
  aboutPath,
  accountPath,
  adPath,
  cityFeedPath,
  cityPath,
  forgotPath,
  guidePath,
  signinPath,
  signupPath,
  statePath,
  successPath,
} from '../../core/paths.ts';
import { startDevServer, type DevServer } from './dev-server-process.ts';
import { builtAds, builtContent, canonicalOf, fetchPage, metaContent, titleOf } from './support.ts';

let dev: DevServer;

beforeAll(async () => {
  dev = await startDevServer({ compiledContentDir: dirname(inject('compiledContentFile')) });
});

afterAll(() => dev?.stop());

/** What a visitor and a search engine see of a page: status, head metadata and the main content. */
function essentials(status: number, html: string) {
  return {
    status,
    title: titleOf(html),
    description: metaContent(html, 'description'),
    robots: metaContent(html, 'robots'),
    canonical: canonicalOf(html),
    ogTitle: metaContent(html, 'og:title'),
    ogType: metaContent(html, 'og:type'),
    ogUrl: metaContent(html, 'og:url'),
    main: /<main[\s\S]*<\/main>/.exec(html)?.[0],
  };
}

function pathsToCompare(): string[] {
  const ad = builtAds().find((candidate) => candidate.city === 'Los Angeles')!;
  return [
    '/',
    statePath('Vermont'),
    cityPath('California', 'Los Angeles'),
    cityPath('California', 'Los Angeles', 2),
    adPath(ad.state, ad.city, ad.id),
    aboutPath(),
    guidePath(builtContent().guides[0]!.slug),
    '/terms',
    '/privacy',
    signupPath(),
    signinPath(),
    successPath(),
    // Rendered on request by the server's app, on the dev server too.
    accountPath(),
    forgotPath(),
    '/verify?token=not-a-token',
    '/search?q=coffee',
    statePath('Atlantis'),
    cityPath('Vermont', 'Atlantis'),
    `${cityPath('California', 'Los Angeles')}/ad/1`,
    cityPath('California', 'Los Angeles', 99),
    '/no-such-page',
  ];
}

describe('the dev server and the prerendered site', () => {
  test('render every page type and not-found screen alike', async () => {
    for (const path of pathsToCompare()) {
      const prerendered = await fetchPage(path);
      const response = await fetch(`${dev.url}${path}`);
      const developed = essentials(response.status, await response.text());
      expect(developed.main, path).toBeTruthy();
      expect(developed, path).toEqual(essentials(prerendered.status, prerendered.html));
    }
  });

  test('answer a city’s feed, a file of the build, with the same text', async () => {
    const path = cityFeedPath('California', 'Los Angeles');
    const built = await fetchPage(path);
    expect(built.status).toBe(200);
    const response = await fetch(`${dev.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe(built.headers.get('Content-Type'));
    const text = await response.text();
    expect(text).toContain('<entry>');
    expect(text).toBe(built.html);
    expect((await fetch(`${dev.url}${cityFeedPath('Vermont', 'Atlantis')}`)).status).toBe(404);
  });
});
