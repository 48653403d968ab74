// Splits a CSV file into segments of whole records without ever holding the file: it is read a few
// MB at a time, and a record ends at a line break outside quotes (where the count of quote bytes
// so far is even, since quotes inside a quoted cell are doubled; neither byte occurs inside a
// multi-byte UTF-8 character). A file of a million rows is a few hundred MB, more than one
// JavaScript string may hold, so no step of the compiler reads a whole ads file at once.
// Segments are the unit of checking and caching (ad-batch-cache.ts): each is hashed as it is
// read, and a segment ends after a record whose first bytes hash to a chosen value (content-defined
// cuts), so that an edit, an insertion or a removal changes the segment it falls in and leaves the
// cuts elsewhere where they were: the next build finds every other segment unchanged.
import { closeSync, openSync, readSync } from 'node:fs';
import { hash, createHash, type Hash } from 'node:crypto';

export interface CsvSegment {
  /** Byte offset where the segment starts: just after the header, or after the previous segment. */
  offset: number;
  /** Its length in bytes, up to and including the line break of its last record. */
  bytes: number;
  /** The line it starts on (1-based; blank lines before its first record belong to it). */
  line: number;
  /** Records in it (blank lines are not records). */
  rows: number;
  /** SHA-1 of its bytes. */
  digest: string;
}

export interface CsvFileScan {
  /** The header record, as written (without a byte order mark or its line feed); undefined for a file without records. */
  header?: string;
  /** Line of the header record. */
  headerLine: number;
  /** The records after the header, in segments, in file order. */
  segments: CsvSegment[];
  /** Why the file could not be taken apart into records (then `segments` stops before that record). */
  problem?: { line: number; message: string };
}

export interface SegmentLimits {
  /** A segment may end after this many records (content-defined cuts only from here on). */
  minRows: number;
  /** Average records a segment, a power of two: a cut after a record whose hash is 0 modulo this. */
  averageRows: number;
  /** A segment always ends at this many records, or at this many bytes. */
  maxRows: number;
  maxBytes: number;
  /** A record longer than this is not an ad (an ad is at most a few KB): the file is refused there. */
  maxRecordBytes: number;
  /** Bytes read at a time. */
  readBytes: number;
}

export const SEGMENT_LIMITS: SegmentLimits = {
  minRows: 64,
  averageRows: 1024,
  maxRows: 8192,
  maxBytes: 4 << 20,
  maxRecordBytes: 1 << 20,
  readBytes: 4 << 20,
};

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BOM = [0xef, 0xbb, 0xbf];

/** Scans a CSV file into its header and segments. */
export function scanCsvFile(path: string, limits: SegmentLimits = SEGMENT_LIMITS): CsvFileScan {
  const fd = openSync(path, 'r');
  try {
    return scan((buffer, at, length) => readSync(fd, buffer, at, length, null), limits);
  } finally {
    closeSync(fd);
  }
}

/** Scans CSV bytes held in memory (tests). */
export function scanCsvBytes(bytes: Buffer, limits: SegmentLimits = SEGMENT_LIMITS): CsvFileScan {
  let position = 0;
  return scan((buffer, at, length) => {
    const count = bytes.copy(buffer, at, position, Math.min(bytes.length, position + length));
    position += count;
    return count;
  }, limits);
}

type Read = (buffer: Buffer, at: number, length: number) => number;

/**
 * The read buffer, reused from file to file: allocating megabytes for each of thousands of small
 * files makes V8 collect garbage over and over (it counts memory outside the heap too).
 */
let readBuffer: Buffer | undefined;

