// Every form and flow is driven twice (docs/conventions.md, rule 15): in Chromium with its
// JavaScript, and again as a browser without it (plain posts, whole pages). bothWays() is the table
// of such a `describe.each`: the run's label (the describe's `%s`), whether JavaScript is on, and
// a short name for the run's screenshots and accounts ('js', 'nojs'); desktopContext(), the
// window a run opens.
import type { Browser } from 'playwright-core';
export type BrowserRun = [label: string, javaScriptEnabled: boolean, run: 'js' | 'nojs'];

/** The two runs; `withLabel` names the one with JavaScript as the file's tests always have. */
export const bothWays = (withLabel = 'in Chromium with JavaScript'): BrowserRun[] => [
  [withLabel, true, 'js'],
  ['without JavaScript', false, 'nojs'],
];

/**
 * The desktop window (1280×900) a run opens, with or without JavaScript; `bypassCSP` lets the
 * test's own scripts (axe, waits) run beside the site's under its content security policy.
 */
export const desktopContext = (browser: Browser, javaScriptEnabled = true) =>
  browser.newContext({
    javaScriptEnabled,
    bypassCSP: true,
    viewport: { width: 1280, height: 900 },
  });
