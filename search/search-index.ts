// Reads the search index the build writes ({compiled content dir}/search.sqlite; written by
// search/write-search-index.ts, its tables defined in search-index-tables.ts) for
// /search: read-only, one connection kept open and opened again when a build replaced the file (a
// full build makes a new one by a rename). A publish's update is one transaction, seen by the next
// query, whole.
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type { CompiledAd } from '../core/schemas/compiled-content.ts';
import { compiledContentDir } from '../core/content/index.ts';
import {
  newestKeyFrom,
  searchIndexFile,
  tagsMatch,
  type TagFilters,
  VERIFIED_TAG,
} from './search-index-file.ts';
import { ftsMatch, type SearchFilters } from '../core/search-query.ts';
import { ADS_PER_PAGE } from '../core/paths.ts';
import { addDays, utcDay } from '../core/days.ts';
import { nearCityReader, type NearPlan, type SearchPlan } from './near-city-reader.ts';

/**
 * Results are counted up to this many: counting every match of a word half the ads hold costs more
 * than the page itself, and nobody pages through more than this.
 */
export const COUNTED_RESULTS_MAX = 10_000;

/**
 * A search by distance with filters reads all the matches of the near places' cells in one lookup
 * when there are at most this many, and sorts them by distance itself; with more, it goes place
 * by place from the nearest (docs/benchmarks.md, "Near + filters in one lookup").
 */
export const CELL_MATCHES_MAX = 5_000;

export interface SearchResults {
  /** How many ads match, up to the index's countedMax. */
  total: number;
  /** More ads than that match. */
  more: boolean;
  /** The requested page's ads, in order. */
  ads: CompiledAd[];
  /** The order of `ads`: by distance (then newest) in a search near a city. */
  order: 'match' | 'newest' | 'distance';
  /** In a search near a city: each ad's city's distance from it, in miles, as `ads`. */
  miles?: number[];
  /** Best match was asked for and could not be given (too many matches): newest first instead. */
  matchUnavailable: boolean;
}

/** Title words weigh more than description words in the best-match order; the tags not at all. */
const BM25 = 'bm25(ad_text, 4.0, 1.0, 0.0)';

/** FTS5 refused the words (a word its tokenizer cuts in two, which the query parser did not). */
export class UnsearchableWords extends Error {}

export interface SearchIndexOptions {
  /**
   * Results are counted up to this many (default COUNTED_RESULTS_MAX), and best match is given
   * up to this many: it ranks every match (FTS5's bm25 scores them all before it can sort), about a
   * millisecond a thousand. More matches are shown newest first, which is read in key order and
   * stops after the page.
   */
  countedMax?: number;
  /** CELL_MATCHES_MAX unless given (0: always place by place, as the tests compare). */
  cellMatchesMax?: number;
}

