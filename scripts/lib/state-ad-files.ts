// Writes each state's published ads into one file, .content/ads/{State Name}.ndjson: city by city,
// each city's ads in list order, one JSON object a line. .content/ads/index.json says where each
// city's lines are and holds a digest of them, so the site reads one city's ads without the rest
// and the prerenderer tells which cities changed without reading any ad.
// A state's file is made of the pieces the ads files contributed to it (ad-file-cache.ts); it is
// rewritten only when those pieces change.
import { hash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareForList, type ListOrderFields } from '../../src/content/ad-order.ts';
import type { AdsIndex, CityAdsEntry } from '../../src/schemas/compiled-content.ts';

export const adsIndexFile = (compiledDir: string) => join(compiledDir, 'ads', 'index.json');

export interface StatePieces {
  state: string;
  /** Files (each ads CSV's contribution to this state), in the order of the ads files. */
  pieceFiles: string[];
  /** Identifies the pieces' contents: equal when nothing changed. */
  pieces: string;
}

export function readAdsIndex(compiledDir: string): AdsIndex {
  try {
    return JSON.parse(readFileSync(adsIndexFile(compiledDir), 'utf8')) as AdsIndex;
  } catch {
    return {};
  }
}

/** Writes the states whose pieces changed and the index; returns how many state files were written. */
export function writeStateAdFiles(compiledDir: string, states: readonly StatePieces[], allStates: readonly string[]): number {
  const adsDir = join(compiledDir, 'ads');
  mkdirSync(adsDir, { recursive: true });
  const previous = readAdsIndex(compiledDir);
  const index: AdsIndex = {};
  let written = 0;
  const withAds = new Set(states.map((entry) => entry.state));
  for (const state of allStates) if (!withAds.has(state)) rmSync(join(adsDir, `${state}.ndjson`), { force: true });
  for (const entry of states) {
    const file = join(adsDir, `${entry.state}.ndjson`);
    const before = previous[entry.state];
    if (before?.pieces === entry.pieces && existsSync(file)) {
      index[entry.state] = before;
      continue;
    }
    const { text, cities } = stateFile(entry.pieceFiles);
    writeFileSync(file, text);
    index[entry.state] = { pieces: entry.pieces, cities };
    written += 1;
  }
  writeFileSync(adsIndexFile(compiledDir), JSON.stringify(index));
  return written;
}

interface Line {
  text: string;
  city: string;
  order: ListOrderFields;
}

/** The state's lines grouped by city (cities in name order), each city's in list order. */
function stateFile(pieceFiles: readonly string[]): { text: string; cities: Record<string, CityAdsEntry> } {
  const byCity = new Map<string, Line[]>();
  for (const pieceFile of pieceFiles) {
    for (const text of readFileSync(pieceFile, 'utf8').split('\n')) {
      if (text === '') continue;
      const { city, featured, postedAt, id } = JSON.parse(text) as ListOrderFields & { city: string };
      const line = { text, city, order: { featured, postedAt, id } };
      const list = byCity.get(city);
      if (list) list.push(line);
      else byCity.set(city, [line]);
    }
  }
  const cities: Record<string, CityAdsEntry> = {};
  const chunks: string[] = [];
  let offset = 0;
  for (const city of [...byCity.keys()].sort()) {
    const lines = byCity.get(city)!.sort((a, b) => compareForList(a.order, b.order));
    const chunk = `${lines.map((line) => line.text).join('\n')}\n`;
    const bytes = Buffer.byteLength(chunk);
    cities[city] = { offset, bytes, ads: lines.length, digest: hash('sha1', chunk, 'base64url') };
    chunks.push(chunk);
    offset += bytes;
  }
  return { text: chunks.join(''), cities };
}
