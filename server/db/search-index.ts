// Reads the search index the build writes ({compiled content dir}/search.sqlite; written by
// src/build/search/write-search-index.ts, which defines its tables) for /search: read-only, one
// connection kept open and opened again when a build replaced the file (a full build makes a new
// one by a rename). A publish's update is one transaction, seen by the next query, whole.
import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import type { CompiledAd } from '../../src/schemas/compiled-content.ts';
import { compiledContentDir } from '../../src/content/index.ts';
import { searchIndexFile } from '../../src/content/search-index-file.ts';
import { ftsMatch, type SearchFilters } from '../../src/pages/search/searchQuery.ts';
import { ADS_PER_PAGE } from '../../src/paths.ts';

/**
 * Results are counted up to this many: counting every match of a word half the ads hold costs more
 * than the page itself, and nobody pages through more than this.
 */
export const COUNTED_RESULTS_MAX = 10_000;

export interface SearchResults {
  /** How many ads match, up to COUNTED_RESULTS_MAX. */
  total: number;
  /** More ads than COUNTED_RESULTS_MAX match. */
  more: boolean;
  /** The requested page's ads, in order. */
  ads: CompiledAd[];
}

/** Title words weigh more than description words in the best-match order. */
const BM25 = 'bm25(ad_text, 4.0, 1.0)';

export function searchIndex(fileOf: () => string = () => searchIndexFile(compiledContentDir())) {
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

  return {
    /** Whether there is an index to search (a build wrote one). */
    available: () => db() !== undefined,

    /** The publication day the index was written for (YYYY-MM-DD). */
    buildDate(): string | undefined {
      if (!db()) return undefined;
      const row = prepared("SELECT value FROM meta WHERE key = 'buildDate'").get() as
        { value: string } | undefined;
      return row?.value;
    },

    /** One page of the ads matching the filters, and how many match in all. */
    search(filters: SearchFilters): SearchResults {
      if (!db()) return { total: 0, more: false, ads: [] };
      const where: string[] = [];
      const params: (string | number)[] = [];
      const text = filters.words.length > 0;
      if (text) {
        where.push('ad_text MATCH ?');
        params.push(ftsMatch(filters.words));
      }
      if (filters.state) (where.push('ads.state = ?'), params.push(filters.state));
      if (filters.city) (where.push('ads.city = ?'), params.push(filters.city));
      if (filters.seeks) (where.push('ads.seeks = ?'), params.push(filters.seeks));
      if (filters.minAge !== undefined) (where.push('ads.age >= ?'), params.push(filters.minAge));
      if (filters.maxAge !== undefined) (where.push('ads.age <= ?'), params.push(filters.maxAge));
      if (filters.within !== undefined) {
        const since = daysBefore(this.buildDate() ?? todayUtc(), filters.within - 1);
        where.push('ads.posted_at >= ?');
        params.push(since);
      }
      // CROSS JOIN: the text index drives (a word's matches, then their filters); the other way
      // round SQLite would probe the text index once per ad of a filter, seconds at a million ads.
      const from = text ? 'ad_text CROSS JOIN ads ON ads.id = ad_text.rowid' : 'ads';
      const condition = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const order = text
        ? `${BM25}, ads.posted_at DESC, ads.id DESC`
        : 'ads.posted_at DESC, ads.id DESC';
      const counted = (
        prepared(
          `SELECT count(*) AS n FROM (SELECT 1 FROM ${from} ${condition} LIMIT ${COUNTED_RESULTS_MAX + 1})`,
        ).get(...params) as { n: number }
      ).n;
      const more = counted > COUNTED_RESULTS_MAX;
      const total = Math.min(counted, COUNTED_RESULTS_MAX);
      const ids = (
        prepared(`SELECT ads.id FROM ${from} ${condition} ORDER BY ${order} LIMIT ? OFFSET ?`).all(
          ...params,
          ADS_PER_PAGE,
          (filters.page - 1) * ADS_PER_PAGE,
        ) as { id: number }[]
      ).map((row) => row.id);
      const json = prepared('SELECT ad FROM ad_json WHERE id = ?');
      const ads = ids.map((id) => JSON.parse((json.get(id) as { ad: string }).ad) as CompiledAd);
      return { total, more, ads };
    },

    close() {
      open?.db.close();
      open = undefined;
      statements.clear();
    },
  };
}

export type SearchIndex = ReturnType<typeof searchIndex>;

const todayUtc = () => new Date().toISOString().slice(0, 10);

/** The day `days` days before `day` (YYYY-MM-DD). */
function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}
