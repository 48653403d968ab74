// Writes the search index ({compiled content dir}/search.sqlite, search/search-index-file.ts)
// from the compiled ads, after each compile: the build, and so every publish, keeps it current, and
// an ad that left the site (removed, expired) leaves the index in the same step.
//
// The tables, and the statements that write them, are in search-index-tables.ts; how the ads files
// are read, in core/content/ad-lines.ts and compiled-ad-lines.ts.
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
import type Database from 'better-sqlite3';
import { closeSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import type { AdsIndex, CompiledState } from '../core/schemas/compiled-content.ts';
import { searchIndexFile, searchKey } from './search-index-file.ts';
import { stateAdsFile } from '../core/content/index.ts';
import { forEachLine, idOfLine, idOfLineBytes } from '../core/content/ad-lines.ts';
import { lineDigest, postedAtOfLine } from './compiled-ad-lines.ts';
import {
  ADS_BY_KEY,
  ADS_BY_PLACE,
  createIndex,
  indexWriter,
  openExisting,
  removeIndex,
} from './search-index-tables.ts';
import {
  moveChangedPlaces,
  placeCoordinates,
  readCompiledStates,
  type PlaceCoordinates,
} from './place-coordinates.ts';

export interface SearchIndexUpdate {
  /** Cities whose ads were (re)indexed or removed. */
  citiesChanged: number;
  /** Ads written (inserted) in this update. */
  adsWritten: number;
  milliseconds: number;
}

/**
 * Brings the index of `compiledDir` up to date with its compiled ads (written just before by
 * compileToDisk, which hands over their index). `full`: rebuilt from nothing.
 */
export function writeSearchIndex(
  compiledDir: string,
  buildDate: string,
  {
    full = false,
    adsIndex,
    states,
    indexFile,
  }: {
    full?: boolean;
    adsIndex: AdsIndex;
    states?: readonly CompiledState[];
    /**
     * The index to bring up to date, when not the compiled content's own (an instance that
     * follows the publisher keeps one of its own: server/publishing/site-bucket/).
     */
    indexFile?: string;
  },
): SearchIndexUpdate {
  const started = performance.now();
  const at = placeCoordinates(states ?? readCompiledStates(compiledDir));
  const file = indexFile ?? searchIndexFile(compiledDir);
  const existing = full ? undefined : openExisting(file);
  if (existing) {
    try {
      return {
        ...updateIndex(existing, adsIndex, compiledDir, buildDate, at),
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
    counts = buildIndex(db, adsIndex, compiledDir, buildDate, at);
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
  at: PlaceCoordinates,
) {
  const write = indexWriter(db);
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
        const place = write.newPlace(state, city, entry.digest, at(state, city));
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
  db.exec(ADS_BY_KEY);
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
  at: PlaceCoordinates,
) {
  const write = indexWriter(db);
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
        const place = before?.code ?? write.newPlace(state, city, entry.digest, at(state, city));
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
    // An editor may move a city (its coordinates) without touching its ads.
    moveChangedPlaces(db, at);
    write.meta('buildDate', buildDate);
  })();
  return { citiesChanged, adsWritten };
}
