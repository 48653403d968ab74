// Pins how an ads CSV is cut into segments without being read whole: records found by quote
// parity, the lines they start on, and cuts that an edit elsewhere does not move.
import { describe, expect, test } from 'vitest';
import {
  scanCsvBytes,
  SEGMENT_LIMITS,
  type SegmentLimits,
} from '../../../../pipeline/compile/csv-segments.ts';

/** A cut after every record, read a few bytes at a time: every boundary case shows. */
const EVERY_RECORD: SegmentLimits = {
  ...SEGMENT_LIMITS,
  minRows: 1,
  averageRows: 1,
  readBytes: 7,
  maxRecordBytes: 64,
};

/** Each segment's text and the line it starts on. */
function segments(text: string, limits: SegmentLimits = EVERY_RECORD) {
  const bytes = Buffer.from(text);
  const scan = scanCsvBytes(bytes, limits);
  return {
    header: scan.header,
    headerLine: scan.headerLine,
    problem: scan.problem,
    segments: scan.segments.map((segment) => ({
      text: bytes.toString('utf8', segment.offset, segment.offset + segment.bytes),
      line: segment.line,
      rows: segment.rows,
    })),
  };
}

describe('scanCsvBytes', () => {
  test('gives the header, then the records with the line each starts on', () => {
    expect(segments('id,title\n1,Coffee\n2,Walk\n')).toEqual({
      header: 'id,title',
      headerLine: 1,
      problem: undefined,
      segments: [
        { text: '1,Coffee\n', line: 2, rows: 1 },
        { text: '2,Walk\n', line: 3, rows: 1 },
      ],
    });
  });

  test('keeps the last record when the text does not end with a line break', () => {
    expect(segments('id,title\n1,Coffee').segments).toEqual([
      { text: '1,Coffee', line: 2, rows: 1 },
    ]);
  });

  test('keeps a quoted cell over several lines in one record, and counts its lines', () => {
    expect(
      segments('id,description\n1,"first line\nsecond line\nthird line"\n2,plain\n').segments,
    ).toEqual([
      { text: '1,"first line\nsecond line\nthird line"\n', line: 2, rows: 1 },
      { text: '2,plain\n', line: 5, rows: 1 },
    ]);
  });

  test('reads doubled quotes inside a quoted cell as part of the cell', () => {
    expect(
      segments('id,title\n1,"say ""hi""\nand ""bye"""\n2,"a ""quoted"" word"\n3,x\n').segments,
    ).toEqual([
      { text: '1,"say ""hi""\nand ""bye"""\n', line: 2, rows: 1 },
      { text: '2,"a ""quoted"" word"\n', line: 4, rows: 1 },
      { text: '3,x\n', line: 5, rows: 1 },
    ]);
  });

  test('counts blank lines, which belong to the segment after them', () => {
    expect(segments('\nid,title\n\n1,Coffee\n\n\n2,Walk\n\n')).toMatchObject({
      header: 'id,title',
      headerLine: 2,
      segments: [
        { text: '\n1,Coffee\n', line: 3, rows: 1 },
        { text: '\n\n2,Walk\n', line: 5, rows: 1 },
        { text: '\n', line: 8, rows: 0 },
      ],
    });
  });

  test('keeps CR LF line ends in the records, and the header ends with its CR', () => {
    expect(segments('id,description\r\n1,"two\r\nlines"\r\n\r\n2,Walk\r\n')).toMatchObject({
      header: 'id,description\r',
      segments: [
        { text: '1,"two\r\nlines"\r\n', line: 2, rows: 1 },
        { text: '\r\n2,Walk\r\n', line: 4, rows: 1 },
      ],
    });
  });

  test('leaves a leading byte order mark out of the header', () => {
    expect(segments('\uFEFFid,title\n1,Coffee\n').header).toBe('id,title');
  });

  test('ends at the end of the bytes when a quote is left open (csv-parse then says so)', () => {
    expect(segments('id,title\n1,"never closed\n2,Walk\n').segments).toEqual([
      { text: '1,"never closed\n2,Walk\n', line: 2, rows: 1 },
    ]);
  });

  test('refuses a record longer than any ad, naming the line it starts on', () => {
    const scan = segments(`id,title\n1,ok\n2,"${'x'.repeat(100)}\n`);
    expect(scan.problem?.line).toBe(3);
    expect(scan.problem?.message).toMatch(/^the row starting on this line runs on for more than/);
    expect(scan.segments).toEqual([{ text: '1,ok\n', line: 2, rows: 1 }]);
  });

  test('gives no header and no segments for empty text', () => {
    expect(segments('')).toEqual({
      header: undefined,
      headerLine: 1,
      problem: undefined,
      segments: [],
    });
  });

  test('hashes each segment: equal text, equal digest', () => {
    const scan = scanCsvBytes(Buffer.from('id\n1\n2\n1\n'), EVERY_RECORD);
    const [one, two, again] = scan.segments.map((segment) => segment.digest);
    expect(one).toBe(again);
    expect(one).not.toBe(two);
  });
});

describe('content-defined cuts', () => {
  const LIMITS: SegmentLimits = { ...SEGMENT_LIMITS, minRows: 4, averageRows: 16 };
  const rows = Array.from(
    { length: 2000 },
    (_, index) => `${100000 + index},Vermont,Burlington,"Ad number ${index}"`,
  );
  const digests = (lines: string[]) =>
    scanCsvBytes(Buffer.from(`id,state,city,title\n${lines.join('\n')}\n`), LIMITS).segments.map(
      (segment) => segment.digest,
    );

  test('cut a file into segments of about the average size', () => {
    const count = digests(rows).length;
    expect(count).toBeGreaterThan(2000 / 16 / 2);
    expect(count).toBeLessThan((2000 / 16) * 2);
  });

  test('stay where they were when a row is inserted: only its segment changes', () => {
    const before = new Set(digests(rows));
    const inserted = [
      ...rows.slice(0, 1000),
      '999999,Vermont,Burlington,"New"',
      ...rows.slice(1000),
    ];
    const after = digests(inserted);
    const changed = after.filter((digest) => !before.has(digest));
    expect(changed.length).toBeLessThanOrEqual(2);
    expect(after.length - changed.length).toBeGreaterThanOrEqual(before.size - 2);
  });
});
