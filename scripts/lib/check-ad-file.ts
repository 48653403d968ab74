// Checks one ads CSV on its own: every row against the schema, its state and city, the blocked
// terms, and whether it is live on the build date. Checks across files (duplicate ids) come after.
import { AD_COLUMNS, adRowSchema } from '../../src/schemas/ad.ts';
import type { AdCounts, CompiledAd } from '../../src/schemas/compiled-content.ts';
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

export function checkAdFile(text: string, file: string, context: AdFileContext, publish: (ad: CompiledAd) => void): AdFileSummary {
  const summary: AdFileSummary = { ids: [], counts: {}, unpublished: 0, problems: [] };
  const { rows, problems: csvProblems } = readCsv(text, file, { required: AD_COLUMNS });
  summary.problems.push(...csvProblems);
  for (const row of rows) {
    const parsed = adRowSchema.safeParse(row.cells);
    if (!parsed.success) {
      summary.problems.push(...problemsFromZod(parsed.error, file, () => row.line));
      continue;
    }
    const ad = parsed.data;
    const at = (field: string, message: string) => summary.problems.push({ file, line: row.line, field, message });
    summary.ids.push([ad.id, row.line]);
    const cities = context.citiesByState.get(ad.state);
    if (!cities) at('state', `unknown state '${ad.state}'`);
    else if (!cities.has(ad.city)) at('city', `unknown city '${ad.city}' in ${ad.state}; add it to content/cities/${ad.state}.csv first`);
    for (const field of ['title', 'description'] as const) {
      const term = findBlockedTerm(ad[field], context.blockedTerms);
      if (term) at(field, `contains the blocked term '${term}' (content/policy/blocked-terms.txt)`);
    }
    if (ad.postedAt <= context.buildDate && context.buildDate < ad.expiresAt) {
      const stateCounts = (summary.counts[ad.state] ??= {});
      stateCounts[ad.city] = (stateCounts[ad.city] ?? 0) + 1;
      publish(ad);
    } else {
      summary.unpublished += 1;
    }
  }
  return summary;
}
