// What a checked batch of ads contributes to the build, small enough to keep between builds: its
// problems, ids (lines relative to the batch's first line, so that it stays true when rows are
// added above it) and how many ads it publishes. The ads themselves go elsewhere (a sink, or the
// batch's runs on disk, from which the state files and the counts per city are made).
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import type { AdBatch } from './ad-source.ts';
import type { AdCheckContext } from './check-ad-row.ts';
import type { ContentProblem } from './report.ts';

export interface BatchSummary {
  /** Valid ads not live on the build date. */
  unpublished: number;
  /** Problems of its rows, or the fatal problem that stops its origin. */
  problems: ContentProblem[];
  /** A CSV syntax error: nothing of the batch's origin counts. */
  fatal: boolean;
  /** Ads live on the build date. */
  published: number;
  /** Every valid row's id, and its line relative to the batch's first line. */
  ids: Float64Array;
  idLines: Uint32Array;
}

/** Checks a batch and sums it up as its rows come, handing each published ad to `publish`. */
export function summariseBatch(
  batch: Pick<AdBatch, 'check' | 'line'>,
  context: AdCheckContext,
  publish: (ad: CompiledAd) => void,
): BatchSummary {
  const summary: BatchSummary = {
    unpublished: 0,
    problems: [],
    fatal: false,
    published: 0,
    ids: new Float64Array(1024),
    idLines: new Uint32Array(1024),
  };
  let valid = 0;
  const fatal = batch.check(context, (line, outcome) => {
    for (const problem of outcome.problems) summary.problems.push(problem);
    if (!outcome.ad) return;
    const { ad } = outcome;
    if (valid === summary.ids.length) {
      summary.ids = grow(summary.ids, new Float64Array(valid * 2));
      summary.idLines = grow(summary.idLines, new Uint32Array(valid * 2));
    }
    summary.ids[valid] = ad.id;
    summary.idLines[valid] = line - batch.line;
    valid += 1;
    if (outcome.published) {
      summary.published += 1;
      publish(ad);
    } else {
      summary.unpublished += 1;
    }
  });
  if (fatal.length > 0)
    return {
      unpublished: 0,
      problems: fatal,
      fatal: true,
      published: 0,
      ids: new Float64Array(0),
      idLines: new Uint32Array(0),
    };
  summary.ids = summary.ids.slice(0, valid);
  summary.idLines = summary.idLines.slice(0, valid);
  return summary;
}

function grow<T extends Float64Array | Uint32Array>(array: T, bigger: T): T {
  bigger.set(array);
  return bigger;
}
