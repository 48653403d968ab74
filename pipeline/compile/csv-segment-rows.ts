// Reads the rows of one segment of a CSV file (csv-segments.ts) exactly as csv-parse reads them in
// the whole file: the same cells, the same line numbers, the same first error. Most records are
// plain (cells unquoted, or quoted with doubled quotes inside, lines ended the file's way) and are
// split here, several times faster than csv-parse; a segment with any other record is handed to
// csv-parse whole, after the header and as many blank lines as put its first line where it is in
// the file, so that the rows' lines and any error's message are those of the whole file.
import { parse } from 'csv-parse/sync';
import { readCsv, type CsvColumns, type CsvRow } from './read-csv.ts';
import type { ContentProblem } from './report.ts';

export interface SegmentBytes {
  /** The file's header record as written (csv-segments.ts), and its line. */
  header: string;
  headerLine: number;
  /** The segment's bytes and the line it starts on. */
  bytes: Buffer;
  line: number;
}

/**
 * Hands each row of a segment to `visit`, in order; returns the file's CSV error if it is in this
 * segment (then some rows before it may have been handed over; nothing of the file counts).
 */
export function readSegmentRows(
  segment: SegmentBytes,
  file: string,
  columns: CsvColumns,
  visit: (row: CsvRow) => void,
): ContentProblem[] {
  const names = headerNames(segment.header);
  const crlf = segment.header.endsWith('\r');
  // Rows are handed over as they are split, while they are plain: csv-parse reads those the same.
  const plainRows = names ? splitPlainRecords(segment.bytes, segment.line, names, crlf, visit) : 0;
  if (plainRows === true) return [];
  const eol = crlf ? '\r\n' : '\n';
  const padded =
    eol.repeat(segment.headerLine - 1) +
    segment.header.replace(/\r$/, '') +
    eol.repeat(segment.line - segment.headerLine) +
    segment.bytes.toString('utf8');
  const { rows, problems } = readCsv(padded, file, columns);
  if (problems.length > 0) return problems;
  for (let index = plainRows; index < rows.length; index += 1) visit(rows[index]!);
  return [];
}

const namesOfHeader = new Map<string, string[] | undefined>();

/** The header's column names as csv-parse reads them (trimmed), or undefined if it is not plain. */
function headerNames(header: string): string[] | undefined {
  if (!namesOfHeader.has(header)) {
    let names: string[] | undefined;
    try {
      const [record] = parse(header.replace(/\r$/, ''), { bom: true }) as string[][];
      names = record?.map((name) => name.trim());
      // Columns named twice: csv-parse's way with them is its own; let it read such files.
      if (names && new Set(names).size !== names.length) names = undefined;
    } catch {
      names = undefined;
    }
    namesOfHeader.set(header, names);
  }
  return namesOfHeader.get(header);
}

const QUOTE = 0x22;
const LF = 0x0a;

/**
 * Splits records whose every cell is plain: unquoted without quotes or carriage returns, or
 * quoted with doubled quotes inside and a comma or the record's end right after, handing each to
 * `visit`. Stops at the first record that is anything else, or has another count of cells
 * (csv-parse then decides), and says how many it handed over; true when it read them all. Each
 * record is decoded on its own: a string holding one character beyond Latin-1 is stored two bytes
 * a character, and the checks' regular expressions run several times slower over it, so one such
 * character should not slow down a thousand rows.
 */
export function splitPlainRecords(
  bytes: Buffer,
  firstLine: number,
  names: readonly string[],
  crlf: boolean,
  visit: (row: CsvRow) => void,
): number | true {
  let rows = 0;
  let at = 0;
  let line = firstLine;
  while (at < bytes.length) {
    // The record's end: a line feed after an even count of quotes (or the end of the bytes).
    let from = at;
    let quotes = 0;
    let lines = 1;
    let end: number;
    for (;;) {
      const lineFeed = bytes.indexOf(LF, from);
      const stop = lineFeed === -1 ? bytes.length : lineFeed;
      for (
        let q = bytes.indexOf(QUOTE, from);
        q !== -1 && q < stop;
        q = bytes.indexOf(QUOTE, q + 1)
      )
        quotes += 1;
      if (quotes % 2 === 0) {
        end = stop;
        break;
      }
      if (lineFeed === -1) return rows; // a quote left open
      lines += 1;
      from = lineFeed + 1;
    }
    const terminated = end < bytes.length;
    let text = bytes.toString('utf8', at, end);
    at = end + 1;
    if (crlf && terminated) {
      // Lines end with CR LF: a bare line feed is data to csv-parse, not a record's end.
      if (!text.endsWith('\r')) return rows;
      text = text.slice(0, -1);
    }
    if (text === '') {
      line += lines; // a blank line: csv-parse skips it
      continue;
    }
    const cells = splitRecord(text, names);
    if (!cells) return rows;
    visit({ line, cells });
    rows += 1;
    line += lines;
  }
  return true;
}

/** A plain record's cells by column name, or undefined. */
function splitRecord(text: string, names: readonly string[]): Record<string, string> | undefined {
  const cells: Record<string, string> = {};
  let column = 0;
  let at = 0;
  for (;;) {
    let value: string;
    if (text.charCodeAt(at) === QUOTE) {
      let piece = at + 1;
      value = '';
      for (;;) {
        const close = text.indexOf('"', piece);
        if (close === -1) return undefined;
        if (text.charCodeAt(close + 1) === QUOTE) {
          value += text.slice(piece, close + 1);
          piece = close + 2;
          continue;
        }
        value += text.slice(piece, close);
        at = close + 1;
        break;
      }
    } else {
      const comma = text.indexOf(',', at);
      const stop = comma === -1 ? text.length : comma;
      value = text.slice(at, stop);
      if (value.includes('"') || value.includes('\r')) return undefined;
      at = stop;
    }
    const name = names[column];
    if (name === undefined) return undefined;
    cells[name] = value;
    column += 1;
    if (at === text.length) break;
    if (text.charCodeAt(at) !== 0x2c) return undefined; // a comma must follow a closing quote
    at += 1;
  }
  return column === names.length ? cells : undefined;
}
