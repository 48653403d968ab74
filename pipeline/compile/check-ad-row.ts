// Checks one ad on its own: against the schema, its state and city, the policy terms, and
// whether it is live on the build date. Checks across ads (duplicate ids) come after.
import { adRowSchema } from '../../core/schemas/ad.ts';
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import { findFirstPolicyTerm, type PolicyTerms } from '../../core/policy/terms.ts';
import { TERM_FILES } from '../../core/policy/term-files.ts';
import { problemsFromZod, type ContentProblem } from './report.ts';

/** What an ad is checked against; the same for every ad of a build. */
export interface AdCheckContext {
  buildDate: string;
  citiesByState: ReadonlyMap<string, ReadonlySet<string>>;
  /** Editors' ads are checked strictly: a term of either kind is a problem. */
  policyTerms: PolicyTerms;
  /** Editors' ads that reports keep off the site (hidden_ads): valid, but not published. */
  hiddenAdIds?: ReadonlySet<number>;
}

/** One row's outcome: its problems, or the ad (published when it is live on the build date). */
export type AdRowOutcome =
  | { problems: ContentProblem[]; ad?: undefined }
  | { problems: ContentProblem[]; ad: CompiledAd; published: boolean };

export function checkAdRow(
  cells: Record<string, string>,
  line: number,
  file: string,
  context: AdCheckContext,
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
    // The ad's own city and state never count ("Minor" in an ad of Minor, Alabama).
    const found = findFirstPolicyTerm(ad[field], context.policyTerms, [ad.city, ad.state]);
    if (found)
      at(field, `contains the blocked term '${found.term}' (content/${TERM_FILES[found.kind]})`);
  }
  return {
    problems,
    ad,
    published:
      ad.postedAt <= context.buildDate &&
      context.buildDate < ad.expiresAt &&
      !context.hiddenAdIds?.has(ad.id),
  };
}
