// A search's Atom feed (docs/product.md section 11) as the server makes it: the same query string
// as /search (core/search-query.ts checks it), its newest 30 ads from the search index
// (search/search-index.ts), with what says whether a reader has it already: an ETag (a digest
// of its entries) and the newest entry's day. A feed made from an index that has not changed since
// is kept (the most recently asked for last), so readers polling the same few searches cost no
// query. How it is sent (headers, 304, compression) is the route's (server/http/routes/feeds.ts).
import { hash } from 'node:crypto';
import { adEntry, FEED_ENTRIES, searchFeed, type FeedSite } from '../core/feeds/ad-feed.ts';
import { atomXml } from '../core/feeds/atom.ts';
import {
  parseSearchQuery,
  searchFeedTitle,
  searchFeedUrl,
  searchUrl,
  type SearchFilters,
} from '../core/search-query.ts';
import type { CompiledAd } from '../core/schemas/compiled-content.ts';
import { UnsearchableWords, type SearchIndex } from './search-index.ts';
import { Refusal } from '../core/refusal.ts';
import type { Encoding } from '../core/encoding.ts';

/** A search's feed as last made, and the index version it was made from. */
export interface SearchFeed {
  version: string;
  etag: string;
  /** The newest entry's day (ms), or undefined for a feed without entries. */
  lastModified: number | undefined;
  xml: string;
  /** The feed compressed, each encoding made when first asked for (by the route). */
  encoded: Partial<Record<Encoding, Buffer>>;
}

/** Feeds kept: readers poll the same few searches. */
const KEPT_FEEDS = 500;

/** Seconds a feed reader waits when the index is not there yet. */
const BUILDING_RETRY_SECONDS = 60;

/** The feeds of searches on `index`: each asked for by its query string's parameters. */
export function searchFeeds(index: SearchIndex, site: () => FeedSite) {
  const made = new Map<string, SearchFeed>();

  /** The feed; a query that cannot be searched, or no index yet, is refused (thrown). */
  return function searchFeedOf(params: Record<string, string>): SearchFeed {
    const query = parseSearchQuery(params);
    if (!query.ok) {
      const problems = Object.values(query.fieldErrors).join(' ');
      throw new Refusal('invalid', `This search cannot be made into a feed: ${problems}`);
    }
    const version = index.version();
    if (version === undefined)
      throw new Refusal('busy', 'Search is not available yet: the site is being built.', {
        retryAfter: BUILDING_RETRY_SECONDS,
      });
    const { values, filters } = query;
    const feedPath = searchFeedUrl(values);
    let feed = made.get(feedPath);
    made.delete(feedPath);
    if (feed?.version !== version) {
      const ads = newestAds(index, filters);
      if (!ads)
        throw new Refusal('invalid', 'These words cannot be searched for: try other words.');
      const link = searchUrl(values.q ? { ...values, sort: 'newest' } : values);
      feed = feedOf(version, searchFeedTitle(filters), feedPath, link, ads, site());
    }
    made.set(feedPath, feed);
    if (made.size > KEPT_FEEDS) made.delete(made.keys().next().value!);
    return feed;
  };
}

/** The newest ads of the search, or undefined for words the index cannot search for. */
function newestAds(index: SearchIndex, filters: SearchFilters) {
  try {
    return index.newest(filters, FEED_ENTRIES);
  } catch (error) {
    if (!(error instanceof UnsearchableWords)) throw error;
    return undefined;
  }
}

function feedOf(
  version: string,
  title: string,
  feedPath: string,
  link: string,
  ads: readonly CompiledAd[],
  where: FeedSite,
): SearchFeed {
  const entries = ads.map((ad) => adEntry(ad, where));
  const newest = entries.reduce((max, entry) => (entry.updated > max ? entry.updated : max), '');
  return {
    version,
    etag: `W/"${hash('sha1', JSON.stringify([where.brand, entries]), 'base64url')}"`,
    lastModified: newest ? Date.parse(newest) : undefined,
    xml: atomXml(searchFeed(title, feedPath, link, ads, where)),
    encoded: {},
  };
}
