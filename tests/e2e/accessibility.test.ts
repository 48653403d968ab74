// axe-core, the accessibility checker, on one page of every type and on every not-found screen, in
// Chromium, at a phone's width and a desktop's: no serious or critical violation (contrast, names,
// landmarks, labels).
import { describe, expect, test } from 'vitest';
import {
  aboutPath,
  accountPath,
  adPath,
  cityPath,
  forgotPath,
  guidePath,
  transparencyPath,
  signinPath,
  signupApiPath,
  signupPath,
  statePath,
} from '../../core/paths.ts';
import { gotoEnhanced } from '../helpers/browser-waits.ts';
import { screenshot, screenshotPath, seriousAxeViolations } from '../helpers/page-checks.ts';
import { baseUrl, builtAds, builtContent, chromiumForTests } from './support.ts';

const chromium = chromiumForTests();

function pagesToCheck(): Array<[string, string]> {
  const ad = builtAds()[0]!;
  const guide = builtContent().guides[0]!;
  return [
    ['landing', '/'],
    ['state', statePath('California')],
    ['city', cityPath('California', 'Los Angeles')],
    ['ad', adPath(ad.state, ad.city, ad.id)],
    ['about', aboutPath()],
    ['guide', guidePath(guide.slug)],
    ['terms', '/terms'],
    ['transparency report', transparencyPath()],
    ['sign-up', signupPath()],
    ['sign-in', signinPath()],
    ['page not found', '/no-such-page'],
    ['state not found', '/state/Atlantis'],
    ['city not found', '/city/California/Atlantis'],
    ['ad not found', `${cityPath('California', 'Los Angeles')}/ad/1`],
    ['forgot password', forgotPath()],
    ['verify (link not valid)', '/verify?token=x'],
    ['reset (link not valid)', '/reset?token=x'],
    // Last: the page signs up first, and the header shows the member from then on.
    ['account', accountPath()],
  ];
}

describe('accessibility (axe-core)', () => {
  for (const width of [390, 1280]) {
    test(`no serious or critical violation on any page type at ${width} px`, async () => {
      // The site's Content-Security-Policy forbids inline scripts; axe is injected by the test itself.
      const page = await chromium.browser.newPage({
        viewport: { width, height: 900 },
        bypassCSP: true,
      });
      const found: string[] = [];
      for (const [name, path] of pagesToCheck()) {
        if (path === accountPath()) {
          const signup = await page.request.post(`${baseUrl()}${signupApiPath()}`, {
            data: {
              email: `axe-${width}-${Date.now()}@example.com`,
              password: 'a long enough password',
              dateOfBirth: '1990-04-12',
            },
          });
          expect(signup.status()).toBe(201);
        }
        // The page as a person sees it: once its script has enhanced the forms and the header.
        await gotoEnhanced(page, `${baseUrl()}${path}`);
        expect(page.url()).toBe(`${baseUrl()}${path}`);
        for (const violation of await seriousAxeViolations(page))
          found.push(`${name} (${path}): ${violation}`);
        if (path === transparencyPath())
          await screenshot(page, screenshotPath(`transparency-${width}`), { fullPage: true });
      }
      await page.close();
      expect(found).toEqual([]);
    });
  }
});
