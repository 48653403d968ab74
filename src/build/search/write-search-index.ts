// Writes the search index ({compiled content dir}/search.sqlite, src/content/search-index-file.ts)
// from the compiled ads, after each compile: the build, and so every publish, keeps it current, and
// an ad that left the site (removed, expired) leaves the index in the same step.
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
//   keeps marks inside words, as the query's words do (src/pages/search/searchQuery.ts).
// - states, places: the numbers of the states and cities in the tags, the pieces each state's ads
//   file was made of and the digest of the lines each city was indexed at; meta: the build date.
//
// From nothing (no index, another version, or `full`): written beside the one served, without a
// journal, then renamed over it. The ads are read twice: first each line's key and place (a few
// bytes an ad), then the lines in key order, so that SQLite and FTS5 append instead of inserting
// in the middle (FTS5 writes a new segment whenever a rowid is smaller than the last one: in the
// cities' order that is every other ad, and the build takes several times as long).
//
// Incremental: a state whose ads file is made of the same pieces is skipped, and in the others a
// city whose digest is the one indexed; in a changed city, its stored ids and digests are read in
// one range query and compared with digests of the lines' bytes: only the ads whose line changed
// are decoded and written again, those no longer there deleted; a city gone is deleted. One
// transaction: the server sees the index before or after, never half-written. Memory stays flat
// however many ads there are (a from-nothing build holds about 30 bytes an ad for the sort).
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import type { AdsIndex, CompiledAd } from '../../schemas/compiled-content.ts';
import {
  adTags,
  SEARCH_INDEX_VERSION,
  searchIndexFile,
  searchKey,
} from '../../content/search-index-file.ts';
import { stateAdsFile } from '../../content/index.ts';
import { readAdsIndex } from '../compile/state-ad-files.ts';

export interface SearchIndexUpdate {
  /** Cities whose ads were (re)indexed or removed. */
  citiesChanged: number;
  /** Ads written (inserted) in this update. */
  adsWritten: number;
  milliseconds: number;
}

const TOKENIZER = `porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'`;

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE states (code INTEGER PRIMARY KEY, state TEXT NOT NULL UNIQUE, pieces TEXT);
  CREATE TABLE places (
    code INTEGER PRIMARY KEY,
    state TEXT NOT NULL,
    city TEXT NOT NULL,
    digest TEXT NOT NULL,
    UNIQUE (state, city)
  );
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
const ADS_BY_PLACE = 'CREATE INDEX ads_by_place ON ads (place, id, digest)';

/** Bytes of a state file read at a time. */
const CHUNK_BYTES = 1 << 20;

/**
 * Brings the index of `compiledDir` up to date with its compiled ads (written just before by
 * compileToDisk, which hands over their index). `full`: rebuilt from nothing.
 */
export function writeSearchIndex(
  compiledDir: string,
  buildDate: string,
  { full = false, adsIndex }: { full?: boolean; adsIndex?: AdsIndex } = {},
): SearchIndexUpdate {
  const started = performance.now();
  adsIndex ??= readAdsIndex(compiledDir);
  const file = searchIndexFile(compiledDir);
  const existing = full ? undefined : openExisting(file);
  if (existing) {
    try {
      return {
        ...updateIndex(existing, adsIndex, compiledDir, buildDate),
        milliseconds: since(started),
      };
    } finally {
      existing.close();
    }
  }
  const next = `${file}.next`;
  const db = createIndex(next);
  let done = false;
  let counts: Omit<SearchIndexUpdate, 'milliseconds'>;
  try {
    counts = buildIndex(db, adsIndex, compiledDir, buildDate);
    done = true;
  } finally {
    db.close();
    if (!done) removeIndex(next);
  }
  renameSync(next, file);
  for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
  return { ...counts, milliseconds: since(started) };
}

const since = (started: number) => performance.now() - started;

