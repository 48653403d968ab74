// What the e2e tests check of a page a person looks at: axe-core (the accessibility checker), that
// nothing is wider than the screen, and screenshots to open and look at.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

// The minified build of the same axe-core (its `source` export is the 1.5 MB unminified one, which
// Chromium took ~240 ms to take in on every page; this one, evaluated, ~80 ms). It ends in
// `undefined` so that evaluating it answers nothing rather than axe's object, which cannot be sent back.
const axeSource = `${readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')}\n;undefined`;

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: Array<{ target: string[] }>;
}

/**
 * The serious and critical violations on the page as it is now, each as "rule: where". The site's
 * Content-Security-Policy forbids inline scripts: the page's context needs `bypassCSP: true`.
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  // Once a document: a second look at another width finds it there.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown }> } }).axe;
    return (await axe.run()).violations;
  })) as AxeViolation[];
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/** How many pixels the page is wider than the screen (0 or less: nothing sticks out). */
export const overflowWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Where a screenshot named `name` goes (a folder kept after the run, for a person to open). */
export function screenshotPath(name: string): string {
  const dir = join(tmpdir(), 'localboard-screenshots');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}

// What Chromium answers when its copy of the page comes back empty. A capture resizes the view (to
// the whole page for `fullPage`, to the box of an element), asks for a frame and copies it; on a
// loaded machine the copy can miss the frame (an e2e file failed so once in a CI run of 3,560
// tests, two Chromiums and the unit files busy). Chromium's own screencast copes with the same
// empty copy by trying again a little later; so does `screenshot` below.
const EMPTY_CAPTURE = 'Unable to capture screenshot';

/**
 * A screenshot of the page (the whole page with `fullPage`) or of one element into `path`, for a
 * person to open. A capture Chromium could not copy is taken again after 100 ms, twice at most;
 * any other error is the test's. (No script runs for it: it works on a page without JavaScript.)
 */
export async function screenshot(
  target: Page | Locator,
  path: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await target.screenshot({ path, ...options });
      return;
    } catch (error) {
      if (attempt === 3 || !String(error).includes(EMPTY_CAPTURE)) throw error;
      await new Promise((again) => setTimeout(again, 100));
    }
  }
}

/**
 * Screenshots of the page at a phone's width and a desktop's (390 and 1280 px) into `dir`
 * (`{name}-{width}.png`), the whole page unless told; `atWidth` runs after each, at that width.
 * The view is left at 1280 px.
 */
export async function screenshotsAtWidths(
  page: Page,
  dir: string,
  name: string,
  {
    fullPage = true,
    atWidth,
  }: { fullPage?: boolean; atWidth?: (width: number) => Promise<void> } = {},
): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, join(dir, `${name}-${width}.png`), { fullPage });
    await atWidth?.(width);
  }
}

/** screenshotsAtWidths, and with JavaScript no serious axe-core violations at either width. */
export async function lookAtWidths(
  page: Page,
  dir: string,
  name: string,
  javaScriptEnabled: boolean,
): Promise<void> {
  await screenshotsAtWidths(page, dir, name, {
    atWidth: async (width) => {
      if (javaScriptEnabled)
        expect(await seriousAxeViolations(page), `${name} at ${width}`).toEqual([]);
    },
  });
}
