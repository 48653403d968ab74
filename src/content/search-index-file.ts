// The search index the build writes beside the compiled content ({compiled content dir}/search.sqlite)
// and the server reads for /search (product.md section 9): one SQLite file, written only by
// src/build/search/write-search-index.ts (table definitions there), read by
// server/db/search-index.ts. Its ads are exactly the published ads of the compiled content
// (CompiledAd, each stored as the compiled line), so the index never holds a second copy of the
// schema. What both sides must agree on is here: the ads' keys and their filter tags.
import { join } from 'node:path';
import { AD_AGE_MAX, AD_AGE_MIN } from '../schemas/ad-limits.ts';
import type { CompiledAd } from '../schemas/compiled-content.ts';

export const searchIndexFile = (compiledDir: string) => join(compiledDir, 'search.sqlite');

/** Bumped when the tables change: an index of another version is rebuilt from scratch. */
export const SEARCH_INDEX_VERSION = 3;

const DAY_MS = 86_400_000;
/** Days after 1970 the keys count down from (the year 4840). */
const LAST_DAY = 2 ** 20;
const ID_SPAN = 2 ** 32;

/**
 * An ad's key in the index (the text index's rowid): smaller is newer. Newest first, then highest
 * id first, is ascending key order, so a search shows its newest 30 matches without looking at
 * the others, and "posted within n days" is a range of keys.
 */
export function searchKey(ad: Pick<CompiledAd, 'postedAt' | 'id'>): number {
  if (!Number.isInteger(ad.id) || ad.id < 0 || ad.id >= ID_SPAN)
    throw new Error(`Ad id ${ad.id} does not fit the search index's keys`);
  return (LAST_DAY - dayNumber(ad.postedAt)) * ID_SPAN + (ID_SPAN - 1 - ad.id);
}

/** The largest key of an ad posted on `day` (YYYY-MM-DD) or later. */
export const newestKeyFrom = (day: string): number => (LAST_DAY - dayNumber(day) + 1) * ID_SPAN - 1;

function dayNumber(day: string): number {
  const time = Date.parse(`${day.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(time)) throw new Error(`Not a day: ${day}`);
  return time / DAY_MS;
}

// The filters are words of the text index's `tags` column, so a text search and its filters are
// one lookup in the text index. States and cities are numbered by the index (its states and
// places tables); ages are tagged one by one and in fives, so an age range is a few words.
export const stateTag = (code: number) => `s${code}`;
export const placeTag = (code: number) => `c${code}`;
export const seeksTag = (seeks: string) => `k${seeks}`;
const ageTag = (age: number) => `a${age}`;
const fiveTag = (age: number) => `b${Math.floor(age / 5)}`;
const FIVE = 5;

/** The tags column of an ad. */
export function adTags(ad: Pick<CompiledAd, 'seeks' | 'age'>, state: number, place: number) {
  return [
    stateTag(state),
    placeTag(place),
    seeksTag(ad.seeks),
    ageTag(ad.age),
    fiveTag(ad.age),
  ].join(' ');
}

/**
 * The tags of which an ad between `min` and `max` (inclusive) has one: whole fives by their tag,
 * the ages at either end one by one. None when the range holds every age.
 */
export function ageRangeTags(min = AD_AGE_MIN, max = AD_AGE_MAX): string[] {
  if (min <= AD_AGE_MIN && max >= AD_AGE_MAX) return [];
  const tags: string[] = [];
  let age = min;
  while (age <= max) {
    if (age % FIVE === 0 && age + FIVE - 1 <= max) {
      tags.push(fiveTag(age));
      age += FIVE;
    } else {
      tags.push(ageTag(age));
      age += 1;
    }
  }
  return tags;
}