/** A new index from nothing: the ads' keys first, then the ads in key order. */
function buildIndex(
  db: Database.Database,
  adsIndex: AdsIndex,
  compiledDir: string,
  buildDate: string,
) {
  const write = writer(db);
  const setPieces = db.prepare<[string, number]>('UPDATE states SET pieces = ? WHERE code = ?');
  let total = 0;
  for (const { cities } of Object.values(adsIndex))
    for (const entry of Object.values(cities)) total += entry.ads;
  const keys = new Float64Array(total);
  const offsets = new Float64Array(total);
  const lengths = new Uint32Array(total);
  const places = new Uint32Array(total);
  const files = new Uint16Array(total);
  const fileNames: string[] = [];
  /** The state of each place (places are numbered from 1 here). */
  const stateOfPlace: number[] = [];
  let count = 0;
  let citiesChanged = 0;
  db.transaction(() => {
    for (const [state, { pieces, cities }] of Object.entries(adsIndex)) {
      const fileNumber = fileNames.push(stateAdsFile(state, compiledDir)) - 1;
      const stateCode = write.state(state);
      setPieces.run(pieces, stateCode);
      for (const [city, entry] of Object.entries(cities)) {
        citiesChanged += 1;
        const place = write.newPlace(state, city, entry.digest);
        stateOfPlace[place] = stateCode;
        forEachLine(fileNames[fileNumber]!, entry.offset, entry.bytes, (buffer, start, end, at) => {
          // Latin-1: the id and the day are ASCII, and quicker to find without decoding UTF-8.
          const line = buffer.toString('latin1', start, end);
          if (count === total)
            throw new Error('The ads index counts fewer ads than its files hold');
          keys[count] = searchKey({ id: idOfLine(line), postedAt: postedAtOfLine(line) });
          offsets[count] = at;
          lengths[count] = end - start;
          places[count] = place;
          files[count] = fileNumber;
          count += 1;
        });
      }
    }
  })();
  if (count !== total) throw new Error('The ads index counts more ads than its files hold');

  const order = new Uint32Array(count);
  for (let index = 0; index < count; index += 1) order[index] = index;
  order.sort((a, b) => keys[a]! - keys[b]!);
  const descriptors = fileNames.map((name) => openSync(name, 'r'));
  try {
    let buffer = Buffer.allocUnsafe(64 * 1024);
    db.transaction(() => {
      for (const index of order) {
        const length = lengths[index]!;
        if (length > buffer.length) buffer = Buffer.allocUnsafe(length);
        readSync(descriptors[files[index]!]!, buffer, 0, length, offsets[index]!);
        const line = buffer.toString('utf8', 0, length);
        const place = places[index]!;
        write.ad(line, lineDigest(buffer, 0, length), stateOfPlace[place]!, place, { fresh: true });
      }
      write.meta('buildDate', buildDate);
    })();
  } finally {
    for (const descriptor of descriptors) closeSync(descriptor);
  }
  // One segment for the text index (merging as it went would have written it several times),
  // then the usual merging for the small updates of publishing.
  db.exec("INSERT INTO ad_text (ad_text) VALUES ('optimize')");
  db.exec("INSERT INTO ad_text (ad_text, rank) VALUES ('automerge', 4)");
  db.exec(ADS_BY_PLACE);
  db.pragma('journal_mode = DELETE');
  return { citiesChanged, adsWritten: count };
}

/**
 * Brings an existing index up to date in one transaction: a state whose ads file is made of the
 * same pieces as when it was indexed is skipped whole; in the others, city by city.
 */
function updateIndex(
  db: Database.Database,
  adsIndex: AdsIndex,
  compiledDir: string,
  buildDate: string,
) {
  const write = writer(db);
  const indexedStates = new Map(
    db
      .prepare<[], { code: number; state: string; pieces: string | null }>(
        'SELECT code, state, pieces FROM states',
      )
      .all()
      .map((row) => [row.state, row]),
  );
  const placesOfState = db.prepare<[string], { code: number; city: string; digest: string }>(
    'SELECT code, city, digest FROM places WHERE state = ?',
  );
  const storedOfPlace = db.prepare<[number], { key: number; id: number; digest: number }>(
    'SELECT key, id, digest FROM ads WHERE place = ?',
  );
  const setDigest = db.prepare<[string, number]>('UPDATE places SET digest = ? WHERE code = ?');
  const forgetPlace = db.prepare<[number]>('DELETE FROM places WHERE code = ?');
  const setPieces = db.prepare<[string, number]>('UPDATE states SET pieces = ? WHERE code = ?');
  let citiesChanged = 0;
  let adsWritten = 0;
  const removePlace = (code: number) => {
    citiesChanged += 1;
    for (const old of storedOfPlace.all(code)) write.remove(old.key, code);
    forgetPlace.run(code);
  };
  db.transaction(() => {
    for (const [state, { pieces, cities }] of Object.entries(adsIndex)) {
      const indexedState = indexedStates.get(state);
      if (indexedState?.pieces === pieces) continue;
      const stateCode = indexedState?.code ?? write.state(state);
      const indexed = new Map(placesOfState.all(state).map((row) => [row.city, row]));
      for (const [city, entry] of Object.entries(cities)) {
        const before = indexed.get(city);
        indexed.delete(city);
        if (before?.digest === entry.digest) continue;
        citiesChanged += 1;
        const place = before?.code ?? write.newPlace(state, city, entry.digest);
        // Ad by ad: an ad whose line is the one stored stays as it is (one approval in a city of
        // 15,000 ads writes one ad); a changed one is replaced; the city's others are deleted.
        const stored = new Map(storedOfPlace.all(place).map((row) => [row.id, row]));
        // The lines are compared as bytes: only a changed ad is decoded and parsed.
        forEachLine(
          stateAdsFile(state, compiledDir),
          entry.offset,
          entry.bytes,
          (buffer, start, end) => {
            const id = idOfLineBytes(buffer, start, end);
            const old = stored.get(id);
            stored.delete(id);
            const digest = lineDigest(buffer, start, end);
            if (old?.digest === digest) return;
            if (old) write.remove(old.key, place);
            write.ad(buffer.toString('utf8', start, end), digest, stateCode, place);
            adsWritten += 1;
          },
        );
        for (const old of stored.values()) write.remove(old.key, place);
        if (before) setDigest.run(entry.digest, place);
      }
      for (const { code } of indexed.values()) removePlace(code);
      setPieces.run(pieces, stateCode);
    }
    // States with no ads left.
    for (const [state, { code }] of indexedStates) {
      if (adsIndex[state]) continue;
      for (const { code: place } of placesOfState.all(state)) removePlace(place);
      setPieces.run('', code);
    }
    write.meta('buildDate', buildDate);
  })();
  return { citiesChanged, adsWritten };
}

