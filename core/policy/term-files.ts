// Where the policy terms and the scam signals live in content/ and how they are read: for the content compiler, the
// sample-ad generator and the benchmarks. The server reads the compiled terms instead
// (getPolicyTerms() in core/content/). Uses node:fs: not for page code.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScamSignals, type ScamSignalProblem, type ScamSignals } from './scam-signals.ts';
import { parseTermList, type PolicyTermKind, type PolicyTerms } from './terms.ts';

/** Each kind's file, relative to the content folder. */
export const TERM_FILES: Readonly<Record<PolicyTermKind, string>> = {
  refuse: 'policy/refused-terms.txt',
  review: 'policy/review-terms.txt',
};

/** The terms files of a content folder; a missing file is named in `missing` (and gives no terms). */
export function readPolicyTerms(contentDir: string): { terms: PolicyTerms; missing: string[] } {
  const missing: string[] = [];
  const read = (kind: PolicyTermKind) => {
    const path = join(contentDir, TERM_FILES[kind]);
    if (existsSync(path)) return parseTermList(readFileSync(path, 'utf8'));
    missing.push(TERM_FILES[kind]);
    return [];
  };
  return { terms: { refuse: read('refuse'), review: read('review') }, missing };
}

/** Both kinds in one list, refused first: for generators that must avoid every term. */
export const allPolicyTerms = (terms: PolicyTerms): string[] => [...terms.refuse, ...terms.review];

/** The scam signals file, relative to the content folder. */
export const SCAM_SIGNALS_FILE = 'policy/scam-signals.txt';

/**
 * A content folder's scam signals and the problems of their file (a missing file is one problem
 * and gives no signals).
 */
export function readScamSignals(contentDir: string): {
  signals: ScamSignals;
  problems: ScamSignalProblem[];
} {
  const path = join(contentDir, SCAM_SIGNALS_FILE);
  if (!existsSync(path))
    return {
      signals: { lists: {}, signals: [] },
      problems: [{ line: 1, field: 'file', message: 'is missing; the message checks need it' }],
    };
  return parseScamSignals(readFileSync(path, 'utf8'));
}
