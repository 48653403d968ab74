// Writes each state's published ads into one file, .content/ads/{State Name}.ndjson: city by city
// (cities in name order), each city's ads in list order, one JSON object a line.
// .content/ads/index.json says where each city's lines are and holds a digest of them, so the site
// reads one city's ads without the rest and the prerenderer tells which cities changed without
// reading any ad. .content/ads/ids.idx says where each ad's line is, by id (ad-id-index.ts), made
// from each state's records ({State Name}.ids), written with its file.
// A state's file is merged from runs: each checked batch of ads (ad-batch-cache.ts) keeps its
// published ads state by state, each state's sorted by `listKey` and written `{listKey}<TAB>{json}`.
// The runs of a state are merged a line at a time through small buffers, however many there are
// (more than MAX_RUNS_AT_ONCE are first merged in groups), so memory stays flat whatever the shape
// of the content. A state's file is rewritten only when its runs change.
import { createHash, type Hash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { adIdIndexFile, stateIdsFile } from '../../content/ad-id-index-file.ts';
import type { ListOrderFields } from '../../content/ad-order.ts';
import { replaceFile } from '../replace-file.ts';
import type { AdsIndex, CityAdsEntry } from '../../schemas/compiled-content.ts';
import { AdIdList, idOfLine, scanStateIds, writeAdIdIndex } from './ad-id-index.ts';

export const adsIndexFile = (compiledDir: string) => join(compiledDir, 'ads', 'index.json');

/** Where one batch's run of a state's ads is, in that batch's file of runs. */
export interface StateRun {
  file: string;
  offset: number;
  bytes: number;
}

export interface StateRuns {
  state: string;
  /** Identifies the runs' contents: equal when the state's ads are the same. */
  pieces: string;
  /** The runs, in source order: asked for only when the state's file is merged. */
  runs(): StateRun[];
}

/** More runs than this are merged in groups first (each open run holds a file and a buffer). */
const MAX_RUNS_AT_ONCE = 256;
/** Read buffers of the runs being merged: one block, shared out, allocated once. */
const MERGE_BUFFERS = 8 << 20;
const WRITE_BUFFER = 1 << 20;
/**
 * Buffers live outside the JavaScript heap, but V8 counts them and collects garbage when many are
 * allocated: a merge of fifty states from thousands of runs would mostly collect. So the buffers
 * are allocated once and reused by every merge.
 */
const buffers = {
  merge: undefined as Buffer | undefined,
  write: [] as Buffer[],
};
const TAB = 0x09;
const LF = 0x0a;

/**
 * A string whose order is the list order of a city's ads (featured first, newest first, highest id
 * first; src/content/ad-order.ts), after the city's name: the runs sort and merge by it alone.
 */
export function listKey(ad: ListOrderFields & { city: string }): string {
  const id = Number.isSafeInteger(ad.id) ? String(ad.id) : BigInt(ad.id).toString();
  return (
    `${ad.city}\u0000${ad.featured ? '0' : '1'}` +
    invertDigits(ad.postedAt.replace(/-/g, '')) +
    invertDigits(String(id.length).padStart(3, '0')) +
    invertDigits(id)
  );
}

/** 0 ↔ 9, 1 ↔ 8, …: the larger number sorts first. */
function invertDigits(digits: string): string {
  let inverted = '';
  for (let index = 0; index < digits.length; index += 1)
    inverted += String.fromCharCode(105 - digits.charCodeAt(index));
  return inverted;
}

/** The city a run line's key belongs to. */
const cityOfKey = (key: string) => key.slice(0, key.indexOf('\u0000'));

export function readAdsIndex(compiledDir: string): AdsIndex {
  try {
    return JSON.parse(readFileSync(adsIndexFile(compiledDir), 'utf8')) as AdsIndex;
  } catch {
    return {};
  }
}

/** The state files of a build, merged but not yet in place. */
export interface StateAdFiles {
  /** The index they make: where each city's ads are, and how many. */
  index: AdsIndex;
  /** State files merged anew (the others were unchanged). */
  written: number;
  /**
   * Puts the new files, the id index and the index in place; removes the files of states with no
   * ads left.
   */
  commit(): void;
  /** Removes the new files (the content has problems: nothing is written). */
  discard(): void;
}

/** Merges the states whose runs changed into `{state}.ndjson.next` files. */
export function mergeStateAdFiles(
  compiledDir: string,
  states: readonly StateRuns[],
  allStates: readonly string[],
): StateAdFiles {
  const adsDir = join(compiledDir, 'ads');
  mkdirSync(adsDir, { recursive: true });
  const previous = readAdsIndex(compiledDir);
  const index: AdsIndex = {};
  const merged: string[] = [];
  /** States whose id records are new (`.next`): merged anew, or read from an older file. */
  const newIds: string[] = [];
  const stateFile = (state: string) => join(adsDir, `${state}.ndjson`);
  const idsFile = (state: string) => stateIdsFile(compiledDir, state);
  // The index lists the states in name order, however the ads were split across files.
  const order = new Map(allStates.map((state, index) => [state, index]));
  const byName = [...states].sort(
    (a, b) => (order.get(a.state) ?? Infinity) - (order.get(b.state) ?? Infinity),
  );
  for (const entry of byName) {
    const file = stateFile(entry.state);
    const before = previous[entry.state];
    if (before?.pieces === entry.pieces && existsSync(file)) {
      index[entry.state] = before;
      // Written before the id index existed: its records come from reading it once.
      if (!existsSync(idsFile(entry.state))) {
        scanStateIds(file).write(`${idsFile(entry.state)}.next`);
        newIds.push(entry.state);
      }
      continue;
    }
    const { cities, ids } = mergeRuns(entry.runs(), `${file}.next`, join(adsDir, '.merging'));
    ids.write(`${idsFile(entry.state)}.next`);
    index[entry.state] = { pieces: entry.pieces, cities };
    merged.push(file);
    newIds.push(entry.state);
  }
  const gone = allStates.filter(
    (state) => !index[state] && (existsSync(stateFile(state)) || existsSync(idsFile(state))),
  );
  const idIndex = adIdIndexFile(compiledDir);
  return {
    index,
    written: merged.length,
    commit() {
      // The id index first, beside the one in place: made while the old files are all still there.
      const staleIds = newIds.length > 0 || gone.length > 0 || !existsSync(idIndex);
      if (staleIds)
        writeAdIdIndex(
          `${idIndex}.next`,
          Object.keys(index).map((state) => ({
            state,
            idsFile: newIds.includes(state) ? `${idsFile(state)}.next` : idsFile(state),
          })),
        );
      for (const file of merged) renameSync(`${file}.next`, file);
      for (const state of newIds) renameSync(`${idsFile(state)}.next`, idsFile(state));
      // Right after the state files (a few renames apart), so a reader that finds a line where
      // the id index said, sees the index that goes with it; one that does not (between two
      // renames) looks again (src/content/ad-by-id.ts).
      if (staleIds) renameSync(`${idIndex}.next`, idIndex);
      for (const state of gone) {
        rmSync(stateFile(state), { force: true });
        rmSync(idsFile(state), { force: true });
      }
      // Whole or not at all: the running server may read it while a publish runs.
      replaceFile(adsIndexFile(compiledDir), JSON.stringify(index));
    },
    discard() {
      for (const file of merged) rmSync(`${file}.next`, { force: true });
      for (const state of newIds) rmSync(`${idsFile(state)}.next`, { force: true });
    },
  };
}

/**
 * Merges runs into a state file (keys dropped) and says where each city's lines are, and each
 * ad's line.
 */
function mergeRuns(
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

interface LineWriter {
  /** A run line: `line[keyEnd]` is its tab. */
  add(key: string, line: Buffer, start: number, keyEnd: number, end: number): void;
  /** Bytes written. */
  close(): number;
}

/** Merges sorted runs by their keys into `writer`, stable in the order of `runs`. */
function merge(runs: readonly StateRun[], writer: LineWriter): number {
  const block = (buffers.merge ??= Buffer.allocUnsafe(MERGE_BUFFERS));
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

/** Writes bytes to a file through a buffer (taken from `buffers.write`, given back on close). */
class ByteWriter {
  protected buffer = buffers.write.pop() ?? Buffer.allocUnsafe(WRITE_BUFFER);
  protected filled = 0;
  protected written = 0;
  private readonly fd: number;

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  protected write(source: Buffer, start: number, end: number): void {
    if (this.filled + (end - start) > this.buffer.length) this.flush();
    if (end - start > this.buffer.length) {
      writeSync(this.fd, source, start, end - start);
    } else {
      source.copy(this.buffer, this.filled, start, end);
      this.filled += end - start;
    }
    this.written += end - start;
  }

  protected flush(): void {
    if (this.filled > 0) writeSync(this.fd, this.buffer, 0, this.filled);
    this.filled = 0;
  }

  close(): number {
    this.flush();
    closeSync(this.fd);
    buffers.write.push(this.buffer);
    return this.written;
  }
}

/** An intermediate run: lines kept whole, keys and all. */
class RunWriter extends ByteWriter implements LineWriter {
  add(_key: string, line: Buffer, start: number, _keyEnd: number, end: number): void {
    this.write(line, start, end);
  }
}

/**
 * The state's file: each line's JSON, and for each city its offset, bytes, ads and digest, and
 * for each ad its id and line.
 */
class StateFileWriter extends ByteWriter implements LineWriter {
  readonly cities: Record<string, CityAdsEntry> = {};
  readonly ids = new AdIdList();
  private city: string | undefined;
  private entry: CityAdsEntry | undefined;
  private digest: Hash | undefined;
  /** Bytes of the buffer from here on belong to the current city and are not hashed yet. */
  private hashedUpTo = 0;

  add(key: string, line: Buffer, _start: number, keyEnd: number, end: number): void {
    const city = cityOfKey(key);
    if (city !== this.city) {
      this.endCity();
      this.city = city;
      this.entry = { offset: this.written, bytes: 0, ads: 0, digest: '' };
      this.cities[city] = this.entry;
      this.digest = createHash('sha1');
      this.hashedUpTo = this.filled;
    }
    const bytes = end - keyEnd - 1;
    this.ids.add(idOfLine(line, keyEnd + 1, end - 1), this.written, bytes);
    if (this.filled + bytes > this.buffer.length) this.flush();
    if (bytes > this.buffer.length) {
      this.digest!.update(line.subarray(keyEnd + 1, end));
      this.write(line, keyEnd + 1, end);
      this.hashedUpTo = this.filled;
    } else {
      this.write(line, keyEnd + 1, end);
    }
    this.entry!.bytes += bytes;
    this.entry!.ads += 1;
  }

  override close(): number {
    this.endCity();
    return super.close();
  }

  protected override flush(): void {
    this.hashPending();
    super.flush();
    this.hashedUpTo = 0;
  }

  private hashPending(): void {
    if (this.digest && this.filled > this.hashedUpTo)
      this.digest.update(this.buffer.subarray(this.hashedUpTo, this.filled));
    this.hashedUpTo = this.filled;
  }

  private endCity(): void {
    if (!this.entry || !this.digest) return;
    this.hashPending();
    this.entry.digest = this.digest.digest('base64url');
    this.entry = undefined;
    this.digest = undefined;
  }
}
