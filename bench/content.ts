// Writes a benchmark content folder: a copy of content/ without its ads, plus the given ads in the
// columns of content/ads/*.csv, split into files one of three ways (--layout): one CSV a state,
// ads/{State Name}.csv; one CSV in all, ads/ads.csv; or about 5,000 small CSVs of consecutive ads,
// ads/import-0001.csv and on, as editors' bulk imports would come. The ads are written as they
// come, a few thousand at a time, so a million of them are never in memory.
// Also the edits of the incremental runs, made without reading a file whole (one CSV of a million
// ads is larger than a JavaScript string may be).
import {
  appendFileSync,
  closeSync,
  cpSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { scanCsvBytes, SEGMENT_LIMITS } from '../pipeline/compile/csv-segments.ts';
import type { GeneratedAd } from './generate-ads.ts';
import { AD_COLUMNS } from '../core/schemas/ad.ts';
import type { AdsLayout } from './options.ts';

/** About this many files in the many-files layout. */
export const MANY_FILES = 5_000;
/** Ads held before they are written out. */
const WRITE_EVERY = 20_000;

/** Writes the content folder; returns the ads files, in name order. */
export function writeContentSet(
  sourceDir: string,
  targetDir: string,
  ads: Iterable<GeneratedAd>,
  count: number,
  layout: AdsLayout,
): string[] {
  copyContentWithoutAds(sourceDir, targetDir);
  const adsDir = join(targetDir, 'ads');
  mkdirSync(adsDir, { recursive: true });
  const perFile = Math.ceil(count / MANY_FILES);
  const fileOf = (ad: GeneratedAd, index: number): string => {
    if (layout === 'per-state') return `${ad.state}.csv`;
    if (layout === 'single-file') return 'ads.csv';
    return `import-${String(Math.floor(index / perFile) + 1).padStart(4, '0')}.csv`;
  };
  const written = new Set<string>();
  let held = new Map<string, GeneratedAd[]>();
  let holding = 0;
  const writeOut = () => {
    for (const [file, rows] of held) {
      appendFileSync(join(adsDir, file), adsCsv(rows, !written.has(file)));
      written.add(file);
    }
    held = new Map();
    holding = 0;
  };
  let index = 0;
  for (const ad of ads) {
    const file = fileOf(ad, index++);
    const rows = held.get(file);
    if (rows) rows.push(ad);
    else held.set(file, [ad]);
    if (++holding >= WRITE_EVERY) writeOut();
  }
  writeOut();
  return [...written].sort();
}

function copyContentWithoutAds(sourceDir: string, targetDir: string): void {
  const isAdsFolder = (path: string) => relative(sourceDir, path).split(sep)[0] === 'ads';
  cpSync(sourceDir, targetDir, { recursive: true, filter: (path) => !isAdsFolder(path) });
}

function adsCsv(ads: readonly GeneratedAd[], header: boolean): string {
  return stringify(ads as GeneratedAd[], {
    header,
    columns: [...AD_COLUMNS],
    cast: { boolean: (value) => (value ? 'true' : 'false') },
  });
}

type Row = Record<string, string>;

/** The file's first ad row, and where it is in the file. */
export function firstRow(file: string): { row: Row; offset: number; bytes: number } {
  const head = Buffer.alloc(Math.min(statSync(file).size, 1 << 20));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  // One record a segment: the first segment is the first row.
  const scan = scanCsvBytes(head, { ...SEGMENT_LIMITS, minRows: 1, averageRows: 1 });
  const [first] = scan.segments;
  if (scan.header === undefined || !first) throw new Error(`${file} has no ad row`);
  const text = head.toString('utf8', first.offset, first.offset + first.bytes);
  const [row] = parse(`${scan.header}\n${text}`, { columns: true }) as Row[];
  return { row: row!, offset: first.offset, bytes: first.bytes };
}

/** One row as CSV, its line break included. */
export const rowCsv = (row: Row) => stringify([row], { columns: [...AD_COLUMNS] });

/** Replaces the file's first ad row, copying the rest a few MB at a time. */
export function replaceFirstRow(file: string, row: Row): void {
  const first = firstRow(file);
  const next = `${file}.next`;
  const from = openSync(file, 'r');
  const to = openSync(next, 'w');
  try {
    const buffer = Buffer.allocUnsafe(4 << 20);
    const copy = (start: number, end: number) => {
      for (let at = start; at < end;) {
        const count = readSync(from, buffer, 0, Math.min(buffer.length, end - at), at);
        if (count === 0) break;
        writeSync(to, buffer, 0, count);
        at += count;
      }
    };
    copy(0, first.offset);
    writeSync(to, rowCsv(row));
    copy(first.offset + first.bytes, statSync(file).size);
  } finally {
    closeSync(from);
    closeSync(to);
  }
  renameSync(next, file);
}

/** Adds a row at the end of the file; returns the file's size before, to remove it again. */
export function appendRow(file: string, row: Row): number {
  const size = statSync(file).size;
  appendFileSync(file, rowCsv(row));
  return size;
}

/** Cuts the file back to `size` bytes (removes the rows added after). */
export const cutBackTo = (file: string, size: number) => truncateSync(file, size);
