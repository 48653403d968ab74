// The search index's tables ({compiled content dir}/search.sqlite, search/search-index-file.ts)
// and the statements that write them, for write-search-index.ts; search/search-index.ts reads
// them.
//
// Tables:
// - ads: each ad's compiled line, by its key (newest first is ascending key order), with its city's
//   number and a digest of the line (an update compares digests, not lines);
// - ad_text: FTS5 over title and description, plus the filters as words in a `tags` column (one
//   for each combination of place, seeks and age: search-index-file.ts), so a search with words
//   and filters is one lookup;
//   rowid = the ad's key; contentless (the text is in ads) with deletes. Word positions are kept
//   (detail=full) though no search looks for phrases: FTS5's bm25 scores nothing without them
//   (detail=column would save about a tenth of the index, and best match with it). The tokenizer
//   keeps marks inside words, as the query's words do (core/search-query.ts).
// - states, places: the numbers of the states and cities in the tags, the pieces each state's ads
//   file was made of and the digest of the lines each city was indexed at; each place's
//   coordinates (a search by distance finds the places near a city by latitude, then by the exact
//   distance: search-index-near.ts) and the cell its ads are tagged with (cellOf, kept when an
//   editor moves the city); meta: the build date.
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import type { Coordinates } from '../core/geo/great-circle.ts';
import type { CompiledAd } from '../core/schemas/compiled-content.ts';
import {
  adTags,
  cellOf,
  isSearchIndexOfThisVersion,
  SEARCH_INDEX_VERSION,
  searchKey,
} from './search-index-file.ts';

const TOKENIZER = `porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'`;

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE states (code INTEGER PRIMARY KEY, state TEXT NOT NULL UNIQUE, pieces TEXT);
  CREATE TABLE places (
    code INTEGER PRIMARY KEY,
    state TEXT NOT NULL,
    city TEXT NOT NULL,
    digest TEXT NOT NULL,
    latitude REAL NOT NULL,
    longitude REAL NOT NULL,
    cell INTEGER NOT NULL,
    UNIQUE (state, city)
  );
  CREATE INDEX places_by_latitude ON places (latitude, longitude, code);
  CREATE TABLE ads (
    key INTEGER PRIMARY KEY,
    id INTEGER NOT NULL,
    place INTEGER NOT NULL,
    digest INTEGER NOT NULL,
    ad TEXT NOT NULL
  );
  CREATE VIRTUAL TABLE ad_text USING fts5 (
    title, description, tags,
    content = '', contentless_delete = 1,
    tokenize = "${TOKENIZER}"
  );
`;
/** Made after the ads are in (one sort instead of a million inserts in the middle). */
export const ADS_BY_PLACE = 'CREATE INDEX ads_by_place ON ads (place, id, digest)';
/**
 * The place of each key, without reading the ads' lines: a search by distance reads thousands
 * (search-index.ts, matchesOfCells), five times faster here than from the table's own rows.
 */
export const ADS_BY_KEY = 'CREATE INDEX ads_by_key ON ads (key, place)';

/** The statements that write ads, states, places and meta. */
export function indexWriter(db: Database.Database) {
  const statements = {
    stateCode: db.prepare<[string], { code: number }>('SELECT code FROM states WHERE state = ?'),
    insertState: db.prepare<[string]>('INSERT INTO states (state) VALUES (?)'),
    insertPlace: db.prepare<[string, string, string, number, number, number]>(
      'INSERT INTO places (state, city, digest, latitude, longitude, cell) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    cellOfPlace: db.prepare<[number], { cell: number }>('SELECT cell FROM places WHERE code = ?'),
    placeOfKey: db.prepare<[number], { place: number }>('SELECT place FROM ads WHERE key = ?'),
    insertAd: db.prepare<[number, number, number, number, string]>(
      'INSERT INTO ads (key, id, place, digest, ad) VALUES (?, ?, ?, ?, ?)',
    ),
    insertText: db.prepare<[number, string, string, string]>(
      'INSERT INTO ad_text (rowid, title, description, tags) VALUES (?, ?, ?, ?)',
    ),
    deleteAd: db.prepare<[number, number]>('DELETE FROM ads WHERE key = ? AND place = ?'),
    deleteText: db.prepare<[number]>('DELETE FROM ad_text WHERE rowid = ?'),
    setMeta: db.prepare<[string, string]>('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
  };
  const cells = new Map<number, number>();
  const cellOfPlace = (place: number) => {
    let cell = cells.get(place);
    if (cell === undefined) {
      cell = statements.cellOfPlace.get(place)!.cell;
      cells.set(place, cell);
    }
    return cell;
  };
  const remove = (key: number, place: number) => {
    if (statements.deleteAd.run(key, place).changes > 0) statements.deleteText.run(key);
  };
  return {
    state(name: string): number {
      const row = statements.stateCode.get(name);
      return row ? row.code : Number(statements.insertState.run(name).lastInsertRowid);
    },
    newPlace(state: string, city: string, digest: string, at: Coordinates): number {
      const cell = cellOf(at);
      const { lastInsertRowid } = statements.insertPlace.run(
        state,
        city,
        digest,
        at.latitude,
        at.longitude,
        cell,
      );
      // A code SQLite gives again (the largest one removed earlier in this update) gets its cell.
      cells.set(Number(lastInsertRowid), cell);
      return Number(lastInsertRowid);
    },
    /**
     * Writes the ad of `line`. An ad that moved from another city leaves that one first (not in
     * an index made from nothing: each ad comes once).
     */
    ad(line: string, digest: number, state: number, place: number, { fresh = false } = {}) {
      const ad = JSON.parse(line) as CompiledAd;
      const key = searchKey(ad);
      const elsewhere = fresh ? undefined : statements.placeOfKey.get(key);
      if (elsewhere) remove(key, elsewhere.place);
      statements.insertAd.run(key, ad.id, place, digest, line);
      const tags = adTags(ad, state, place, cellOfPlace(place));
      statements.insertText.run(key, ad.title, ad.description, tags);
    },
    /** Removes the ad of `key` if it is in `place` (it may have moved on already). */
    remove,
    meta: (key: string, value: string) => statements.setMeta.run(key, value),
  };
}

/** The index at `file`, when there is one of this version; in rollback-journal mode (no WAL file). */
export function openExisting(file: string): Database.Database | undefined {
  if (!isSearchIndexOfThisVersion(file)) return undefined;
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  return db;
}

/** A new, empty index at `file` (a previous one there removed), written without a journal. */
export function createIndex(file: string): Database.Database {
  removeIndex(file);
  const db = new Database(file);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  // A cache of 2 MB, not better-sqlite3's 16: the rows come in key order, so pages are appended,
  // not found again, and the sorts of CREATE INDEX keep as much in memory as the cache holds (16 MB
  // took 52-59 s at a million ads against 47-50 s, and held 15-30 MB more). FTS5 keeps 8 MB of words
  // before it writes them out as a segment.
  db.pragma('cache_size = -2000');
  db.exec(SCHEMA);
  db.exec("INSERT INTO ad_text (ad_text, rank) VALUES ('automerge', 0)");
  db.exec("INSERT INTO ad_text (ad_text, rank) VALUES ('hashsize', 8388608)");
  db.pragma(`user_version = ${SEARCH_INDEX_VERSION}`);
  return db;
}

export function removeIndex(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal'])
    rmSync(`${file}${suffix}`, { force: true });
}
