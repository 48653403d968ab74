// What the search index (search.sqlite, written by write-search-index.ts) holds, read back for the
// search benchmark (bench/search.ts), which asks the server for words and places the index has:
// its words by how many ads use them (FTS5's vocabulary), and its places by how many ads are there.
import Database from 'better-sqlite3';

export interface SearchIndexVocabulary {
  /** Ads in the index. */
  ads: number;
  /** Words (stems) of four letters or more, no digits, used by `minAds` to `maxAds` ads. */
  words(options: {
    minAds: number;
    maxAds?: number;
    limit: number;
    mostUsedFirst: boolean;
  }): string[];
  /** The places with the most ads, most first. */
  places(limit: number): Array<{ state: string; city: string }>;
  close(): void;
}

export function readSearchIndexVocabulary(indexFile: string): SearchIndexVocabulary {
  const db = new Database(indexFile, { readonly: true });
  db.exec("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, ad_text, 'row')");
  const ads = (db.prepare('SELECT count(*) AS n FROM ads').get() as { n: number }).n;
  return {
    ads,
    words({ minAds, maxAds = Number.MAX_SAFE_INTEGER, limit, mostUsedFirst }) {
      // The filter tags all have a digit: text words have none.
      const rows = db
        .prepare(
          `SELECT term FROM temp.vocab WHERE term NOT GLOB '*[0-9]*' AND doc BETWEEN ? AND ?
           ${mostUsedFirst ? 'ORDER BY doc DESC' : ''} LIMIT ?`,
        )
        .all(minAds, maxAds, limit) as Array<{ term: string }>;
      return rows.map((row) => row.term).filter((term) => /^[a-z]{4,}$/.test(term));
    },
    places(limit) {
      return db
        .prepare(
          `SELECT places.state, places.city, count(*) AS n FROM ads JOIN places ON places.code = ads.place
           GROUP BY ads.place ORDER BY n DESC LIMIT ?`,
        )
        .all(limit) as Array<{ state: string; city: string }>;
    },
    close: () => db.close(),
  };
}
