// What a feed of ads says (docs/product.md section 11): for each ad, what its page shows and
// nothing more: its title, the start of its description as plain text, its permanent URL, its
// posting day and its city (and "Sample ad" where the page shows that badge). City feeds are
// written by the build (pipeline/prerender/), search feeds by the server
// (search/search-feeds.ts).
import { ADS_PER_PAGE, adPath, cityFeedPath, cityPath } from '../paths.ts';
import type { CompiledAd } from '../schemas/compiled-content.ts';
import { EMPTY_FEED_UPDATED, type AtomEntry, type AtomFeed } from './atom.ts';

/** Entries in a feed: a city page's first page of ads, a search's first page of results. */
export const FEED_ENTRIES = ADS_PER_PAGE;

/** Characters of an ad's description in its entry's summary (then cut back to a whole word). */
export const SUMMARY_MAX = 300;

/** The site a feed belongs to: its name and address (no trailing slash). */
export interface FeedSite {
  brand: string;
  baseUrl: string;
}

/**
 * The first `max` characters of a text, on one line, cut at the end of a word with "…" when
 * there was more.
 */
export function summaryOf(text: string, max = SUMMARY_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // Leave room for the ellipsis; never cut inside a surrogate pair.
  let cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  if (space > max / 2) cut = cut.slice(0, space);
  else if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.replace(/[\s.,;:!?-]+$/, '')}…`;
}

/** A posting day (YYYY-MM-DD) as an Atom date: the start of that day, UTC. */
export const dayStart = (day: string) => `${day}T00:00:00Z`;

export function adEntry(ad: CompiledAd, site: FeedSite): AtomEntry {
  const posted = dayStart(ad.postedAt);
  const summary = summaryOf(ad.description);
  return {
    url: `${site.baseUrl}${adPath(ad.state, ad.city, ad.id)}`,
    title: ad.title,
    published: posted,
    updated: posted,
    summary: ad.sample ? `Sample ad. ${summary}` : summary,
    category: `${ad.city}, ${ad.state}`,
  };
}

/** The newest posting day among the ads, or the fixed date of an empty feed. */
export function feedUpdated(ads: readonly Pick<CompiledAd, 'postedAt'>[]): string {
  let newest = '';
  for (const ad of ads) if (ad.postedAt > newest) newest = ad.postedAt;
  return newest ? dayStart(newest) : EMPTY_FEED_UPDATED;
}

/** A city's feed: its page's first ads (`ads`), in the page's order. */
export function cityFeed(
  state: string,
  city: string,
  ads: readonly CompiledAd[],
  site: FeedSite,
): AtomFeed {
  return {
    selfUrl: `${site.baseUrl}${cityFeedPath(state, city)}`,
    alternateUrl: `${site.baseUrl}${cityPath(state, city)}`,
    title: `New ads in ${city}, ${state} - ${site.brand}`,
    updated: feedUpdated(ads),
    author: { name: site.brand, uri: `${site.baseUrl}/` },
    entries: ads.map((ad) => adEntry(ad, site)),
  };
}

/** The title of a city's feed as its page announces it. */
export const cityFeedTitle = (city: string) => `New ads in ${city}`;

/** A search's feed: its newest ads. `feedPath` and `pagePath` are the feed's and the search's paths with their query. */
export function searchFeed(
  title: string,
  feedPath: string,
  pagePath: string,
  ads: readonly CompiledAd[],
  site: FeedSite,
): AtomFeed {
  return {
    selfUrl: `${site.baseUrl}${feedPath}`,
    alternateUrl: `${site.baseUrl}${pagePath}`,
    title: `${title} - ${site.brand}`,
    updated: feedUpdated(ads),
    author: { name: site.brand, uri: `${site.baseUrl}/` },
    entries: ads.map((ad) => adEntry(ad, site)),
  };
}
