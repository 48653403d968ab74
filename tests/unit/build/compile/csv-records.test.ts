// Pins how the incremental ads check splits a CSV into records and the lines they start on.
import { describe, expect, test } from 'vitest';
import { splitCsvRecords } from '../../../../src/build/compile/csv-records.ts';

describe('splitCsvRecords', () => {
  test('gives each record with the 1-based line it starts on, the header first', () => {
    expect(splitCsvRecords('id,title\n1,Coffee\n2,Walk\n')).toEqual([
      { text: 'id,title', line: 1 },
      { text: '1,Coffee', line: 2 },
      { text: '2,Walk', line: 3 },
    ]);
  });

  test('keeps the last record when the text does not end with a line break', () => {
    expect(splitCsvRecords('id,title\n1,Coffee')).toEqual([
      { text: 'id,title', line: 1 },
      { text: '1,Coffee', line: 2 },
    ]);
  });

  test('keeps a quoted cell over several lines in one record, and counts its lines for the next', () => {
    expect(
      splitCsvRecords('id,description\n1,"first line\nsecond line\nthird line"\n2,plain\n'),
    ).toEqual([
      { text: 'id,description', line: 1 },
      { text: '1,"first line\nsecond line\nthird line"', line: 2 },
      { text: '2,plain', line: 5 },
    ]);
  });

  test('reads doubled quotes inside a quoted cell as part of the cell', () => {
    expect(
      splitCsvRecords('id,title\n1,"say ""hi""\nand ""bye"""\n2,"a ""quoted"" word"\n3,x\n'),
    ).toEqual([
      { text: 'id,title', line: 1 },
      { text: '1,"say ""hi""\nand ""bye"""', line: 2 },
      { text: '2,"a ""quoted"" word"', line: 4 },
      { text: '3,x', line: 5 },
    ]);
  });

  test('skips blank lines but counts them', () => {
    expect(splitCsvRecords('id,title\n\n1,Coffee\n\n\n2,Walk\n\n')).toEqual([
      { text: 'id,title', line: 1 },
      { text: '1,Coffee', line: 3 },
      { text: '2,Walk', line: 6 },
    ]);
  });

  test("splits CRLF lines, keeping each record's raw text, and skips blank CRLF lines", () => {
    expect(splitCsvRecords('id,description\r\n1,"two\r\nlines"\r\n\r\n2,Walk\r\n')).toEqual([
      { text: 'id,description\r', line: 1 },
      { text: '1,"two\r\nlines"\r', line: 2 },
      { text: '2,Walk\r', line: 5 },
    ]);
  });

  test('leaves a leading byte order mark out of the header', () => {
    expect(splitCsvRecords('\uFEFFid,title\n1,Coffee\n')).toEqual([
      { text: 'id,title', line: 1 },
      { text: '1,Coffee', line: 2 },
    ]);
  });

  test('gives undefined when a quote is left open at the end', () => {
    expect(splitCsvRecords('id,title\n1,"never closed\n2,Walk\n')).toBeUndefined();
    expect(splitCsvRecords('id,title\n1,"never closed')).toBeUndefined();
  });

  test('gives no records for empty text', () => {
    expect(splitCsvRecords('')).toEqual([]);
  });
});
