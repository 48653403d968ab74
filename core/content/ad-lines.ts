// Reading the compiled ads files (.content/ads/{State}.ndjson: one ad a line, grouped by city):
// a city's lines a chunk at a time, and an ad's id without parsing its line. Read by the content
// index (index.ts, a city's ads) and by the search index (search/write-search-index.ts).
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import type { CompiledAd } from '../schemas/compiled-content.ts';

/** Bytes of a state file read at a time. */
const CHUNK_BYTES = 1 << 20;
/**
 * The chunk a thread reads into, kept from one call to the next: a buffer a call, sized to each
 * city, left thousands of small blocks to the garbage collector, and malloc's arena grew by some
 * 40 MB in the million-ad pages step. Taken while a call reads (a call inside `each` gets its own).
 */
let spareChunk: Buffer | undefined;

/** An ad's id from its line: the compiler writes it first (`{"id":1297,...`). */
export function idOfLine(line: string): number {
  const match = /^\{"id":(\d+)[,}]/.exec(line);
  return match ? Number(match[1]) : (JSON.parse(line) as CompiledAd).id;
}

/** An ad's id from its line's bytes, as idOfLine. */
export function idOfLineBytes(buffer: Buffer, start: number, end: number): number {
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

/**
 * Calls `each` with every line of `bytes` bytes of `file` from `offset`, a chunk at a time: the
 * buffer holding it, where it starts and ends there, and its offset in the file. The buffer is
 * reused: decode what is kept.
 */
export function forEachLine(
  file: string,
  offset: number,
  bytes: number,
  each: (buffer: Buffer, start: number, end: number, at: number) => void,
) {
  if (!existsSync(file)) throw new Error(`The compiled ads file ${file} is missing (a bug)`);
  const fd = openSync(file, 'r');
  let buffer = spareChunk ?? Buffer.allocUnsafe(CHUNK_BYTES);
  spareChunk = undefined;
  try {
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
    // A chunk grown for a line longer than a megabyte is not kept.
    if (buffer.length === CHUNK_BYTES) spareChunk = buffer;
  }
}
