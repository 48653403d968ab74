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
  let records: { record: Record<string, string>; info: { lines: number }; raw: string }[];
  let header: string[] = [];
  try {
    records = parse(text, {
      columns: (names: string[]) => (header = names.map((name) => name.trim())),
      skip_empty_lines: true,
      bom: true,
      info: true,
      raw: true,
      relax_column_count: false,
    });
  } catch (error) {
    const lines = (error as { lines?: number }).lines ?? 1;
    const reason = error instanceof Error ? error.message.replace(/^Invalid Record Length: /, '') : String(error);
    return { rows: [], problems: [{ file, line: lines, field: 'file', message: `is not valid CSV: ${reason}` }] };
  }
  const allowed = new Set([...columns.required, ...(columns.optional ?? [])]);
  const problems: ContentProblem[] = [
    ...columns.required
      .filter((name) => !header.includes(name))
      .map((name) => ({ file, line: 1, field: name, message: `missing column '${name}' in the header row` })),
    ...header
      .filter((name) => !allowed.has(name))
      .map((name) => ({ file, line: 1, field: name, message: `unknown column; allowed: ${[...allowed].join(', ')}` })),
  ];
  if (problems.length > 0) return { rows: [], problems };
  // csv-parse counts the line a record ends on; a quoted cell may span several lines.
  const startLine = (endLine: number, raw: string) => endLine - (raw.replace(/\r?\n$/, '').match(/\n/g)?.length ?? 0);
  return { rows: records.map(({ record, info, raw }) => ({ line: startLine(info.lines, raw), cells: record })), problems };
}
