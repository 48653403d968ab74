// Reads a content CSV into rows of strings with their line numbers, checking the header.
import { parse } from 'csv-parse/sync';
import type { ContentProblem } from './report.ts';

export interface CsvRow {
  line: number;
  cells: Record<string, string>;
}

export interface CsvColumns {
  required: readonly string[];
  optional?: readonly string[];
}

export function readCsv(
  text: string,
  file: string,
  columns: CsvColumns,
): { rows: CsvRow[]; problems: ContentProblem[] } {
  let records: { record: Record<string, string>; info: { lines: number; empty_lines: number } }[];
  let header: string[] = [];
  try {
    records = parse(text, {
      columns: (names: string[]) => (header = names.map((name) => name.trim())),
      skip_empty_lines: true,
      bom: true,
      info: true,
      relax_column_count: false,
    });
  } catch (error) {
    const lines = (error as { lines?: number }).lines ?? 1;
    const reason =
      error instanceof Error
        ? error.message.replace(/^Invalid Record Length: /, '')
        : String(error);
    return {
      rows: [],
      problems: [{ file, line: lines, field: 'file', message: `is not valid CSV: ${reason}` }],
    };
  }
  const allowed = new Set([...columns.required, ...(columns.optional ?? [])]);
  const problems: ContentProblem[] = [
    ...columns.required
      .filter((name) => !header.includes(name))
      .map((name) => ({
        file,
        line: 1,
        field: name,
        message: `missing column '${name}' in the header row`,
      })),
    ...header
      .filter((name) => !allowed.has(name))
      .map((name) => ({
        file,
        line: 1,
        field: name,
        message: `unknown column; allowed: ${[...allowed].join(', ')}`,
      })),
  ];
  if (problems.length > 0) return { rows: [], problems };
  // csv-parse counts the line a record ends on (a quoted cell may span several lines): a record
  // starts on the line after the previous one ended, past any blank lines skipped in between.
  let previousEnd = 1;
  let previousBlank = 0;
  const rows = records.map(({ record, info }) => {
    const line = previousEnd + 1 + (info.empty_lines - previousBlank);
    previousEnd = info.lines;
    previousBlank = info.empty_lines;
    return { line, cells: record };
  });
  return { rows, problems };
}
