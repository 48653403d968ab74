// Reads a search by distance from the search index (search-index.ts asks, in its read
// transaction): the places near the city, then one page of their matches in order of distance
// (search-index-near.ts), by one lookup of the places' cells when the filters leave few matches,
// else place by place from the nearest.
import type Database from 'better-sqlite3';
import type { SearchFilters } from '../core/search-query.ts';
import { ADS_PER_PAGE } from '../core/paths.ts';
import { tagsMatch } from './search-index-file.ts';
import {
  byDistance,
  newestOfPlaces,
  pageByDistance,
  type DistancePage,
  type PlacedMatch,
  type PlaceNear,
  type PlaceRow,
  PLACES_IN_BOX,
  placesNear,
} from './search-index-near.ts';

/** How to find the ads matching a search (searchIndex's plan). */
export interface SearchPlan {
  /** The text index when there are words or tags; else (everything, or only a date) the ads. */
  table: string;
  /** Its key column. */
  key: string;
  /** The WHERE clause, and its parameters. */
  condition: string;
  params: (string | bigint)[];
  wantsMatch: boolean;
}

/** Where a part of a search by distance looks: one place, or the places' cells. */
export type NearPlan = { place: number } | { cells: readonly number[] };

export interface IndexAccess {
  prepared(sql: string): Database.Statement;
  /** The plan of a search's part; `none` only when the index names no such place. */
  plan(filters: SearchFilters, near: NearPlan): SearchPlan | { none: unknown };
}

export function nearCityReader(
  { prepared, plan }: IndexAccess,
  { countedMax, cellMatchesMax }: { countedMax: number; cellMatchesMax: number },
) {
  /** The index's places within the search's distance, nearest first. */
  const nearPlaces = ({ near }: SearchFilters) =>
    near
      ? placesNear((...box) => prepared(PLACES_IN_BOX).all(...box) as PlaceRow[], near, near.miles)
      : [];

  /** A place's part of a search: its matches counted up to `cap`, or some of their keys. */
  function placeQueries(filters: SearchFilters) {
    const of = (place: number) => {
      const found = plan(filters, { place });
      if ('none' in found) throw new Error('A search near a city found no index');
      return found;
    };
    return {
      count(place: number, cap: number): number {
        const { table, condition, params } = of(place);
        return (
          prepared(`SELECT count(*) AS n FROM (SELECT 1 FROM ${table} ${condition} LIMIT ?)`).get(
            ...params,
            cap,
          ) as { n: number }
        ).n;
      },
      keys(place: number, limit: number, offset = 0): number[] {
        const { table, key, condition, params } = of(place);
        return (
          prepared(
            `SELECT ${key} AS key FROM ${table} ${condition} ORDER BY ${key} LIMIT ? OFFSET ?`,
          ).all(...params, limit, offset) as { key: number }[]
        ).map((row) => row.key);
      },
    };
  }

  /**
   * The matches of the places' cells, each with its place, when the filters leave at most
   * cellMatchesMax of them (in any order; some lie outside the places); undefined when there are
   * more, or no filters to narrow them.
   */
  function matchesOfCells(
    filters: SearchFilters,
    places: readonly PlaceNear[],
  ): PlacedMatch[] | undefined {
    const narrowed =
      filters.words.length > 0 ||
      filters.verified ||
      tagsMatch({ seeks: filters.seeks, minAge: filters.minAge, maxAge: filters.maxAge });
    if (!narrowed || places.length === 0 || cellMatchesMax === 0) return undefined;
    const found = plan(filters, { cells: [...new Set(places.map((place) => place.cell))] });
    if ('none' in found) return undefined;
    const { table, key, condition, params } = found;
    // Counted first: a count reads only the text index, about a tenth of the cost of a match's
    // place, so too many matches cost little before going place by place.
    const counted = (
      prepared(`SELECT count(*) AS n FROM (SELECT 1 FROM ${table} ${condition} LIMIT ?)`).get(
        ...params,
        cellMatchesMax + 1,
      ) as { n: number }
    ).n;
    if (counted > cellMatchesMax) return undefined;
    return prepared(
      `SELECT m.key AS key, ads.place AS place FROM (SELECT ${key} AS key FROM ${table} ` +
        `${condition}) AS m JOIN ads INDEXED BY ads_by_key ON ads.key = m.key`,
    ).all(...params) as PlacedMatch[];
  }

  return {
    /** One page of the search from `offset`: its keys and miles, and the matches counted. */
    page(filters: SearchFilters, offset: number): DistancePage {
      const places = nearPlaces(filters);
      const inCells = matchesOfCells(filters, places);
      // The whole list when it is within the counted limit; else place by place, which stops
      // counting (and paging) past it.
      const all = inCells && byDistance(places, inCells);
      if (all && all.length <= countedMax)
        return { counted: all.length, found: all.slice(offset, offset + ADS_PER_PAGE) };
      const { count, keys } = placeQueries(filters);
      return pageByDistance(places, count, keys, { offset, limit: ADS_PER_PAGE, countedMax });
    },

    /** The newest `limit` keys near the city, whatever their distance: a feed, a digest. */
    newest(filters: SearchFilters, limit: number): number[] {
      const places = nearPlaces(filters);
      const inCells = matchesOfCells(filters, places);
      if (!inCells) return newestOfPlaces(places, placeQueries(filters).keys, limit);
      return byDistance(places, inCells)
        .map((match) => match.key)
        .sort((a, b) => a - b)
        .slice(0, limit);
    },
  };
}
