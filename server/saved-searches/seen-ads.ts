// Which of a saved search's matching ads are new to it (docs/product.md section 11). The search
// index orders ads by posting day, then id; an ad's day is the day it was approved, but its id was
// given when it was written, so an ad approved this afternoon may have a lower id than one
// approved this morning. A saved search therefore remembers the newest day it has seen and the ids
// of that day's ads it has seen (store.savedSearches, `SeenAds`), taken from the same newest-first
// list the digest reads.
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import type { SeenAds } from '../../store/parts/saved-searches.ts';

/** Ads a digest reads (the newest matching) and lists at most. */
export const DIGEST_ADS_MAX = 30;

type Listed = Pick<CompiledAd, 'postedAt' | 'id'>;

const dayOf = (ad: Listed) => ad.postedAt.slice(0, 10);

/**
 * What a saved search has seen once it has seen `newest` (the index's newest matching ads, newest
 * first, at most DIGEST_ADS_MAX): their newest day, and the ids of that day's among them.
 */
export function seenOf(newest: readonly Listed[]): SeenAds | null {
  const first = newest[0];
  if (!first) return null;
  const day = dayOf(first);
  return { day, ids: newest.filter((ad) => dayOf(ad) === day).map((ad) => ad.id) };
}

/**
 * The ads of `newest` a saved search that has `seen` has not seen, in the same order. When the
 * seen day's list filled the whole read (DIGEST_ADS_MAX ads of one day), ads of that day below its
 * lowest id were beyond what was read, and count as seen: the digest lists the newest only.
 */
export function newSince<T extends Listed>(newest: readonly T[], seen: SeenAds | null): T[] {
  if (!seen) return [...newest];
  const ids = new Set(seen.ids);
  const full = seen.ids.length >= DIGEST_ADS_MAX;
  const lowest = Math.min(...seen.ids);
  return newest.filter((ad) => {
    const day = dayOf(ad);
    if (day !== seen.day) return day > seen.day;
    return !ids.has(ad.id) && !(full && ad.id < lowest);
  });
}
