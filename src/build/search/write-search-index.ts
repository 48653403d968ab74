// Writes the search index ({compiled content dir}/search.sqlite, src/content/search-index-file.ts)
// from the compiled ads, after each compile: the build, and so every publish, keeps it current, and
// an ad that left the site (removed, expired) leaves the index in the same step.
//
// Incremental: .content/ads/index.json holds a digest of each city's lines; a city whose digest is
// the one indexed is not read; in a changed city, only the ads whose line changed are written again
// and the ads no longer there deleted; a city gone is deleted. All of it in one transaction, so the
// server sees the index before or after, never half-written. Ads are streamed from the state files a chunk at a time and
// inserted through prepared statements (SQLite spills a big transaction to disk): memory stays flat
// however many ads there are (the content step runs with a capped heap).
//
// Tables:
// - ads: the filter columns (state, city, seeks, age, posted_at), narrow so filters scan fast;
// - ad_json: the compiled ad itself, as the state file has it (the page renders it as is);
// - ad_text: FTS5 over title and description (porter stemming over unicode61, diacritics removed),
//   contentless (the text is in ad_json) with deletes, rowid = the ad's id;
// - indexed_cities: the digest each city was indexed at; meta: the version and build date.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { CompiledAd } from '../../schemas/compiled-content.ts';
import { SEARCH_INDEX_VERSION, searchIndexFile } from '../../content/search-index-file.ts';
import { stateAdsFile } from '../../content/index.ts';
import { readAdsIndex } from '../compile/state-ad-files.ts';

