// Search by distance in the search index (docs/product.md section 9): the places (cities with
// ads) near a city, found by a range of latitudes and longitudes on the places table
// (places_by_latitude) and then by their exact great-circle distance, and one page of their ads
// in order of distance, then newest first. Two ways to the same page: place by place from the
// nearest (a page reads the ads of the places it shows and counts those of the others, up to the
// counted limit), or, when filters leave few matches, all the matches of the places' cells in one
// lookup, sorted here (search-index.ts chooses).
// Longitudes are not wrapped at the 180th meridian: a search near the western Aleutians misses
// places across it.
import { boundingBox, milesBetween, type Coordinates } from '../core/geo/great-circle.ts';

export interface PlaceNear {
  /** The place's number in the index. */
  code: number;
  /** The cell its ads are tagged with (search-index-file.ts). */
  cell: number;
  miles: number;
}

export interface PlaceRow extends Coordinates {
  code: number;
  cell: number;
}

export const PLACES_IN_BOX =
  'SELECT code, cell, latitude, longitude FROM places ' +
  'WHERE latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?';

/** The places within `miles` of `center` (rows of PLACES_IN_BOX), nearest first. */
export function placesNear(
  inBox: (south: number, north: number, west: number, east: number) => PlaceRow[],
  center: Coordinates,
  miles: number,
): PlaceNear[] {
  const box = boundingBox(center, miles);
  return inBox(box.south, box.north, box.west, box.east)
    .map((row) => ({ code: row.code, cell: row.cell, miles: milesBetween(center, row) }))
    .filter((place) => place.miles <= miles)
    .sort((a, b) => a.miles - b.miles || a.code - b.code);
}

export interface DistancePage {
  /** Matches counted, up to `countedMax + 1` (more than countedMax: the count stopped). */
  counted: number;
  /** The page's ads' keys, each with its place's distance. */
  found: Array<{ key: number; miles: number }>;
}

/**
 * One page (`offset`, `limit`) of the matches of the places, nearest place first, each place's
 * newest first: `count(place, cap)` counts a place's matches up to `cap`, `keys(place, limit,
 * offset)` reads some of them in key order.
 */
export function pageByDistance(
  places: readonly PlaceNear[],
  count: (place: number, cap: number) => number,
  keys: (place: number, limit: number, offset: number) => number[],
  { offset, limit, countedMax }: { offset: number; limit: number; countedMax: number },
): DistancePage {
  let counted = 0;
  const found: DistancePage['found'] = [];
  for (const place of places) {
    if (counted > countedMax) break;
    const matches = count(place.code, countedMax + 1 - counted);
    const start = offset + found.length - counted;
    if (found.length < limit && start >= 0 && start < matches)
      for (const key of keys(place.code, limit - found.length, start))
        found.push({ key, miles: place.miles });
    counted += matches;
  }
  return { counted, found };
}

/** An ad matching a search, and its place. */
export interface PlacedMatch {
  key: number;
  place: number;
}

/**
 * The matches of some places' cells that lie in the places, in the order of pageByDistance
 * (nearest place first, its newest first): what one lookup by cells found, to be paged or cut.
 */
export function byDistance(
  places: readonly PlaceNear[],
  matches: readonly PlacedMatch[],
): Array<{ key: number; miles: number }> {
  const rank = new Map(places.map((place, index) => [place.code, index]));
  return matches
    .filter((match) => rank.has(match.place))
    .sort((a, b) => rank.get(a.place)! - rank.get(b.place)! || a.key - b.key)
    .map((match) => ({ key: match.key, miles: places[rank.get(match.place)!]!.miles }));
}

/** The newest `limit` keys of the places together (a feed, a digest), merged from each one's. */
export function newestOfPlaces(
  places: readonly PlaceNear[],
  keys: (place: number, limit: number) => number[],
  limit: number,
): number[] {
  const all: number[] = [];
  for (const place of places) all.push(...keys(place.code, limit));
  return all.sort((a, b) => a - b).slice(0, limit);
}
