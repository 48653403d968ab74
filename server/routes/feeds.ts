// /search/feed.xml (docs/product.md section 11): the Atom feed of a search, the same query string
// as /search (src/pages/search/searchQuery.ts checks it), its newest 30 ads from the search index.
// Feed readers poll: the answer carries an ETag (a digest of its entries) and a Last-Modified (the
// newest entry's day), a conditional GET that matches is answered 304, and a feed made from an
// index that has not changed since is answered from memory, without a query, and compressed (brotli
// or gzip, as the reader accepts) once. City feeds are files of the prerendered site
// (src/pages/city/+prerenderUrls.ts).
import { hash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { adEntry, FEED_ENTRIES, searchFeed, type FeedSite } from '../../src/feeds/ad-feed.ts';
import { atomXml } from '../../src/feeds/atom.ts';
import {
  parseSearchQuery,
  searchFeedTitle,
  searchFeedUrl,
  searchUrl,
} from '../../src/pages/search/searchQuery.ts';
import { isNotModified } from '../http-conditional.ts';
import { UnsearchableWords, type SearchIndex } from '../db/search-index.ts';
import { ATOM_TYPE } from '../static-site.ts';
import { chooseEncoding, MIN_COMPRESSED_SIZE, type Encoding } from '../static-compression.ts';

/** Feed readers come back after five minutes at the earliest. */
const SEARCH_FEED_CACHE = 'public, max-age=300';

/** A search's feed as last made, and the index version it was made from. */
interface MadeFeed {
  version: string;
  etag: string;
  /** The newest entry's day (ms), or undefined for a feed without entries. */
  lastModified: number | undefined;
  xml: string;
  /** The feed compressed, each encoding made when first asked for. */
  encoded: Partial<Record<Encoding, Buffer>>;
}

/** A quick brotli level: a feed is made again whenever the index changes. */
const encode: Record<Encoding, (xml: string) => Buffer> = {
  br: (xml) =>
    brotliCompressSync(xml, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(xml),
      },
    }),
  gzip: (xml) => gzipSync(xml, { level: 6 }),
};

/**
 * Feeds kept, the most recently asked for last: readers poll the same few searches, and a feed
 * made from an index that has not changed since is answered (200 or 304) without a query.
 */
const KEPT_FEEDS = 500;

export function searchFeedRoute(index: SearchIndex, site: () => FeedSite) {
  const made = new Map<string, MadeFeed>();

  return (c: Context) => {
    const refuse = (status: 400 | 503, message: string) => {
      c.header('Cache-Control', 'no-store');
      if (status === 503) c.header('Retry-After', '60');
      return c.text(message, status);
    };
    const query = parseSearchQuery(c.req.query());
    if (!query.ok)
      return refuse(
        400,
        `This search cannot be made into a feed: ${Object.values(query.fieldErrors).join(' ')}`,
      );
    const version = index.version();
    if (version === undefined)
      return refuse(503, 'Search is not available yet: the site is being built.');
    const { values, filters } = query;
    const feedPath = searchFeedUrl(values);
    let feed = made.get(feedPath);
    made.delete(feedPath);
    if (feed?.version !== version) {
      let ads;
      try {
        ads = index.newest(filters, FEED_ENTRIES);
      } catch (error) {
        if (!(error instanceof UnsearchableWords)) throw error;
        return refuse(400, 'These words cannot be searched for: try other words.');
      }
      const where = site();
      const entries = ads.map((ad) => adEntry(ad, where));
      const newest = entries.reduce(
        (max, entry) => (entry.updated > max ? entry.updated : max),
        '',
      );
      const xml = atomXml(
        searchFeed(
          searchFeedTitle(filters),
          feedPath,
          searchUrl(values.q ? { ...values, sort: 'newest' } : values),
          ads,
          where,
        ),
      );
      feed = {
        version,
        etag: `W/"${hash('sha1', JSON.stringify([where.brand, entries]), 'base64url')}"`,
        lastModified: newest ? Date.parse(newest) : undefined,
        xml,
        encoded: {},
      };
    }
    made.set(feedPath, feed);
    if (made.size > KEPT_FEEDS) made.delete(made.keys().next().value!);

    c.header('Content-Type', ATOM_TYPE);
    c.header('Cache-Control', SEARCH_FEED_CACHE);
    c.header('Vary', 'Accept-Encoding');
    c.header('ETag', feed.etag);
    if (feed.lastModified !== undefined)
      c.header('Last-Modified', new Date(feed.lastModified).toUTCString());
    const conditions = {
      ifNoneMatch: c.req.header('If-None-Match'),
      // Without entries there is no date to compare with: only the ETag says "unchanged".
      ifModifiedSince:
        feed.lastModified === undefined ? undefined : c.req.header('If-Modified-Since'),
    };
    if (isNotModified(conditions, { etag: feed.etag, mtimeMs: feed.lastModified ?? 0 }))
      return c.body(null, 304);
    const encoding =
      feed.xml.length >= MIN_COMPRESSED_SIZE
        ? chooseEncoding(c.req.header('Accept-Encoding'))
        : undefined;
    if (!encoding) return c.body(feed.xml, 200);
    const bytes = (feed.encoded[encoding] ??= encode[encoding](feed.xml));
    c.header('Content-Encoding', encoding);
    c.header('Content-Length', String(bytes.length));
    return c.body(
      new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) as Uint8Array<ArrayBuffer>,
      200,
    );
  };
}