/** The statements that write ads, states, places and meta. */
function writer(db: Database.Database) {
  const statements = {
    stateCode: db.prepare<[string], { code: number }>('SELECT code FROM states WHERE state = ?'),
    insertState: db.prepare<[string]>('INSERT INTO states (state) VALUES (?)'),
    insertPlace: db.prepare<[string, string, string]>(
      'INSERT INTO places (state, city, digest) VALUES (?, ?, ?)',
    ),
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
  const remove = (key: number, place: number) => {
    if (statements.deleteAd.run(key, place).changes > 0) statements.deleteText.run(key);
  };
  return {
    state(name: string): number {
      const row = statements.stateCode.get(name);
      return row ? row.code : Number(statements.insertState.run(name).lastInsertRowid);
    },
    newPlace: (state: string, city: string, digest: string) =>
      Number(statements.insertPlace.run(state, city, digest).lastInsertRowid),
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
      statements.insertText.run(key, ad.title, ad.description, adTags(ad, state, place));
    },
    /** Removes the ad of `key` if it is in `place` (it may have moved on already). */
    remove,
    meta: (key: string, value: string) => statements.setMeta.run(key, value),
  };
}

/**
 * A digest of a line's bytes: 53 bits of two FNV-1a lanes (a JavaScript loop over the bytes is
 * several times quicker than a crypto hash a line, for the 15,000 lines of a big city). It only
 * tells a changed line from the one stored for the same ad: a collision (about 1 in 2^53) would
 * keep that ad's previous text in the index until its next change.
 */
function lineDigest(buffer: Buffer, start: number, end: number): number {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let index = start; index < end; index += 1) {
    const byte = buffer[index]!;
    a = Math.imul(a ^ byte, 0x01000193);
    b = Math.imul(b ^ byte, 0x5bd1e995);
  }
  return (a >>> 0) * 2 ** 21 + ((b >>> 0) >>> 11);
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
  // 16 MB of pages; FTS5 keeps 8 MB of words before it writes them out as a segment.
  db.pragma('cache_size = -16000');
  db.exec(SCHEMA);
  db.exec("INSERT INTO ad_text (ad_text, rank) VALUES ('automerge', 0)");
  db.exec("INSERT INTO ad_text (ad_text, rank) VALUES ('hashsize', 8388608)");
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

/** An ad's id from its line's bytes, as idOfLine. */
function idOfLineBytes(buffer: Buffer, start: number, end: number): number {
  const prefix = '{"id":';
  let id = 0;
  let index = start + prefix.length;
  if (buffer.toString('latin1', start, Math.min(end, index)) === prefix)
    for (; index < end; index += 1) {
      const digit = buffer[index]! - 48;
      if (digit < 0 || digit > 9) break;
      id = id * 10 + digit;
    }
  return index > start + prefix.length && (buffer[index] === 44 || buffer[index] === 125)
    ? id
    : idOfLine(buffer.toString('utf8', start, end));
}

/** An ad's day from its line (a quote inside a string is escaped, so the first match is the field). */
function postedAtOfLine(line: string): string {
  const match = /"postedAt":"(\d{4}-\d{2}-\d{2})"/.exec(line);
  return match ? match[1]! : (JSON.parse(line) as CompiledAd).postedAt;
}

/**
 * Calls `each` with every line of `bytes` bytes of `file` from `offset`, a chunk at a time: the
 * buffer holding it, where it starts and ends there, and its offset in the file. The buffer is
 * reused: decode what is kept.
 */
function forEachLine(
  file: string,
  offset: number,
  bytes: number,
  each: (buffer: Buffer, start: number, end: number, at: number) => void,
) {
  if (!existsSync(file)) throw new Error(`The compiled ads file ${file} is missing (a bug)`);
  const fd = openSync(file, 'r');
  try {
    let buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(bytes, 1)));
    /** Bytes at the start of `buffer` not yet handed out (the start of a line), from `at`. */
    let kept = 0;
    let at = offset;
    let position = offset;
    const end = offset + bytes;
    while (position < end) {
      if (kept === buffer.length)
        buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
      const read = readSync(
        fd,
        buffer,
        kept,
        Math.min(buffer.length - kept, end - position),
        position,
      );
      if (read === 0) break;
      position += read;
      const filled = kept + read;
      let from = 0;
      for (let newline = buffer.indexOf(10, from); newline !== -1 && newline < filled;) {
        if (newline > from) each(buffer, from, newline, at);
        at += newline + 1 - from;
        from = newline + 1;
        newline = buffer.indexOf(10, from);
      }
      kept = filled - from;
      buffer.copy(buffer, 0, from, filled);
    }
    if (kept > 0) each(buffer, 0, kept, at);
  } finally {
    closeSync(fd);
  }
}
