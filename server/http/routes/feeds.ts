// /search/feed.xml (docs/product.md section 11): the Atom feed of a search, the same query string
// as /search, its newest 30 ads from the search index (made and kept by
// search/search-feeds.ts).
// Feed readers poll: the answer carries an ETag (a digest of its entries) and a Last-Modified (the
// newest entry's day), a conditional GET that matches is answered 304, and a feed made from an
// index that has not changed since is answered from memory, without a query, and compressed (brotli
// or gzip, as the reader accepts) once. A search that has no feed is refused (thrown), and the one
// refusal path answers a feed reader in plain text (server/http/forms/refusal.ts). City feeds are files of the prerendered site
// (src/pages/city/+prerenderUrls.ts).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import type { FeedSite } from '../../../core/feeds/ad-feed.ts';
import type { SearchIndex } from '../../../search/search-index.ts';
import { isNotModified } from '../http-conditional.ts';
import { searchFeeds, type SearchFeed } from '../../../search/search-feeds.ts';
import { ATOM_TYPE } from '../static-site.ts';
import { chooseEncoding, MIN_COMPRESSED_SIZE, type Encoding } from '../static-compression.ts';

/** Feed readers come back after five minutes at the earliest. */
const SEARCH_FEED_CACHE = 'public, max-age=300';

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

export function searchFeedRoute(index: SearchIndex, site: () => FeedSite) {
  const searchFeedOf = searchFeeds(index, site);
  return (c: Context) => sendFeed(c, searchFeedOf(c.req.query()));
}

/** The feed, or 304 when the reader has it already; compressed as the reader accepts. */
function sendFeed(c: Context, feed: SearchFeed) {
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
}
