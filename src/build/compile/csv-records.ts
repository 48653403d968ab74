// Splits CSV text into its records' raw text, with the line each starts on, without parsing cells:
// a line break ends a record only outside quotes, and since quotes inside a quoted cell are
// doubled, that is where the count of quote characters so far is even. The incremental ads check
// uses it to find the rows that changed since the last build; csv-parse still parses every row it
// checks. Blank lines are skipped (as csv-parse's skip_empty_lines does).

export interface RawRecord {
  text: string;
  /** 1-based line the record starts on. */
  line: number;
}

/** The records (the header first), or undefined when a quote is left open at the end. */
export function splitCsvRecords(text: string): RawRecord[] | undefined {
  const records: RawRecord[] = [];
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    let quotes = countQuotes(text, start, end === -1 ? text.length : end);
    let lines = 1;
    while (quotes % 2 === 1) {
      if (end === -1) return undefined;
      const next = text.indexOf('\n', end + 1);
      quotes += countQuotes(text, end + 1, next === -1 ? text.length : next);
      lines += 1;
      end = next;
    }
    const stop = end === -1 ? text.length : end;
    const record = text.slice(start, stop);
    if (record !== '' && record !== '\r') records.push({ text: record, line });
    line += lines;
    start = stop + 1;
  }
  return records;
}

function countQuotes(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('"', from); at !== -1 && at < to; at = text.indexOf('"', at + 1))
    count += 1;
  return count;
}
