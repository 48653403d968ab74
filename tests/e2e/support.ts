// Shared helpers of the end-to-end tests: the served site, its content, raw HTML, Chromium.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { findChromium } from '../../scripts/chromium.mjs';
import type { CompiledAd, CompiledContent } from '../../core/schemas/compiled-content.ts';
import { decodeEntities } from '../helpers/html-text.ts';
export { decodeEntities, textOf } from '../helpers/html-text.ts';

export const baseUrl = () => inject('baseUrl');
export const siteDir = () => inject('siteDir');

let content: CompiledContent | undefined;
/** The compiled content the build used: expectations are computed from it, never invented. */
export function builtContent(): CompiledContent {
  content ??= JSON.parse(readFileSync(inject('compiledContentFile'), 'utf8')) as CompiledContent;
  return content;
}

let ads: CompiledAd[] | undefined;
/** Every ad the build published (from its one-file-a-state ad files). */
export function builtAds(): CompiledAd[] {
  if (!ads) {
    const dir = join(dirname(inject('compiledContentFile')), 'ads');
    ads = readdirSync(dir)
      .filter((file) => file.endsWith('.ndjson'))
      .flatMap((file) =>
        readFileSync(join(dir, file), 'utf8')
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as CompiledAd),
      );
  }
  return ads;
}

export async function fetchPage(
  path: string,
): Promise<{ status: number; html: string; headers: Headers }> {
  const response = await fetch(`${baseUrl()}${path}`);
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/** The content of a `<meta name|property=…>` tag in raw HTML. */
export function metaContent(html: string, key: string): string | undefined {
  const tag = html.match(new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`));
  return tag?.[1] && decodeEntities(tag[1]);
}

export function titleOf(html: string): string | undefined {
  const match = html.match(/<title>([^<]*)<\/title>/);
  return match?.[1] && decodeEntities(match[1]);
}

export function canonicalOf(html: string): string | undefined {
  return html.match(/<link rel="canonical" href="([^"]*)"/)?.[1];
}

/**
 * Chromium for the tests of the file (or of the describe it is called in): launched before them,
 * closed after. Its `browser` is filled in by `beforeAll`: read it inside hooks and tests only.
 */
export function chromiumForTests(): { browser: Browser } {
  const launched = {} as { browser: Browser };
  beforeAll(async () => {
    launched.browser = await launchChromium();
  });
  afterAll(async () => {
    await launched.browser?.close();
  });
  return launched;
}

export function launchChromium(): Promise<Browser> {
  // CHROMIUM_PATH (npm test sets it: scripts/chromium.mjs), else the headless shell or a whole
  // Chromium where they usually are, for a file run on its own.
  const found = findChromium();
  if (!found.path) throw new Error(found.problem);
  return chromium.launch({
    executablePath: found.path,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
