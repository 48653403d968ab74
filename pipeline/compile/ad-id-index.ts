// Writes the id index of the published ads (layout: core/content/ad-id-index-file.ts), so that any
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
import { endianness } from 'node:os';
import { idOfLineBytes } from '../../core/content/ad-lines.ts';
import {
  AD_ID_INDEX_MAGIC,
  HEADER_BYTES,
  padded,
  RECORD_BYTES,
} from '../../core/content/ad-id-index-file.ts';

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
    const records = new Records(this.count);
    for (let at = 0; at < this.count; at += 1) {
      const index = order[at]!;
      records.set(at, ids[index]!, this.offsets[index]!, this.bytes[index]!, 0);
    }
    const fd = openSync(file, 'w');
    try {
      writeAll(fd, records.bytes());
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * Records in memory, in the file's layout: typed arrays over one buffer (a record is three
 * doubles, the third holding the line's bytes and the state's position), so the merge of a
 * million is a copy of numbers, not a call a field. The file is little-endian, as these arrays
 * are on every platform Node runs on (checked below).
 */
class Records {
  readonly doubles: Float64Array;
  private readonly words: Uint32Array;
  private readonly halves: Uint16Array;

  constructor(countOrBuffer: number | Buffer) {
    if (typeof countOrBuffer === 'number') {
      this.doubles = new Float64Array(countOrBuffer * 3);
    } else {
      // A copy: the file's bytes may not start on an 8-byte boundary of their buffer.
      const copy = new ArrayBuffer(countOrBuffer.length);
      new Uint8Array(copy).set(countOrBuffer);
      this.doubles = new Float64Array(copy);
    }
    this.words = new Uint32Array(this.doubles.buffer);
    this.halves = new Uint16Array(this.doubles.buffer);
  }

  get count(): number {
    return this.doubles.length / 3;
  }

  set(at: number, id: number, offset: number, bytes: number, state: number): void {
    this.doubles[at * 3] = id;
    this.doubles[at * 3 + 1] = offset;
    this.words[at * 6 + 4] = bytes;
    this.halves[at * 12 + 10] = state;
    this.halves[at * 12 + 11] = 0;
  }

  /** Copies record `from` of `source` to `at`, with the state's position. */
  copy(at: number, source: Records, from: number, state: number): void {
    this.doubles[at * 3] = source.doubles[from * 3]!;
    this.doubles[at * 3 + 1] = source.doubles[from * 3 + 1]!;
    this.words[at * 6 + 4] = source.words[from * 6 + 4]!;
    this.halves[at * 12 + 10] = state;
    this.halves[at * 12 + 11] = 0;
  }

  bytes(count = this.count): Buffer {
    return Buffer.from(this.doubles.buffer, 0, count * RECORD_BYTES);
  }
}

assert(endianness() === 'LE', 'the ad id index is written with little-endian typed arrays');

const LF = 0x0a;

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
        list.add(idOfLineBytes(buffer, start, end), position + start, end + 1 - start);
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
  const runs = states.map((entry, position) => {
    const records = new Records(readFileSync(entry.idsFile));
    return { position, records, ids: records.doubles, at: 0, end: records.count };
  });
  const count = runs.reduce((sum, run) => sum + run.end, 0);
  const header = Buffer.alloc(HEADER_BYTES + padded(names.length), 0x20);
  header.write(AD_ID_INDEX_MAGIC, 0, 'latin1');
  header.writeUInt32LE(count, 8);
  header.writeUInt32LE(names.length, 12);
  names.copy(header, HEADER_BYTES);

  const fd = openSync(file, 'w');
  try {
    writeAll(fd, header);
    const out = new Records(43_690);
    let filled = 0;
    let last = -Infinity;
    // A heap of the runs by their next id (50 states: a few comparisons a record).
    const heap = runs.filter((run) => run.end > 0);
    const idOf = (run: (typeof runs)[number]) => run.ids[run.at * 3]!;
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
      if (!(id > last)) assert.fail(`ad id ${id} is in the id index twice`);
      last = id;
      out.copy(filled, run.records, run.at, run.position);
      filled += 1;
      if (filled === out.count) {
        writeAll(fd, out.bytes());
        filled = 0;
      }
      run.at += 1;
      if (run.at === run.end) {
        heap[0] = heap[heap.length - 1]!;
        heap.pop();
      }
      siftDown(0);
    }
    writeAll(fd, out.bytes(filled));
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
