// Reading the compiled ads files (.content/ads/{State}.ndjson) for the search index: a city's
// lines a chunk at a time, the few fields the index needs found without parsing the whole line,
// and a quick digest that tells a changed line from the one indexed (write-search-index.ts).
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import type { CompiledAd } from '../core/schemas/compiled-content.ts';

/** Bytes of a state file read at a time. */
const CHUNK_BYTES = 1 << 20;

/**
 * A digest of a line's bytes: 53 bits of two FNV-1a lanes (a JavaScript loop over the bytes is
 * several times quicker than a crypto hash a line, for the 15,000 lines of a big city). It only
 * tells a changed line from the one stored for the same ad: a collision (about 1 in 2^53) would
 * keep that ad's previous text in the index until its next change.
 */
export function lineDigest(buffer: Buffer, start: number, end: number): number {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let index = start; index < end; index += 1) {
    const byte = buffer[index]!;
    a = Math.imul(a ^ byte, 0x01000193);
    b = Math.imul(b ^ byte, 0x5bd1e995);
  }
  return (a >>> 0) * 2 ** 21 + ((b >>> 0) >>> 11);
}

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

/** An ad's day from its line (a quote inside a string is escaped, so the first match is the field). */
export function postedAtOfLine(line: string): string {
  const match = /"postedAt":"(\d{4}-\d{2}-\d{2})"/.exec(line);
  return match ? match[1]! : (JSON.parse(line) as CompiledAd).postedAt;
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
  try {
    let buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(bytes, 1)));
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
  }
}
