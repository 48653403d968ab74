// Merges a state's sorted runs of ads (each checked batch's, ad-batch-cache.ts) into one sorted
// stream, a line at a time through small buffers, however many runs there are: more than
// MAX_RUNS_AT_ONCE are first merged in groups into fewer, longer runs, so memory stays flat
// whatever the shape of the content. The stream ends in the state's file (state-file-writer.ts).
import { closeSync, mkdirSync, openSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CityAdsEntry } from '../../core/schemas/compiled-content.ts';
import type { AdIdList } from './ad-id-index.ts';
import { ByteWriter } from './byte-writer.ts';
import { StateFileWriter, type LineWriter } from './state-file-writer.ts';

/** Where one batch's run of a state's ads is, in that batch's file of runs. */
export interface StateRun {
  file: string;
  offset: number;
  bytes: number;
}

/** More runs than this are merged in groups first (each open run holds a file and a buffer). */
const MAX_RUNS_AT_ONCE = 256;
/** Read buffers of the runs being merged: one block, shared out, allocated once. */
const MERGE_BUFFERS = 8 << 20;
/**
 * Allocated once and reused by every merge, as the write buffers are (byte-writer.ts): V8 counts
 * buffers outside its heap and collects garbage when many are allocated.
 */
let mergeBuffers: Buffer | undefined;
const TAB = 0x09;
const LF = 0x0a;

/**
 * Merges runs into a state file (keys dropped) and says where each city's lines are, and each
 * ad's line.
 */
export function mergeRuns(
  runs: readonly StateRun[],
  target: string,
  scratch: string,
): { cities: Record<string, CityAdsEntry>; ids: AdIdList } {
  let level = runs;
  let made: string[] = [];
  try {
    // Too many runs to hold open at once: merge them in groups into fewer, longer runs first.
    for (let round = 0; level.length > MAX_RUNS_AT_ONCE; round += 1) {
      mkdirSync(scratch, { recursive: true });
      const next: StateRun[] = [];
      for (let start = 0; start < level.length; start += MAX_RUNS_AT_ONCE) {
        const file = join(scratch, `${round}-${next.length}`);
        const bytes = merge(level.slice(start, start + MAX_RUNS_AT_ONCE), new RunWriter(file));
        next.push({ file, offset: 0, bytes });
      }
      for (const file of made) rmSync(file, { force: true });
      made = next.map((run) => run.file);
      level = next;
    }
    const writer = new StateFileWriter(target);
    merge(level, writer);
    return { cities: writer.cities, ids: writer.ids };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Merges sorted runs by their keys into `writer`, stable in the order of `runs`. */
function merge(runs: readonly StateRun[], writer: LineWriter): number {
  const block = (mergeBuffers ??= Buffer.allocUnsafe(MERGE_BUFFERS));
  const share = Math.floor(MERGE_BUFFERS / Math.max(1, runs.length));
  const readers = runs.map(
    (run, order) => new RunReader(run, order, block.subarray(order * share, order * share + share)),
  );
  try {
    const heap = readers.filter((reader) => reader.next());
    const before = (a: RunReader, b: RunReader) =>
      a.key < b.key || (a.key === b.key && a.order < b.order);
    const siftDown = (from: number) => {
      for (let at = from; ;) {
        const left = 2 * at + 1;
        if (left >= heap.length) return;
        const right = left + 1;
        const child = right < heap.length && before(heap[right]!, heap[left]!) ? right : left;
        if (!before(heap[child]!, heap[at]!)) return;
        [heap[at], heap[child]] = [heap[child]!, heap[at]!];
        at = child;
      }
    };
    for (let at = (heap.length >> 1) - 1; at >= 0; at -= 1) siftDown(at);
    while (heap.length > 0) {
      const top = heap[0]!;
      writer.add(top.key, top.buffer, top.lineStart, top.keyEnd, top.lineEnd);
      if (!top.next()) {
        heap[0] = heap[heap.length - 1]!;
        heap.pop();
      }
      siftDown(0);
    }
  } finally {
    for (const reader of readers) reader.close();
  }
  return writer.close();
}

/** Reads a run's lines through a buffer of its own: `key`, and the line's place in `buffer`. */
class RunReader {
  key = '';
  buffer: Buffer;
  lineStart = 0;
  keyEnd = 0;
  lineEnd = 0;
  private readonly fd: number;
  private position: number;
  private readonly end: number;
  private filled = 0;
  private at = 0;

  constructor(
    run: StateRun,
    readonly order: number,
    buffer: Buffer,
  ) {
    this.fd = openSync(run.file, 'r');
    this.position = run.offset;
    this.end = run.offset + run.bytes;
    this.buffer = buffer;
  }

  /** Moves to the next line; false after the last. */
  next(): boolean {
    let lineFeed = this.buffer.indexOf(LF, this.at);
    while (lineFeed === -1 || lineFeed >= this.filled) {
      if (!this.fill()) return false;
      lineFeed = this.buffer.indexOf(LF, this.at);
    }
    this.lineStart = this.at;
    this.keyEnd = this.buffer.indexOf(TAB, this.at);
    this.lineEnd = lineFeed + 1;
    this.key = this.buffer.toString('utf8', this.lineStart, this.keyEnd);
    this.at = this.lineEnd;
    return true;
  }

  close(): void {
    closeSync(this.fd);
  }

  /** Keeps the unread bytes and reads more after them (a bigger buffer if a line needs it). */
  private fill(): boolean {
    if (this.position >= this.end) return false;
    const left = this.filled - this.at;
    if (left === this.buffer.length) {
      const bigger = Buffer.allocUnsafe(this.buffer.length * 2);
      this.buffer.copy(bigger, 0, this.at, this.filled);
      this.buffer = bigger;
    } else {
      this.buffer.copy(this.buffer, 0, this.at, this.filled);
    }
    this.at = 0;
    this.filled = left;
    const want = Math.min(this.buffer.length - left, this.end - this.position);
    const count = readSync(this.fd, this.buffer, left, want, this.position);
    if (count === 0) throw new Error(`A run of ads ended early at byte ${this.position}`);
    this.position += count;
    this.filled += count;
    return true;
  }
}

/** An intermediate run: lines kept whole, keys and all. */
class RunWriter extends ByteWriter implements LineWriter {
  add(_key: string, line: Buffer, start: number, _keyEnd: number, end: number): void {
    this.write(line, start, end);
  }
}
