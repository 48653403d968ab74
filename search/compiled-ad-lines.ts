// Reading the compiled ads files (.content/ads/{State}.ndjson) for the search index: the few fields
// the index needs found without parsing the whole line, and a quick digest that tells a changed
// line from the one indexed (write-search-index.ts). Lines are read a chunk at a time by
// core/content/ad-lines.ts.
import type { CompiledAd } from '../core/schemas/compiled-content.ts';

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

/** An ad's day from its line (a quote inside a string is escaped, so the first match is the field). */
export function postedAtOfLine(line: string): string {
  const match = /"postedAt":"(\d{4}-\d{2}-\d{2})"/.exec(line);
  return match ? match[1]! : (JSON.parse(line) as CompiledAd).postedAt;
}
