// Writes each state's published ads into one file, .content/ads/{State Name}.ndjson: city by city
// (cities in name order), each city's ads in list order, one JSON object a line.
// .content/ads/index.json says where each city's lines are and holds a digest of them, so the site
// reads one city's ads without the rest and the prerenderer tells which cities changed without
// reading any ad.
// A state's file is put together from pieces, each ads CSV's contribution to the state, written in
// the same shape (piece.ndjson with piece.ndjson.json, where its cities are): a state with one piece
// is a copy of it; with several, each city's lines are joined and put in order again. A state's
// file is rewritten only when its pieces change.
import { hash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BufferedFileWriter } from '../buffered-file-writer.ts';
import { compareForList, type ListOrderFields } from '../../content/ad-order.ts';
import type { AdsIndex, CityAdsEntry } from '../../schemas/compiled-content.ts';

export const adsIndexFile = (compiledDir: string) => join(compiledDir, 'ads', 'index.json');

export interface StatePieces {
  state: string;
  /** Piece files (each ads CSV's contribution to this state), in the order of the ads files. */
  pieceFiles: string[];
  /** Identifies the pieces' contents: equal when nothing changed. */
  pieces: string;
}

/** A published ad on its way into a piece: its JSON line, its city and the fields that order a list. */
export interface PieceLine {
  json: string;
  city: string;
  order: ListOrderFields;
}

/** City → [byte offset, bytes, ads] of its lines in a piece. */
type PieceCities = Record<string, [offset: number, bytes: number, ads: number]>;

const byCityThenList = (a: PieceLine, b: PieceLine) =>
  a.city < b.city ? -1 : a.city > b.city ? 1 : compareForList(a.order, b.order);

/** Writes one piece: its lines city by city in list order, and where each city's lines are. */
export function writePiece(file: string, lines: PieceLine[]): void {
  lines.sort(byCityThenList);
  const cities: PieceCities = {};
  let offset = 0;
  const text = new BufferedFileWriter(file);
  for (const line of lines) {
    const bytes = Buffer.byteLength(line.json) + 1;
    const entry = cities[line.city];
    if (entry) {
      entry[1] += bytes;
      entry[2] += 1;
    } else {
      cities[line.city] = [offset, bytes, 1];
    }
    offset += bytes;
    text.write(`${line.json}\n`);
  }
  text.close();
  writeFileSync(`${file}.json`, JSON.stringify(cities));
}

export function readAdsIndex(compiledDir: string): AdsIndex {
  try {
    return JSON.parse(readFileSync(adsIndexFile(compiledDir), 'utf8')) as AdsIndex;
  } catch {
    return {};
  }
}

/** Writes the states whose pieces changed and the index; returns how many state files were written. */
export function writeStateAdFiles(
  compiledDir: string,
  states: readonly StatePieces[],
  allStates: readonly string[],
): number {
  const adsDir = join(compiledDir, 'ads');
  mkdirSync(adsDir, { recursive: true });
  const previous = readAdsIndex(compiledDir);
  const index: AdsIndex = {};
  let written = 0;
  const withAds = new Set(states.map((entry) => entry.state));
  for (const state of allStates)
    if (!withAds.has(state)) rmSync(join(adsDir, `${state}.ndjson`), { force: true });
  for (const entry of states) {
    const file = join(adsDir, `${entry.state}.ndjson`);
    const before = previous[entry.state];
    if (before?.pieces === entry.pieces && existsSync(file)) {
      index[entry.state] = before;
      continue;
    }
    const { chunks, cities } = stateFile(entry.pieceFiles);
    writeFileSync(file, Buffer.concat(chunks));
    index[entry.state] = { pieces: entry.pieces, cities };
    written += 1;
  }
  writeFileSync(adsIndexFile(compiledDir), JSON.stringify(index));
  return written;
}

/** The state's lines, city by city, from its pieces. */
function stateFile(pieceFiles: readonly string[]): {
  chunks: Buffer[];
  cities: Record<string, CityAdsEntry>;
} {
  const pieces = pieceFiles.map((file) => ({
    text: readFileSync(file),
    cities: JSON.parse(readFileSync(`${file}.json`, 'utf8')) as PieceCities,
  }));
  const names = [...new Set(pieces.flatMap((piece) => Object.keys(piece.cities)))].sort();
  const cities: Record<string, CityAdsEntry> = {};
  const chunks: Buffer[] = [];
  let offset = 0;
  for (const city of names) {
    const parts = pieces.flatMap(({ text, cities: where }) => {
      const at = where[city];
      return at ? [{ chunk: text.subarray(at[0], at[0] + at[1]), ads: at[2] }] : [];
    });
    const chunk =
      parts.length === 1 ? parts[0]!.chunk : inListOrder(parts.map((part) => part.chunk));
    const ads = parts.reduce((sum, part) => sum + part.ads, 0);
    cities[city] = { offset, bytes: chunk.length, ads, digest: hash('sha1', chunk, 'base64url') };
    chunks.push(chunk);
    offset += chunk.length;
  }
  return { chunks, cities };
}

/** One city's lines from several pieces, joined and put in list order. */
function inListOrder(chunks: Buffer[]): Buffer {
  const lines = Buffer.concat(chunks).toString('utf8').split('\n').filter(Boolean);
  const ordered = lines
    .map((json) => ({ json, order: JSON.parse(json) as ListOrderFields }))
    .sort((a, b) => compareForList(a.order, b.order))
    .map((line) => line.json);
  return Buffer.from(`${ordered.join('\n')}\n`);
}
