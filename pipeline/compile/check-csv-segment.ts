// Checks one segment of an ads CSV (csv-segments.ts): reads its bytes at their place in the file,
// splits its rows (csv-segment-rows.ts) and checks each (check-ad-row.ts). Plain data in, so that
// the worker thread of check-ads-in-parallel.ts runs it as the main thread does.
import { closeSync, openSync, readSync } from 'node:fs';
import { AD_COLUMNS } from '../../core/schemas/ad.ts';
import type { AdRowOutcome } from './check-ad-row.ts';
import { checkAdRow, type AdCheckContext } from './check-ad-row.ts';
import { readSegmentRows } from './csv-segment-rows.ts';
import type { ContentProblem } from './report.ts';

export type VisitAdRow = (line: number, outcome: AdRowOutcome) => void;

export interface CsvSegmentJob {
  /** Name in problems (`content/ads/x.csv`). */
  file: string;
  path: string;
  /** The file's header record as written, and its line. */
  header: string;
  headerLine: number;
  /** Where the segment is in the file, and the line it starts on. */
  offset: number;
  bytes: number;
  line: number;
}

/** Checks the segment's rows, handing each outcome to `visit`; the file's CSV error, if it is here. */
export function checkCsvSegment(
  job: CsvSegmentJob,
  context: AdCheckContext,
  visit: VisitAdRow,
): ContentProblem[] {
  const bytes = readBytes(job.path, job.offset, job.bytes);
  return readSegmentRows(
    { header: job.header, headerLine: job.headerLine, bytes, line: job.line },
    job.file,
    { required: AD_COLUMNS },
    (row) => visit(row.line, checkAdRow(row.cells, row.line, job.file, context)),
  );
}

export function readBytes(path: string, offset: number, bytes: number): Buffer {
  const buffer = Buffer.allocUnsafe(bytes);
  const fd = openSync(path, 'r');
  try {
    let done = 0;
    while (done < bytes) {
      const count = readSync(fd, buffer, done, bytes - done, offset + done);
      if (count === 0) throw new Error(`${path} ended before byte ${offset + bytes}`);
      done += count;
    }
  } finally {
    closeSync(fd);
  }
  return buffer;
}
