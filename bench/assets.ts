// The JS and CSS a first visit to a page downloads: the stylesheets it links, its module
// scripts and, recursively, their static imports (dynamic `import()` loads later, if at all).
// Each file counts once, gzipped.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { gzipBytes } from './gzip.ts';

export interface FirstVisit {
  jsGzipBytes: number;
  cssGzipBytes: number;
  files: string[];
}

const STYLESHEET = /<link\b[^>]*\brel="stylesheet"[^>]*>/g;
const SCRIPT = /<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g;
const HREF = /\bhref="([^"]+)"/;
// `import x from"./a.js"`, `import{a}from"./a.js"`, `import"./a.js"`, `export*from"./a.js"`;
// not `import(` (the character class has no parenthesis, so a dynamic import never matches).
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$\s{},*]*?\bfrom\s*)?["']([^"']+)["']/g;

/** `pageFile` is an HTML file under `siteDir`, the site's root. */
export function firstVisitAssets(siteDir: string, pageFile: string): FirstVisit {
  const folder = relative(siteDir, dirname(pageFile)).split(sep).join('/');
  const pageUrl = folder ? `/${folder}/` : '/';
  const html = readFileSync(pageFile, 'utf8');
  const stylesheets = [...html.matchAll(STYLESHEET)].flatMap((tag) => HREF.exec(tag[0])?.[1] ?? []);
  const scripts = [...html.matchAll(SCRIPT)].map((match) => match[1] as string);

  const seen = new Set<string>();
  const visit = (url: string) => {
    if (seen.has(url) || !existsSync(fileFor(siteDir, url))) return;
    seen.add(url);
    if (!url.endsWith('.js')) return;
    const code = readFileSync(fileFor(siteDir, url), 'utf8');
    for (const match of code.matchAll(STATIC_IMPORT)) {
      const target = resolveUrl(url, match[1] as string);
      if (target) visit(target);
    }
  };
  for (const href of [...stylesheets, ...scripts]) {
    const url = resolveUrl(pageUrl, href);
    if (url) visit(url);
  }
  return totals(siteDir, [...seen]);
}

function totals(siteDir: string, urls: string[]): FirstVisit {
  let jsGzipBytes = 0;
  let cssGzipBytes = 0;
  for (const url of urls) {
    const bytes = gzipBytes(readFileSync(fileFor(siteDir, url)));
    if (url.endsWith('.css')) cssGzipBytes += bytes;
    else jsGzipBytes += bytes;
  }
  return { jsGzipBytes, cssGzipBytes, files: urls.sort() };
}

/** A same-site URL path for `href` as seen from `base`, or undefined for other origins. */
function resolveUrl(base: string, href: string): string | undefined {
  if (/^[a-z][\w+.-]*:|^\/\//i.test(href)) return undefined;
  const path = href.split(/[?#]/)[0] as string;
  if (path.startsWith('/')) return posix.normalize(path);
  if (!path.startsWith('.')) return undefined; // a bare module name: not a file of the site
  return posix.normalize(posix.join(posix.dirname(base.endsWith('/') ? `${base}x` : base), path));
}

const fileFor = (siteDir: string, url: string) => join(siteDir, decodeURIComponent(url));
