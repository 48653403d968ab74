// Pins that a segment's rows read as csv-parse reads the whole file: the fast split of plain
// records gives csv-parse's cells and lines, and anything else is csv-parse's, lines and errors
// as in the whole file.
import { describe, expect, test } from 'vitest';
import {
  readSegmentRows,
  splitPlainRecords,
} from '../../../../pipeline/compile/csv-segment-rows.ts';
import type { CsvRow } from '../../../../pipeline/compile/read-csv.ts';
import { readCsv } from '../../../../pipeline/compile/read-csv.ts';

const NAMES = ['id', 'title', 'description'];
const COLUMNS = { required: NAMES };

/** Rows of `body` split fast (as if it started on line 2, after the header), and how far it got. */
function split(body: string, crlf = false) {
  const rows: CsvRow[] = [];
  const done = splitPlainRecords(Buffer.from(body), 2, NAMES, crlf, (row) => rows.push(row));
  return { rows, done };
}

/** csv-parse's rows of the whole file. */
const csvParse = (text: string) => readCsv(text, 'content/ads/x.csv', COLUMNS).rows;

describe('splitPlainRecords', () => {
  test.each([
    ['unquoted cells', '1,Coffee,A walk.\n2,Tea,Then lunch.\n'],
    ['quoted cells with commas and doubled quotes', '1,"Coffee, tea","Say ""hi"", then"\n'],
    ['a quoted cell over several lines', '1,Walk,"First line\nsecond line"\n2,x,y\n'],
    ['empty cells, quoted and not', '1,,""\n2,"",\n'],
    ['blank lines between records', '\n1,a,b\n\n\n2,c,d\n'],
    ['a last record without a line break', '1,a,b\n2,c,d'],
    ['letters beyond Latin-1', '1,Kalāheo,‘Aiea and Cañon City\n'],
  ])('read %s as csv-parse does', (_name, body) => {
    const { rows, done } = split(body);
    expect(done).toBe(true);
    expect(rows).toEqual(csvParse(`${NAMES.join(',')}\n${body}`));
  });

  // csv-parse counts a CR LF inside a quoted cell as two lines; the editor's line is the other's.
  test('read CR LF records as csv-parse does, CR LF inside a quoted cell kept', () => {
    const body = '1,a,"two\r\nlines"\r\n\r\n2,c,d\r\n';
    const { rows, done } = split(body, true);
    expect(done).toBe(true);
    const wholeFile = csvParse(`${NAMES.join(',')}\r\n${body}`);
    expect(rows.map((row) => row.cells)).toEqual(wholeFile.map((row) => row.cells));
    expect(rows.map((row) => row.line)).toEqual([2, 5]);
  });

  test.each([
    ['a quote inside an unquoted cell', '1,a,b\n2,say "hi",c\n'],
    ['text after a closing quote', '1,a,b\n2,"hi" there,c\n'],
    ['a record with a cell too few', '1,a,b\n2,c\n'],
    ['a record with a cell too many', '1,a,b\n2,c,d,e\n'],
    ['a carriage return in a file whose lines end with LF', '1,a,b\n2,c\rd,e\n'],
    ['a quote left open', '1,a,b\n2,"c,d\n'],
  ])('stop at %s, after handing over the records before it', (_name, body) => {
    const { rows, done } = split(body);
    expect(done).toBe(1);
    expect(rows).toEqual([{ line: 2, cells: { id: '1', title: 'a', description: 'b' } }]);
  });

  test('stop at a bare line feed in a file whose lines end with CR LF', () => {
    expect(split('1,a,b\r\n2,c,d\n3,e,f\r\n', true).done).toBe(1);
  });
});

describe('readSegmentRows', () => {
  const header = NAMES.join(',');
  const read = (body: string, line: number) => {
    const rows: CsvRow[] = [];
    const problems = readSegmentRows(
      { header, headerLine: 1, bytes: Buffer.from(body), line },
      'content/ads/x.csv',
      COLUMNS,
      (row) => rows.push(row),
    );
    return { rows, problems };
  };

  test('hands over a segment that is not plain as csv-parse reads it in the whole file', () => {
    // A lone carriage return inside a cell: csv-parse reads it as part of the cell.
    const body = '7,a,b\n8,c\rd,e\n9,e,f\n';
    const { rows, problems } = read(body, 40);
    expect(problems).toEqual([]);
    expect(rows).toEqual(csvParse(`${header}\n${'\n'.repeat(38)}${body}`));
    expect(rows.map((row) => row.line.toString()).slice(0, 2)).toEqual(['40', '41']);
    expect(rows[1]?.cells.title).toBe('c\rd');
  });

  test("gives the whole file's CSV error, with the line of the whole file", () => {
    const { problems } = read('7,a,b\n8,c\n', 40);
    expect(problems).toEqual(
      readCsv(`${header}\n${'\n'.repeat(38)}7,a,b\n8,c\n`, 'content/ads/x.csv', COLUMNS).problems,
    );
    expect(problems[0]?.line).toBe(41);
  });
});
