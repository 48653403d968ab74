// How the e2e tests wait in Chromium: for what a person waits for (the page's script done, the
// answer arrived, the element shown), never for a fixed time or by polling text. Playwright's
// locators wait on their own; vitest's `expect` then checks what is there.
import type { Locator, Page, Response } from 'playwright-core';

/**
 * Waits until the page's script has enhanced it: the forms of /signin and /signup, the ad form
 * and the member header (src/client/main.ts sets `<html data-enhanced="true">`). Without
 * JavaScript (`javaScriptEnabled: false` contexts) there is no script to wait for.
 */
export async function waitForEnhanced(page: Page, javaScriptEnabled = true): Promise<void> {
  if (javaScriptEnabled)
    await page.locator('html[data-enhanced="true"]').waitFor({ state: 'attached' });
}

/** Opens `url` and waits until its script has enhanced it (see waitForEnhanced). */
export async function gotoEnhanced(
  page: Page,
  url: string,
  javaScriptEnabled = true,
): Promise<Response | null> {
  const response = await page.goto(url);
  await waitForEnhanced(page, javaScriptEnabled);
  return response;
}

/** Waits until the image has loaded (scrolled to first: lazy images load near the view); its natural width. */
export async function loadedWidth(image: Locator): Promise<number> {
  await image.scrollIntoViewIfNeeded();
  await image.evaluate((element: HTMLImageElement) =>
    element.complete && element.naturalWidth > 0
      ? undefined
      : new Promise((resolve, reject) => {
          element.addEventListener('load', resolve, { once: true });
          element.addEventListener('error', reject, { once: true });
        }),
  );
  return image.evaluate((element: HTMLImageElement) => element.naturalWidth);
}

/** The text of an element once it is shown. */
export async function shownText(locator: Locator): Promise<string | null> {
  await locator.waitFor();
  return locator.textContent();
}

/**
 * Clicks `button` of a form the page's script sends (with fetch, or XMLHttpRequest where it shows
 * an upload's progress: the posting forms), and waits for the server's answer to it. A plain form
 * post (the form not enhanced) is not that answer: the wait fails instead.
 */
export async function submitWithFetch(button: Locator, path: string): Promise<Response> {
  const [response] = await Promise.all([
    button
      .page()
      .waitForResponse(
        (answer) =>
          new URL(answer.url()).pathname === path &&
          ['fetch', 'xhr'].includes(answer.request().resourceType()),
      ),
    button.click(),
  ]);
  return response;
}