function scan(read: Read, limits: SegmentLimits): CsvFileScan {
  const result: CsvFileScan = { headerLine: 1, segments: [] };
  const cutMask = limits.averageRows - 1;
  // Twice the longest record: after moving the unread part to the front, there is room to read.
  const size = Math.max(limits.readBytes, limits.maxRecordBytes * 2);
  if (!readBuffer || readBuffer.length !== size) readBuffer = Buffer.allocUnsafe(size);
  const buffer = readBuffer;
  let filled = 0; // bytes of the file in `buffer`
  let bufferOffset = 0; // file offset of buffer[0]
  let eof = false;
  let at = 0; // the next record starts here (index in `buffer`)
  let line = 1; // on this line

  let segment:
    { offset: number; line: number; rows: number; hashed: number; sha: Hash } | undefined;
  const openSegment = () => {
    segment = { offset: bufferOffset + at, line, rows: 0, hashed: at, sha: createHash('sha1') };
  };
  const hashUpTo = (end: number) => {
    if (!segment) return;
    if (end > segment.hashed) segment.sha.update(buffer.subarray(segment.hashed, end));
    segment.hashed = end;
  };
  const closeSegment = () => {
    if (!segment) return;
    hashUpTo(at);
    const bytes = bufferOffset + at - segment.offset;
    if (bytes > 0)
      result.segments.push({
        offset: segment.offset,
        bytes,
        line: segment.line,
        rows: segment.rows,
        digest: segment.sha.digest('base64url'),
      });
    segment = undefined;
  };
  /** Moves the unread part of the buffer to its front and reads more after it; false at the end. */
  const readMore = (): boolean => {
    if (eof) return false;
    if (at > 0) {
      hashUpTo(at);
      buffer.copy(buffer, 0, at, filled);
      bufferOffset += at;
      filled -= at;
      if (segment) segment.hashed -= at;
      at = 0;
    }
    const count = read(buffer, filled, buffer.length - filled);
    if (count === 0) eof = true;
    filled += count;
    return count > 0;
  };

  readMore();
  if (filled >= 3 && BOM.every((byte, index) => buffer[index] === byte)) at = 3;
  for (;;) {
    // Find the end of the record starting at `at`: a line feed after an even count of quotes.
    let end: number; // index of its line feed, or `filled` for a last record without one
    let lines = 1;
    let quotes = 0;
    let from = at;
    for (;;) {
      const lineFeed = buffer.indexOf(LF, from);
      const stop = lineFeed === -1 || lineFeed >= filled ? filled : lineFeed;
      if (stop - at > limits.maxRecordBytes) {
        result.problem = {
          line,
          message:
            `the row starting on this line runs on for more than ${limits.maxRecordBytes >> 20} MB ` +
            '(an ad is at most a few KB): is a quote left open in it, or do its lines end with a ' +
            'carriage return alone?',
        };
        closeSegment();
        return result;
      }
      const lineQuotes = countQuotes(buffer, from, stop);
      if (stop < filled) {
        quotes += lineQuotes;
        if (quotes % 2 === 0) {
          end = stop;
          break;
        }
        lines += 1;
        from = stop + 1;
        continue;
      }
      // The record goes on past what is in the buffer: read more and look at this line again.
      const scanned = from - at;
      if (!readMore()) {
        end = filled;
        break;
      }
      from = at + scanned;
    }
    if (at >= filled) break;
    const start = at;
    const next = end < filled ? end + 1 : filled;
    const blank = end === start || (end === start + 1 && buffer[start] === CR);
    at = next;
    line += lines;
    if (blank) continue;
    if (result.header === undefined) {
      result.header = buffer.toString('utf8', start, end);
      result.headerLine = line - lines;
      openSegment();
      continue;
    }
    const current = segment!;
    current.rows += 1;
    if (
      current.rows >= limits.maxRows ||
      bufferOffset + at - current.offset >= limits.maxBytes ||
      (current.rows >= limits.minRows && (cutHash(buffer, start, end) & cutMask) === 0)
    ) {
      closeSegment();
      openSegment();
    }
  }
  closeSegment();
  return result;
}

function countQuotes(buffer: Buffer, from: number, to: number): number {
  let count = 0;
  for (
    let at = buffer.indexOf(QUOTE, from);
    at !== -1 && at < to;
    at = buffer.indexOf(QUOTE, at + 1)
  )
    count += 1;
  return count;
}

/** FNV-1a over a record's first and last bytes and its length: cheap, and decided by content alone. */
function cutHash(buffer: Buffer, start: number, end: number): number {
  let h = 0x811c9dc5 ^ (end - start);
  const head = Math.min(end, start + 24);
  for (let i = start; i < head; i += 1) h = Math.imul(h ^ buffer[i]!, 0x01000193);
  for (let i = Math.max(head, end - 8); i < end; i += 1) h = Math.imul(h ^ buffer[i]!, 0x01000193);
  return (h ^ (h >>> 15)) >>> 0;
}

/** SHA-1 of a string, base64url (cache keys). */
export const sha1 = (...parts: string[]) => hash('sha1', parts.join('\0'), 'base64url');
