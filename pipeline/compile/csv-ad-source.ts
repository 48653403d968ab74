// The CSV files of content/ads/ as a source of ads (ad-source.ts): each file is checked for its
// header, then cut into segments of about a thousand rows (csv-segments.ts), each a batch. A file
// is read a few MB at a time, never whole, so its size does not matter: one file of a million
// rows, fifty of twenty thousand or five thousand of two hundred all come to the same batches.
// With a scan cache, a file whose size, inode and modification time are those it had at the last
// build is not read at all: its segments are those found then.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileStamp } from '../fingerprint.mjs';
import { AD_COLUMNS } from '../../core/schemas/ad.ts';
import type { AdBatch, AdSource } from './ad-source.ts';
import { checkAdRow } from './check-ad-row.ts';
import { checkCsvSegment, type CsvSegmentJob } from './check-csv-segment.ts';
import { scanCsvFile, sha1, type CsvFileScan } from './csv-segments.ts';
import { readCsv } from './read-csv.ts';
import type { ContentProblem } from './report.ts';

export interface AdsFile {
  /** Name in problems (`content/ads/x.csv`). */
  file: string;
  path: string;
}

/** Each file's last scan, by its stat, between builds. */
export interface CsvScanCache {
  get(path: string, stamp: string): CsvFileScan | undefined;
  set(path: string, stamp: string, scan: CsvFileScan): void;
}

/** A file whose lines end with a lone carriage return is read whole by csv-parse, up to this size. */
const MAX_WHOLE_FILE_BYTES = 16 << 20;

export function csvAdSource(files: readonly AdsFile[], scans?: CsvScanCache): AdSource {
  return {
    batches() {
      const batches: AdBatch[] = [];
      const problems: ContentProblem[] = [];
      for (const entry of files) {
        try {
          const found = fileBatches(entry, scans);
          batches.push(...found.batches);
          problems.push(...found.problems);
        } catch (error) {
          // A file the system would not let us read (a folder, no permission): a problem, no stack.
          const { code } = error as { code?: unknown };
          if (typeof code !== 'string') throw error;
          problems.push({
            file: entry.file,
            line: 1,
            field: 'file',
            message: `cannot be read (${code})`,
          });
        }
      }
      return { batches, problems };
    },
  };
}

function fileBatches(
  { file, path }: AdsFile,
  scans: CsvScanCache | undefined,
): { batches: AdBatch[]; problems: ContentProblem[] } {
  const stats = statSync(path);
  const stamp = fileStamp(stats);
  let scan = scans?.get(path, stamp);
  if (!scan) {
    scan = scanCsvFile(path);
    scans?.set(path, stamp, scan);
  }
  const { header, headerLine } = scan;
  const refused = scan.problem && {
    batches: [],
    problems: [{ file, line: scan.problem.line, field: 'file', message: scan.problem.message }],
  };
  if (header === undefined)
    return refused || { batches: [], problems: readCsv('', file, columns).problems };
  if (/\r(?!$)/.test(header)) return wholeFile(file, path, stats.size);
  const headerProblems = checkHeader(header, file);
  if (headerProblems.length > 0) return { batches: [], problems: headerProblems };
  if (refused) return refused;
  const batches = scan.segments.map((segment): AdBatch => {
    const job: CsvSegmentJob = {
      file,
      path,
      header,
      headerLine,
      offset: segment.offset,
      bytes: segment.bytes,
      line: segment.line,
    };
    return {
      origin: file,
      line: segment.line,
      key: sha1('csv', header, segment.digest),
      check: (context, visit) => checkCsvSegment(job, context, visit),
      job,
    };
  });
  return { batches, problems: [] };
}

const columns = { required: AD_COLUMNS };

/** Headers found right: thousands of files share one, and csv-parse takes a while to start. */
const goodHeaders = new Set<string>();

function checkHeader(header: string, file: string): ContentProblem[] {
  if (goodHeaders.has(header)) return [];
  const { problems } = readCsv(`${header}\n`, file, columns);
  if (problems.length === 0) goodHeaders.add(header);
  return problems;
}

/**
 * A file whose records csv-segments.ts cannot find (lines ending with a lone carriage return, the
 * old Mac way) is read whole by csv-parse, as one batch, when it is small enough.
 */
function wholeFile(
  file: string,
  path: string,
  size: number,
): { batches: AdBatch[]; problems: ContentProblem[] } {
  if (size > MAX_WHOLE_FILE_BYTES)
    return {
      batches: [],
      problems: [
        {
          file,
          line: 1,
          field: 'file',
          message:
            'its lines end with a carriage return alone; save it with LF or CRLF line endings',
        },
      ],
    };
  const text = readFileSync(path, 'utf8');
  return {
    batches: [
      {
        origin: file,
        line: 1,
        key: sha1('csv-whole', text),
        check(context, visit) {
          const { rows, problems } = readCsv(text, file, columns);
          if (problems.length > 0) return problems;
          for (const row of rows) visit(row.line, checkAdRow(row.cells, row.line, file, context));
          return [];
        },
      },
    ],
    problems: [],
  };
}

/** The scan cache of the compiled-content folder: one JSON file, rewritten by `save()`. */
export function csvScanCache(file: string): CsvScanCache & { save(): void } {
  type Entry = { stamp: string; scan: CsvFileScan };
  let stored: Record<string, Entry> = {};
  try {
    if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Entry>;
  } catch {
    // An unreadable cache: scan afresh.
  }
  const used: Record<string, Entry> = {};
  return {
    get(path, stamp) {
      const entry = stored[path];
      if (entry?.stamp !== stamp) return undefined;
      used[path] = entry;
      return entry.scan;
    },
    set(path, stamp, scan) {
      used[path] = { stamp, scan };
    },
    save() {
      writeFileSync(file, JSON.stringify(used));
    },
  };
}
