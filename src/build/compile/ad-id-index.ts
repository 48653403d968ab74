// Writes the id index of the published ads (layout: src/content/ad-id-index-file.ts), so that any
// published ad is found by id with a few positioned reads, whatever the number of ads.
// - Each state's records ({State}.ids) are written with its state file, from the lines as they are
//   written (state-ad-files.ts), so an unchanged state costs nothing; a state file written before
//   the index existed is read once to make them (`scanStateIds`).
// - The index (ids.idx) is merged from every state's records (sorted runs, merged in one pass:
//   24 bytes an ad, about 24 MB at a million) whenever one of them changed, written beside it and
//   renamed into place right after the state files (state-ad-files.ts, commit), so a reader sees
//   the old index or the new one, whole.
import { strict as assert } from 'node:assert';
import { closeSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import {
  AD_ID_INDEX_MAGIC,
  HEADER_BYTES,
  padded,
  RECORD_BYTES,
} from '../../content/ad-id-index-file.ts';

/** The ids of a state's lines and where each line is, as they are written. */
export class AdIdList {
  private ids = new Float64Array(1024);
  private offsets = new Float64Array(1024);
  private bytes = new Uint32Array(1024);
  private count = 0;

  add(id: number, offset: number, bytes: number): void {
    if (this.count === this.ids.length) {
      const grow = <T extends Float64Array | Uint32Array>(array: T, bigger: T) => {
        bigger.set(array);
        return bigger;
      };
      this.ids = grow(this.ids, new Float64Array(this.count * 2));
      this.offsets = grow(this.offsets, new Float64Array(this.count * 2));
      this.bytes = grow(this.bytes, new Uint32Array(this.count * 2));
    }
    this.ids[this.count] = id;
    this.offsets[this.count] = offset;
    this.bytes[this.count] = bytes;
    this.count += 1;
  }

  /** Writes the records, sorted by id, to `file` (the state's position left zero). */
  write(file: string): void {
    const order = new Uint32Array(this.count);
    for (let index = 0; index < this.count; index += 1) order[index] = index;
    const ids = this.ids;
    order.sort((a, b) => ids[a]! - ids[b]!);
    const records = Buffer.alloc(this.count * RECORD_BYTES);
    for (let at = 0; at < this.count; at += 1) {
      const index = order[at]!;
      const base = at * RECORD_BYTES;
      records.writeDoubleLE(ids[index]!, base);
      records.writeDoubleLE(this.offsets[index]!, base + 8);
      records.writeUInt32LE(this.bytes[index]!, base + 16);
    }
    const fd = openSync(file, 'w');
    try {
      writeAll(fd, records);
    } finally {
      closeSync(fd);
    }
  }
}

const LF = 0x0a;
const LINE_START = Buffer.from('{"id":');

/**
 * The id of a compiled line starting at `start` of `buffer` (the compiler writes the id first:
 * `{"id":1297,...`), without parsing the rest; the whole line is parsed only if it is not so.
 */
export function idOfLine(buffer: Buffer, start: number, end: number): number {
  if (buffer.compare(LINE_START, 0, LINE_START.length, start, start + LINE_START.length) === 0) {
    let at = start + LINE_START.length;
    while (at < end && buffer[at]! >= 0x30 && buffer[at]! <= 0x39) at += 1;
    const next = buffer[at];
    if (at > start + LINE_START.length && (next === 0x2c || next === 0x7d))
      return Number(buffer.toString('latin1', start + LINE_START.length, at));
  }
  return (JSON.parse(buffer.toString('utf8', start, end)) as { id: number }).id;
}

/** The records of a state file written before the id index existed: its lines read once. */
export function scanStateIds(stateFile: string): AdIdList {
  const list = new AdIdList();
  const fd = openSync(stateFile, 'r');
  let buffer = Buffer.allocUnsafe(4 << 20);
  try {
    let position = 0;
    let filled = 0;
    for (;;) {
      const count = readSync(fd, buffer, filled, buffer.length - filled, position + filled);
      filled += count;
      let start = 0;
      for (let end = buffer.indexOf(LF, start); end !== -1 && end < filled;) {
        list.add(idOfLine(buffer, start, end), position + start, end + 1 - start);
        start = end + 1;
        end = buffer.indexOf(LF, start);
      }
      if (count === 0) {
        assert(start === filled, `${stateFile} does not end with a whole line`);
        return list;
      }
      // Keep the unfinished line; a line longer than the buffer gets a bigger one.
      position += start;
      const rest = filled - start;
      if (rest === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, start, filled);
        buffer = bigger;
      } else {
        buffer.copy(buffer, 0, start, filled);
      }
      filled = rest;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Merges the states' records into an index written to `file` (the caller renames it into place);
 * how many records it holds.
 */
export function writeAdIdIndex(
  file: string,
  states: readonly { state: string; idsFile: string }[],
): number {
  const names = Buffer.from(JSON.stringify(states.map((entry) => entry.state)), 'utf8');
  const runs = states.map((entry, position) => ({
    position,
    records: readFileSync(entry.idsFile),
    at: 0,
  }));
  const count = runs.reduce((sum, run) => sum + run.records.length / RECORD_BYTES, 0);
  const header = Buffer.alloc(HEADER_BYTES + padded(names.length), 0x20);
  header.write(AD_ID_INDEX_MAGIC, 0, 'latin1');
  header.writeUInt32LE(count, 8);
  header.writeUInt32LE(names.length, 12);
  names.copy(header, HEADER_BYTES);

  const fd = openSync(file, 'w');
  try {
    writeAll(fd, header);
    const out = Buffer.allocUnsafe(RECORD_BYTES * 43_690);
    let filled = 0;
    let last = -Infinity;
    // A heap of the runs by their next id (50 states: a few comparisons a record).
    const heap = runs.filter((run) => run.records.length > 0);
    const idOf = (run: (typeof runs)[number]) => run.records.readDoubleLE(run.at);
    const siftDown = (from: number) => {
      for (let at = from; ;) {
        const left = 2 * at + 1;
        if (left >= heap.length) return;
        const right = left + 1;
        const child = right < heap.length && idOf(heap[right]!) < idOf(heap[left]!) ? right : left;
        if (idOf(heap[child]!) >= idOf(heap[at]!)) return;
        [heap[at], heap[child]] = [heap[child]!, heap[at]!];
        at = child;
      }
    };
    for (let at = (heap.length >> 1) - 1; at >= 0; at -= 1) siftDown(at);
    while (heap.length > 0) {
      const run = heap[0]!;
      const id = idOf(run);
      // The compiler refuses two ads with one id; two here is our bug.
      assert(id > last, `ad id ${id} is in the id index twice`);
      last = id;
      run.records.copy(out, filled, run.at, run.at + RECORD_BYTES);
      out.writeUInt16LE(run.position, filled + 20);
      filled += RECORD_BYTES;
      if (filled === out.length) {
        writeAll(fd, out);
        filled = 0;
      }
      run.at += RECORD_BYTES;
      if (run.at === run.records.length) {
        heap[0] = heap[heap.length - 1]!;
        heap.pop();
      }
      siftDown(0);
    }
    writeAll(fd, out.subarray(0, filled));
  } catch (error) {
    closeSync(fd);
    rmSync(file, { force: true });
    throw error;
  }
  closeSync(fd);
  return count;
}

function writeAll(fd: number, buffer: Buffer): void {
  for (let at = 0; at < buffer.length;) at += writeSync(fd, buffer, at, buffer.length - at);
}
