// The static output works on any static host: decoded names on disk, every internal link
// resolving to a file (or to a page the server renders on request), and nothing but what the
// content holds.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { pages } from '../../src/pages/registry.ts';
import { builtAds, builtContent, decodeEntities, siteDir } from './support.ts';

const onRequestPages = pages.filter((page) => !page.prerenderUrls);

function* htmlFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(path);
    else if (entry.name.endsWith('.html')) yield path;
  }
}

/** The file a static host serves for a site-relative URL path. */
function fileFor(root: string, urlPath: string): string {
  const decoded = urlPath.split('/').map(decodeURIComponent).join('/');
  return /\.[a-z0-9]+$/i.test(decoded) ? join(root, decoded) : join(root, decoded, 'index.html');
}

describe('static output', () => {
  test('stores pages under decoded names, never a literal %20', () => {
    const root = siteDir();
    expect(existsSync(join(root, 'city', 'South Dakota', 'De Smet', 'index.html'))).toBe(true);
    expect(existsSync(join(root, 'state', 'New Hampshire', 'index.html'))).toBe(true);
    const encoded = [...htmlFiles(root)].filter((file) => relative(root, file).includes('%'));
    expect(encoded).toEqual([]);
  });

  test('has one page per state, per city page of ads, per ad, and nothing else', () => {
    const root = siteDir();
    const files = [...htmlFiles(root)].map((file) => relative(root, file));
    const content = builtContent();
    const cities = content.states.reduce((sum, state) => sum + state.cities.length, 0);
    expect(files.filter((file) => file.startsWith('state/'))).toHaveLength(50);
    expect(files.filter((file) => /^city\/[^/]+\/[^/]+\/index\.html$/.test(file))).toHaveLength(
      cities,
    );
    expect(files.filter((file) => /\/ad\/\d+\/index\.html$/.test(file))).toHaveLength(
      builtAds().length,
    );
  });

  test('every internal link in every page resolves to a file', () => {
    const root = siteDir();
    const checked = new Map<string, boolean>();
    const broken: string[] = [];
    let pages = 0;
    for (const file of htmlFiles(root)) {
      pages += 1;
      const html = readFileSync(file, 'utf8');
      for (const match of html.matchAll(/(?:href|src)="(\/[^"]*)"/g)) {
        const target = decodeEntities(match[1]!).split('#')[0]!.split('?')[0]!;
        if (target.startsWith('//')) continue;
        // Member pages and emailed links (/forgot, /account, …) are the server's, on request.
        if (onRequestPages.some((page) => page.route.match(target))) continue;
        let ok = checked.get(target);
        if (ok === undefined) {
          ok = existsSync(fileFor(root, target));
          checked.set(target, ok);
        }
        if (!ok) broken.push(`${relative(root, file)} → ${target}`);
      }
    }
    expect(pages).toBeGreaterThan(16_000);
    expect(broken.slice(0, 20)).toEqual([]);
  });
});
