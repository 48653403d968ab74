// Checks one ads CSV on its own: every row against the schema, its state and city, the blocked
// terms, and whether it is live on the build date. Checks across files (duplicate ids) come after.
import { AD_COLUMNS, adRowSchema } from '../../schemas/ad.ts';
import type { AdCounts, CompiledAd } from '../../schemas/compiled-content.ts';
import { findBlockedTerm } from './blocked-terms.ts';
import { readCsv } from './read-csv.ts';
import { problemsFromZod, type ContentProblem } from './report.ts';

export interface AdFileContext {
  buildDate: string;
  citiesByState: ReadonlyMap<string, ReadonlySet<string>>;
  blockedTerms: readonly string[];
}

/** What a file contributes, small enough to keep between builds (the ads themselves are not in it). */
export interface AdFileSummary {
  /** [id, line] of every valid row, for the duplicate-id check across files. */
  ids: Array<[number, number]>;
  /** Published ads per state and city. */
  counts: AdCounts;
  unpublished: number;
  problems: ContentProblem[];
}

/** One row's outcome: its problems, or the ad (published when it is live on the build date). */
export type AdRowOutcome =
  | { problems: ContentProblem[]; ad?: undefined }
  | { problems: ContentProblem[]; ad: CompiledAd; published: boolean };

export function checkAdRow(
  cells: Record<string, string>,
  line: number,
  file: string,
  context: AdFileContext,
): AdRowOutcome {
  const parsed = adRowSchema.safeParse(cells);
  if (!parsed.success) return { problems: problemsFromZod(parsed.error, file, () => line) };
  const ad = parsed.data;
  const problems: ContentProblem[] = [];
  const at = (field: string, message: string) => problems.push({ file, line, field, message });
  const cities = context.citiesByState.get(ad.state);
  if (!cities) at('state', `unknown state '${ad.state}'`);
  else if (!cities.has(ad.city))
    at(
      'city',
      `unknown city '${ad.city}' in ${ad.state}; add it to content/cities/${ad.state}.csv first`,
    );
  for (const field of ['title', 'description'] as const) {
    const term = findBlockedTerm(ad[field], context.blockedTerms);
    if (term) at(field, `contains the blocked term '${term}' (content/policy/blocked-terms.txt)`);
  }
  return {
    problems,
    ad,
    published: ad.postedAt <= context.buildDate && context.buildDate < ad.expiresAt,
  };
}

/** Adds one row's outcome to a file's summary (rows in file order); publishes its ad if live. */
export function addToSummary(
  summary: AdFileSummary,
  outcome: AdRowOutcome,
  line: number,
  publish: (ad: CompiledAd) => void,
): void {
  summary.problems.push(...outcome.problems);
  if (!outcome.ad) return;
  const { ad } = outcome;
  summary.ids.push([ad.id, line]);
  if (outcome.published) {
    const stateCounts = (summary.counts[ad.state] ??= {});
    stateCounts[ad.city] = (stateCounts[ad.city] ?? 0) + 1;
    publish(ad);
  } else {
    summary.unpublished += 1;
  }
}

export const emptySummary = (): AdFileSummary => ({
  ids: [],
  counts: {},
  unpublished: 0,
  problems: [],
});

export function checkAdFile(
  text: string,
  file: string,
  context: AdFileContext,
  publish: (ad: CompiledAd) => void,
): AdFileSummary {
  const summary = emptySummary();
  const { rows, problems: csvProblems } = readCsv(text, file, { required: AD_COLUMNS });
  summary.problems.push(...csvProblems);
  for (const row of rows)
    addToSummary(summary, checkAdRow(row.cells, row.line, file, context), row.line, publish);
  return summary;
}