export function searchIndex(
  fileOf: () => string = () => searchIndexFile(compiledContentDir()),
  { countedMax = COUNTED_RESULTS_MAX, cellMatchesMax = CELL_MATCHES_MAX }: SearchIndexOptions = {},
) {
  let open: { file: string; ino: number; db: Database.Database } | undefined;
  const statements = new Map<string, Database.Statement>();

  function db(): Database.Database | undefined {
    const file = fileOf();
    let ino: number;
    try {
      ino = statSync(file).ino;
    } catch {
      open?.db.close();
      open = undefined;
      return undefined;
    }
    if (open?.file !== file || open.ino !== ino) {
      open?.db.close();
      statements.clear();
      const connection = new Database(file, { readonly: true, fileMustExist: true });
      connection.pragma('busy_timeout = 5000');
      open = { file, ino, db: connection };
    }
    return open.db;
  }

  function prepared(sql: string): Database.Statement {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db()!.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  }

  const code = (sql: string, ...params: string[]) =>
    (prepared(sql).get(...params) as { code: number } | undefined)?.code;

  /** The compiled ads of these keys, in this order. */
  const adsOfKeys = (keys: readonly number[]) =>
    keys.map(
      (key) =>
        JSON.parse(
          (prepared('SELECT ad FROM ads WHERE key = ?').get(key) as { ad: string }).ad,
        ) as CompiledAd,
    );

  /**
   * How to find the ads matching the filters (SearchPlan); `none` when the filters name a place
   * the index has no ads in.
   */
  function plan(filters: SearchFilters, near?: NearPlan): { none: SearchResults } | SearchPlan {
    const text = filters.words.length > 0;
    const wantsMatch = text && filters.sort !== 'newest';
    const none = {
      total: 0,
      more: false,
      ads: [],
      matchUnavailable: false,
      order: wantsMatch ? ('match' as const) : ('newest' as const),
    };
    if (!db()) return { none: { ...none, order: 'newest' } };
    // The filters are words of the tags column (search/search-index-file.ts).
    const tagFilters: TagFilters = {
      seeks: filters.seeks,
      minAge: filters.minAge,
      maxAge: filters.maxAge,
    };
    if (near && 'place' in near) {
      tagFilters.place = near.place;
    } else if (near) {
      tagFilters.cells = near.cells;
    } else if (filters.city) {
      tagFilters.place = code(
        'SELECT code FROM places WHERE state = ? AND city = ?',
        filters.state ?? '',
        filters.city,
      );
      if (tagFilters.place === undefined) return { none };
    } else if (filters.state) {
      tagFilters.state = code('SELECT code FROM states WHERE state = ?', filters.state);
      if (tagFilters.state === undefined) return { none };
    }
    const terms: string[] = [];
    if (text) terms.push(`{title description} : (${ftsMatch(filters.words)})`);
    const tags = tagsMatch(tagFilters);
    if (tags) terms.push(tags);
    if (filters.verified) terms.push(`tags : "${VERIFIED_TAG}"`);
    const params: (string | bigint)[] = [];
    const where: string[] = [];
    const table = terms.length > 0 ? 'ad_text' : 'ads';
    const key = terms.length > 0 ? 'rowid' : 'key';
    if (terms.length > 0) (where.push('ad_text MATCH ?'), params.push(terms.join(' AND ')));
    if (filters.within !== undefined) {
      const since = addDays(buildDate() ?? utcDay(), -(filters.within - 1));
      where.push(`${key} <= ?`);
      // A BigInt: bound as a number (a double), FTS5 would test every match against it
      // instead of stopping at it.
      params.push(BigInt(newestKeyFrom(since)));
    }
    const condition = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    return { table, key, condition, params, wantsMatch };
  }

  function buildDate(): string | undefined {
    if (!db()) return undefined;
    const row = prepared("SELECT value FROM meta WHERE key = 'buildDate'").get() as
      { value: string } | undefined;
    return row?.value;
  }

  const near = nearCityReader({ prepared, plan }, { countedMax, cellMatchesMax });

  /** Ads in cities near one, nearest city first, each city's newest first. */
  function searchNear(filters: SearchFilters): SearchResults {
    const empty: SearchResults = {
      total: 0,
      more: false,
      ads: [],
      order: 'distance',
      miles: [],
      matchUnavailable: false,
    };
    if (!db()) return empty;
    try {
      return db()!.transaction(() => {
        const { counted, found } = near.page(filters, (filters.page - 1) * ADS_PER_PAGE);
        return {
          ...empty,
          total: Math.min(counted, countedMax),
          more: counted > countedMax,
          ads: adsOfKeys(found.map((ad) => ad.key)),
          miles: found.map((ad) => ad.miles),
        };
      })();
    } catch (error) {
      throw unsearchable(error);
    }
  }

  /** The newest ads in cities near one, whatever their distance: a feed, a digest. */
  function newestNear(filters: SearchFilters, limit: number): CompiledAd[] {
    if (!db()) return [];
    try {
      return db()!.transaction(() => adsOfKeys(near.newest(filters, limit)))();
    } catch (error) {
      throw unsearchable(error);
    }
  }

  const unsearchable = (error: unknown) =>
    error instanceof Database.SqliteError && error.message.startsWith('fts5:')
      ? new UnsearchableWords(error.message)
      : error;

  return {
    countedMax,

    /** Whether there is an index to search (a build wrote one). */
    available: () => db() !== undefined,

    /**
     * What the index is now, to know whether an answer made from it still holds: the file (a full
     * build renames a new one over it) and SQLite's count of the changes other connections (a
     * publish) committed to it. Undefined when there is no index.
     */
    version(): string | undefined {
      const connection = db();
      if (!connection) return undefined;
      return `${open!.ino}:${connection.pragma('data_version', { simple: true }) as number}`;
    },

    /** The publication day the index was written for (YYYY-MM-DD). */
    buildDate,

    /**
     * One page of the ads matching the filters, and how many match in all. Throws
     * UnsearchableWords when FTS5 refuses the words.
     */
    search(filters: SearchFilters): SearchResults {
      if (filters.near) return searchNear(filters);
      const found = plan(filters);
      if ('none' in found) return found.none;
      const { table, key, condition, params, wantsMatch } = found;
      try {
        // One read transaction: the count, the page's keys and their ads from the same index,
        // though a publish may commit between two statements.
        return db()!.transaction(() => {
          const counted = (
            prepared(
              `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} ${condition} LIMIT ${countedMax + 1})`,
            ).get(...params) as { n: number }
          ).n;
          const more = counted > countedMax;
          const total = Math.min(counted, countedMax);
          const match = wantsMatch && !more;
          // Ascending key is newest first; best match breaks its ties the same way.
          const order = match ? `${BM25}, rowid` : key;
          const keys = (
            prepared(
              `SELECT ${key} AS key FROM ${table} ${condition} ORDER BY ${order} LIMIT ? OFFSET ?`,
            ).all(...params, ADS_PER_PAGE, (filters.page - 1) * ADS_PER_PAGE) as { key: number }[]
          ).map((row) => row.key);
          return {
            total,
            more,
            ads: adsOfKeys(keys),
            order: match ? ('match' as const) : ('newest' as const),
            matchUnavailable: wantsMatch && !match,
          };
        })();
      } catch (error) {
        throw unsearchable(error);
      }
    },

    /**
     * The newest `limit` ads matching the filters (whatever their sort and page), without counting
     * them: a search's feed. Throws UnsearchableWords when FTS5 refuses the words.
     */
    newest(filters: SearchFilters, limit: number): CompiledAd[] {
      if (filters.near) return newestNear(filters, limit);
      const found = plan(filters);
      if ('none' in found) return [];
      const { table, key, condition, params } = found;
      try {
        return db()!.transaction(() => {
          const keys = (
            prepared(`SELECT ${key} AS key FROM ${table} ${condition} ORDER BY ${key} LIMIT ?`).all(
              ...params,
              limit,
            ) as { key: number }[]
          ).map((row) => row.key);
          return adsOfKeys(keys);
        })();
      } catch (error) {
        throw unsearchable(error);
      }
    },

    close() {
      open?.db.close();
      open = undefined;
      statements.clear();
    },
  };
}

export type SearchIndex = ReturnType<typeof searchIndex>;
