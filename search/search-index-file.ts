// The search index the build writes beside the compiled content ({compiled content dir}/search.sqlite)
// and the server reads for /search (docs/product.md section 9): one SQLite file, written only by
// search/write-search-index.ts (table definitions in search-index-tables.ts), read by
// search/search-index.ts. Its ads are exactly the published ads of the compiled content
// (CompiledAd, each stored as the compiled line), so the index never holds a second copy of the
// schema. What both sides must agree on is here: the ads' keys and their filter tags.
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { AD_AGE_MAX, AD_AGE_MIN } from '../core/schemas/ad-limits.ts';
import type { CompiledAd } from '../core/schemas/compiled-content.ts';
import { DAY_MS } from '../core/days.ts';
import type { Coordinates } from '../core/geo/great-circle.ts';

export const searchIndexFile = (compiledDir: string) => join(compiledDir, 'search.sqlite');

/** Bumped when the tables change: an index of another version is rebuilt from scratch. */
export const SEARCH_INDEX_VERSION = 7;

/**
 * Whether `file` is an index of this version, read from the SQLite file's header (its user version,
 * 4 bytes big-endian at offset 60: sqlite.org/fileformat.html) without opening it: an update
 * opens only such a file (search-index-tables.ts), and the pages step's main thread, which never
 * loads SQLite, asks it too (pipeline/prerender/prerender-pages-step.ts).
 */
export function isSearchIndexOfThisVersion(file: string): boolean {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch {
    return false;
  }
  try {
    const header = Buffer.alloc(64);
    return (
      readSync(descriptor, header, 0, 64, 0) === 64 &&
      header.toString('latin1', 0, 16) === 'SQLite format 3\u0000' &&
      header.readUInt32BE(60) === SEARCH_INDEX_VERSION
    );
  } finally {
    closeSync(descriptor);
  }
}

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
// one lookup in the text index, and a search's filters are one word (or a few, for an age range)
// rather than one a filter: FTS5 would otherwise walk the long lists of every ad of a state, of a
// seeks, of an age, and rank them too. Each ad has a word for each combination of its place
// (none, its state, its city, its cell), what it seeks (or not) and its age (none, the age, its
// five years): 23 words. States and cities are numbered by the index (its states and places
// tables).
const placeParts = (state: number, place: number, cell: number) => [
  '',
  `s${state}`,
  `c${place}`,
  `g${cell}`,
];
const ageParts = (age: number) => ['', `a${age}`, `b${Math.floor(age / FIVE)}`];
const FIVE = 5;

/**
 * The cell of a place's ads: a square of whole degrees of latitude and longitude (about 69 by 53
 * miles in the middle of the country). A search by distance with filters asks for the cells of the
 * places near a city in one lookup (search-index.ts) instead of one a place. A place keeps the
 * cell it was first indexed with (the places table): it names a group of places, and a city an
 * editor moves stays in its group.
 */
export const cellOf = ({ latitude, longitude }: Coordinates): number =>
  Math.floor(latitude + 90) * 360 + Math.floor(longitude + 180);

/**
 * The word of an ad whose member is verified (docs/product.md section 6): one more word of its
 * tags, searched beside the others ("verified members only").
 */
export const VERIFIED_TAG = 'v1';

/** The tags column of an ad. */
export function adTags(
  ad: Pick<CompiledAd, 'seeks' | 'age' | 'verification'>,
  state: number,
  place: number,
  cell: number,
) {
  const tags: string[] = [];
  for (const where of placeParts(state, place, cell))
    for (const seeks of ['', `k${ad.seeks}`])
      for (const age of ageParts(ad.age)) if (where || seeks || age) tags.push(seeks + age + where);
  if (ad.verification) tags.push(VERIFIED_TAG);
  return tags.join(' ');
}

export interface TagFilters {
  /** The state's number in the index, when no city is given. */
  state?: number;
  /** The city's number in the index. */
  place?: number;
  /** Cells (cellOf, at least one), any of them, when no city or state is given: near a city. */
  cells?: readonly number[];
  seeks?: string;
  minAge?: number;
  maxAge?: number;
}

/** The FTS5 expression over the tags column for these filters; undefined when there are none. */
export function tagsMatch({
  state,
  place,
  cells,
  seeks,
  minAge,
  maxAge,
}: TagFilters): string | undefined {
  const wheres =
    place !== undefined
      ? [`c${place}`]
      : cells
        ? cells.map((cell) => `g${cell}`)
        : [state !== undefined ? `s${state}` : ''];
  const who = seeks ? `k${seeks}` : '';
  const ages = ageRangeParts(minAge, maxAge);
  const tags = wheres.flatMap((where) =>
    ages.length > 0 ? ages.map((age) => who + age + where) : [who + where],
  );
  if (tags[0] === '') return undefined;
  return `tags : (${tags.map((tag) => `"${tag}"`).join(' OR ')})`;
}

/**
 * The age parts of which an ad between `min` and `max` (inclusive) has one: whole fives, and the
 * ages at either end one by one. None when the range holds every age.
 */
export function ageRangeParts(min = AD_AGE_MIN, max = AD_AGE_MAX): string[] {
  if (min <= AD_AGE_MIN && max >= AD_AGE_MAX) return [];
  const parts: string[] = [];
  let age = min;
  while (age <= max) {
    if (age % FIVE === 0 && age + FIVE - 1 <= max) {
      parts.push(ageParts(age)[2]!);
      age += FIVE;
    } else {
      parts.push(ageParts(age)[1]!);
      age += 1;
    }
  }
  return parts;
}
