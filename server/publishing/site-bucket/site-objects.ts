// What a file of the built site becomes in the site's bucket (docs/product.md section 6,
// "The site in a bucket"): its key (the file's decoded path under the prefix, as on disk), its
// URL (what a CDN caches and is asked to purge), its headers, and the order it goes in. The
// headers are those the server's own static-site.ts sends for the same file: hashed assets and
// members' photos (named by their digest) never change; pages are short-lived in caches, since
// the purge hook (purge-hook.ts) is what makes a change visible at once.
import { getMimeType } from 'hono/utils/mime';
import { routes } from '../../../core/paths.ts';

/** A file of the site as the bucket holds it (one line of the manifest, site-manifest.ts). */
export interface SiteObject {
  /** Its path under the site's folder, decoded, with `/`: `city/New York/Albany/index.html`. */
  path: string;
  /** MD5 of its bytes, hex: what S3 answers as the ETag of an object put in one request. */
  digest: string;
  size: number;
  contentType: string;
  /** `identity` (the build writes no compressed copies: docs/product.md section 6). */
  encoding: string;
}

/** The order puts go in: what a page links to is in the bucket before the page. */
export const PUT_ORDER = ['asset', 'ad', 'page', 'feed', 'site-file'] as const;
export type ObjectKind = (typeof PUT_ORDER)[number];

/** Atom, as feed readers expect it (as server/http/static-site.ts serves a city's feed). */
const ATOM_TYPE = 'application/atom+xml; charset=utf-8';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Pages: a minute in any cache, then one more answered stale while it is fetched again. */
export const SHORT_LIVED = 'public, max-age=60, stale-while-revalidate=60';

/** The URL path of a file of the site: `city/New York/Albany/index.html` → `/city/New%20York/Albany`. */
export function urlPathOf(path: string): string {
  const segments = path.split('/');
  if (segments.at(-1) === 'index.html') segments.pop();
  return `/${segments.map(encodeURIComponent).join('/')}`;
}

export function kindOf(path: string): ObjectKind {
  if (path.endsWith('.html')) return routes.ad.match(urlPathOf(path)) ? 'ad' : 'page';
  if (path.endsWith('/feed.xml') || path === 'transparency.csv') return 'feed';
  // Sitemaps and robots.txt name the pages: last. Assets, photos and the favicon go first.
  if (path === 'robots.txt' || path === 'sitemap.xml' || path.startsWith('sitemaps/'))
    return 'site-file';
  return 'asset';
}

export function contentTypeOf(path: string): string {
  if (path.endsWith('/feed.xml')) return ATOM_TYPE;
  return getMimeType(path) ?? 'application/octet-stream';
}

export function cacheControlOf(path: string): string {
  return path.startsWith('assets/') || path.startsWith('photos/') ? IMMUTABLE : SHORT_LIVED;
}
