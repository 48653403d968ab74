// The id index the content step writes beside the state files ({compiled}/ads/ids.idx): where each
// published ad is, by id, so that a page that names only an ad's id (`/report?ad=…`,
// `/messages/new?ad=…`) reads that one line of its state's file and nothing else. Written only by
// pipeline/compile/ad-id-index.ts, read by core/content/ad-by-id.ts; what both sides agree on is
// here.
//
// A binary file, little-endian, searched where it lies (a few positioned reads, nothing loaded):
//
//   0   8 bytes  AD_ID_INDEX_MAGIC (a new layout gets a new magic: an old reader then falls back)
//   8   u32      count of records
//   12  u32      bytes of the state names (JSON array of strings, UTF-8)
//   16  …        the state names, padded with spaces to a multiple of 8 bytes
//   …   records, RECORD_BYTES each, sorted by id:
//         f64 id · f64 byte offset of its line in the state's file · u32 bytes of the line (its
//         newline included) · u16 the state's position in the names · u16 zero
//
// Each state's own records (the same layout, the state's position zero, no header) are kept in
// {compiled}/ads/{State Name}.ids, written with its state file; the index is merged from them.
// Ids and offsets are doubles, as JavaScript numbers are: exact up to 2^53.
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { readAt } from './read-range.ts';

export const adIdIndexFile = (compiledDir: string) => join(compiledDir, 'ads', 'ids.idx');
export const stateIdsFile = (compiledDir: string, state: string) =>
  join(compiledDir, 'ads', `${state}.ids`);

export const AD_ID_INDEX_MAGIC = 'LBADIDX1';
export const HEADER_BYTES = 16;
export const RECORD_BYTES = 24;

/** Where an ad's line is: its state's file, the byte offset and length of the line. */
export interface AdPlace {
  state: string;
  offset: number;
  bytes: number;
}

/** Records read in one block once the search has narrowed down to them (a 4 KB page). */
const BLOCK_RECORDS = 170;

/** The last state names read, kept while the file's names are the same bytes. */
let names: { bytes: Buffer; list: string[] } | undefined;

/**
 * Where the ad with this id is, by a binary search of the index where it lies on disk (about
 * log2(count / 170) reads of 24 bytes, then one of 4 KB); undefined when no published ad has the
 * id; `no-index` when the file is not there or not in this layout (content compiled before it).
 */
export function findAdPlace(file: string, id: number): AdPlace | undefined | 'no-index' {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return 'no-index';
  }
  try {
    const header = readAt(fd, 0, HEADER_BYTES);
    if (!header || header.toString('latin1', 0, 8) !== AD_ID_INDEX_MAGIC) return 'no-index';
    const count = header.readUInt32LE(8);
    const namesBytes = header.readUInt32LE(12);
    const recordsAt = HEADER_BYTES + padded(namesBytes);
    const idAt = (index: number) => {
      const record = readAt(fd, recordsAt + index * RECORD_BYTES, 8);
      if (!record) throw new Error(`The ad id index ${file} ends early`);
      return record.readDoubleLE(0);
    };
    // Everything before `low` is smaller than the id, everything from `high` on is not.
    let low = 0;
    let high = count;
    while (high - low > BLOCK_RECORDS) {
      const middle = (low + high) >>> 1;
      if (idAt(middle) < id) low = middle + 1;
      else high = middle;
    }
    const end = Math.min(count, high + 1);
    const block = readAt(fd, recordsAt + low * RECORD_BYTES, (end - low) * RECORD_BYTES);
    if (!block) throw new Error(`The ad id index ${file} ends early`);
    for (let at = 0; at < block.length; at += RECORD_BYTES) {
      const found = block.readDoubleLE(at);
      if (found < id) continue;
      if (found > id) return undefined;
      const state = stateNames(fd, namesBytes)[block.readUInt16LE(at + 20)];
      if (state === undefined) throw new Error(`The ad id index ${file} names no such state`);
      return { state, offset: block.readDoubleLE(at + 8), bytes: block.readUInt32LE(at + 16) };
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export const padded = (bytes: number) => Math.ceil(bytes / 8) * 8;

function stateNames(fd: number, bytes: number): string[] {
  const read = readAt(fd, HEADER_BYTES, bytes);
  if (!read) throw new Error('The ad id index ends in its state names');
  if (!names?.bytes.equals(read))
    names = { bytes: read, list: JSON.parse(read.toString('utf8')) as string[] };
  return names.list;
}
