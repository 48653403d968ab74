// Where ads come from. The compiler reads every source the same way: a source hands over its ads
// in batches, each naming the place its rows come from (problems and duplicate ids name it, with
// the row's line) and carrying a key that changes with its rows, so that a batch checked before is
// not checked again. The CSV files of content/ads/ are one source (csv-ad-source.ts), cut into
// batches of about a thousand rows however the ads are split across files; approved member ads
// from the database are the other (database-ad-source.ts).
import type { AdCheckContext } from './check-ad-row.ts';
import type { CsvSegmentJob, VisitAdRow } from './check-csv-segment.ts';
import type { ContentProblem } from './report.ts';

/** Receives a checked row: its line in the batch's origin, and its outcome. */

export interface AdBatch {
  /** Where its rows come from, as problems name it: `content/ads/california.csv`. */
  origin: string;
  /** The line (or position) in `origin` where the batch starts. */
  line: number;
  /** Equal keys, equal rows: with the same check context, a batch checks to the same outcome. */
  key: string;
  /**
   * Reads and checks its rows, handing each outcome to `visit` in order, one at a time (a batch's
   * rows are never all held). Returns the problems that stop its whole origin, if any (a CSV
   * syntax error): then nothing of the origin counts, whatever was handed over before.
   */
  check(context: AdCheckContext, visit: VisitAdRow): ContentProblem[];
  /** The same check as plain data, for a worker thread to run beside the main thread (CSV batches). */
  job?: CsvSegmentJob;
  /**
   * Its rows' problems leave those rows out of the site with a warning instead of failing the
   * build (member ads: the site still publishes). The source hands such rows over without an ad.
   */
  lenient?: boolean;
  /** How messages name the row at `line`, when `{origin}:{line}` would not say (`member ad 100000123 (database)`). */
  rowName?(line: number): string;
}

export interface AdSource {
  /** Its batches, in a stable order (the first use of an id is the first in this order). */
  batches(): { batches: AdBatch[]; problems: ContentProblem[] };
  /** Lets go of what reading held (the database connection), once every batch is read. */
  close?(): void;
}