export interface SearchIndexUpdate {
  /** Cities whose ads were (re)indexed or removed. */
  citiesChanged: number;
  /** Ads written (inserted) in this update. */
  adsWritten: number;
  milliseconds: number;
}

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE indexed_cities (
    state TEXT NOT NULL, city TEXT NOT NULL, digest TEXT NOT NULL, PRIMARY KEY (state, city)
  ) WITHOUT ROWID;
  CREATE TABLE ads (
    id INTEGER PRIMARY KEY,
    state TEXT NOT NULL,
    city TEXT NOT NULL,
    seeks TEXT NOT NULL,
    age INTEGER NOT NULL,
    posted_at TEXT NOT NULL
  );
  CREATE INDEX ads_newest ON ads (posted_at DESC, id DESC);
  CREATE INDEX ads_by_city ON ads (state, city, seeks, age, posted_at);
  CREATE INDEX ads_by_state ON ads (state, seeks, age, posted_at);
  CREATE INDEX ads_by_seeks ON ads (seeks, age, posted_at);
  CREATE INDEX ads_by_age ON ads (age, posted_at);
  CREATE TABLE ad_json (id INTEGER PRIMARY KEY, ad TEXT NOT NULL);
  CREATE VIRTUAL TABLE ad_text USING fts5 (
    title, description,
    content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
`;

/** Bytes of a state file read at a time. */
const CHUNK_BYTES = 1 << 20;

/**
 * Brings the index of `compiledDir` up to date with its compiled ads (written just before by
 * compileToDisk). `full`: rebuilt from nothing.
 */
export function writeSearchIndex(
  compiledDir: string,
  buildDate: string,
  { full = false }: { full?: boolean } = {},
): SearchIndexUpdate {
  const started = performance.now();
  const file = searchIndexFile(compiledDir);
  // No index yet (or of another version, or `full`): made from nothing beside the one served,
  // without a journal, then put in its place by a rename: the server reads the old one until then.
  const existing = full ? undefined : openExisting(file);
  const fresh = existing === undefined;
  const target = fresh ? `${file}.next` : file;
  const db = existing ?? createIndex(target);
  let done = false;
  let citiesChanged = 0;
  let adsWritten = 0;
  try {
    const adsIndex = readAdsIndex(compiledDir);
    const indexed = new Map(
      db
        .prepare<[], { state: string; city: string; digest: string }>(
          'SELECT state, city, digest FROM indexed_cities',
        )
        .all()
        .map((row) => [`${row.state}\u0000${row.city}`, row]),
    );
    const statements = {
      storedAd: db.prepare<[number], { ad: string }>('SELECT ad FROM ad_json WHERE id = ?'),
      cityIds: db.prepare<[string, string], { id: number }>(
        'SELECT id FROM ads WHERE state = ? AND city = ?',
      ),
      deleteAd: db.prepare<[number]>('DELETE FROM ads WHERE id = ?'),
      deleteJson: db.prepare<[number]>('DELETE FROM ad_json WHERE id = ?'),
      deleteText: db.prepare<[number]>('DELETE FROM ad_text WHERE rowid = ?'),
      insertAd: db.prepare<[number, string, string, string, number, string]>(
        'INSERT INTO ads (id, state, city, seeks, age, posted_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insertJson: db.prepare<[number, string]>('INSERT INTO ad_json (id, ad) VALUES (?, ?)'),
      insertText: db.prepare<[number, string, string]>(
        'INSERT INTO ad_text (rowid, title, description) VALUES (?, ?, ?)',
      ),
      setDigest: db.prepare<[string, string, string]>(
        'INSERT OR REPLACE INTO indexed_cities (state, city, digest) VALUES (?, ?, ?)',
      ),
      forgetCity: db.prepare<[string, string]>(
        'DELETE FROM indexed_cities WHERE state = ? AND city = ?',
      ),
      setMeta: db.prepare<[string, string]>(
        'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)',
      ),
    };

    const removeAd = (id: number) => {
      statements.deleteAd.run(id);
      statements.deleteJson.run(id);
      statements.deleteText.run(id);
    };
    // Ids first: deleting while iterating the same table is not allowed.
    const cityIds = (state: string, city: string) =>
      new Set(statements.cityIds.all(state, city).map((row) => row.id));
    const removeCity = (state: string, city: string) => {
      for (const id of cityIds(state, city)) removeAd(id);
    };

    db.transaction(() => {
      const seen = new Set<string>();
      for (const [state, { cities }] of Object.entries(adsIndex)) {
        for (const [city, entry] of Object.entries(cities)) {
          const key = `${state}\u0000${city}`;
          seen.add(key);
          if (indexed.get(key)?.digest === entry.digest) continue;
          citiesChanged += 1;
          // Ad by ad: an ad whose line is the one stored stays as it is (one approval in a city of
          // 15,000 ads writes one ad); a changed one is replaced; the city's others are deleted.
          const left = indexed.has(key) ? cityIds(state, city) : new Set<number>();
          forEachLine(stateAdsFile(state, compiledDir), entry.offset, entry.bytes, (line) => {
            const id = idOfLine(line);
            left.delete(id);
            const stored = statements.storedAd.get(id);
            if (stored?.ad === line) return;
            if (stored) removeAd(id);
            const ad = JSON.parse(line) as CompiledAd;
            statements.insertAd.run(ad.id, ad.state, ad.city, ad.seeks, ad.age, ad.postedAt);
            statements.insertJson.run(ad.id, line);
            statements.insertText.run(ad.id, ad.title, ad.description);
            adsWritten += 1;
          });
          for (const id of left) removeAd(id);
          statements.setDigest.run(state, city, entry.digest);
        }
      }
      for (const [key, { state, city }] of indexed) {
        if (seen.has(key)) continue;
        citiesChanged += 1;
        removeCity(state, city);
        statements.forgetCity.run(state, city);
      }
      statements.setMeta.run('buildDate', buildDate);
    })();
    if (fresh) {
      db.exec("INSERT INTO ad_text (ad_text) VALUES ('optimize')");
      // The query planner's statistics: which of the filter indexes narrows a search most.
      db.exec('PRAGMA analysis_limit = 1000; ANALYZE');
      db.pragma('journal_mode = DELETE');
    }
    done = true;
  } finally {
    db.close();
    if (fresh && !done) removeIndex(target);
  }
  if (fresh) {
    renameSync(target, file);
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
  }
  return { citiesChanged, adsWritten, milliseconds: performance.now() - started };
}

/** The index at `file`, when there is one of this version; in rollback-journal mode (no WAL file). */
function openExisting(file: string): Database.Database | undefined {
  if (!existsSync(file)) return undefined;
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  if (db.pragma('user_version', { simple: true }) !== SEARCH_INDEX_VERSION) {
    db.close();
    return undefined;
  }
  db.pragma('synchronous = NORMAL');
  return db;
}

/** A new, empty index at `file` (a previous one there removed), written without a journal. */
function createIndex(file: string): Database.Database {
  removeIndex(file);
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(SCHEMA);
  db.pragma(`user_version = ${SEARCH_INDEX_VERSION}`);
  return db;
}

function removeIndex(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal'])
    rmSync(`${file}${suffix}`, { force: true });
}

/** An ad's id from its line: the compiler writes it first (`{"id":1297,...`). */
function idOfLine(line: string): number {
  const match = /^\{"id":(\d+)[,}]/.exec(line);
  return match ? Number(match[1]) : (JSON.parse(line) as CompiledAd).id;
}

/** Calls `each` with every line of `bytes` bytes of `file` from `offset`, a chunk at a time. */
function forEachLine(file: string, offset: number, bytes: number, each: (line: string) => void) {
  if (!existsSync(file)) throw new Error(`The compiled ads file ${file} is missing (a bug)`);
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, bytes));
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let position = offset;
    const end = offset + bytes;
    while (position < end) {
      const read = readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
      if (read === 0) break;
      position += read;
      const text = rest + decoder.write(buffer.subarray(0, read));
      const lines = text.split('\n');
      rest = lines.pop()!;
      for (const line of lines) if (line) each(line);
    }
    rest += decoder.end();
    if (rest) each(rest);
  } finally {
    closeSync(fd);
  }
}
