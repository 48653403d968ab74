// The blocked-terms policy list (content/policy/blocked-terms.txt) and whole-word matching.

/** One term or phrase a line; `#` starts a comment line. Lower-cased. */
export function readBlockedTerms(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patternCache = new Map<string, RegExp>();

/** The first blocked term found as a whole word or phrase (any case, any spacing), or undefined. */
export function findBlockedTerm(text: string, terms: readonly string[]): string | undefined {
  const normalised = text.toLowerCase();
  return terms.find((term) => {
    let pattern = patternCache.get(term);
    if (!pattern) {
      const body = term.split(/\s+/).map(escapeRegExp).join('[\\s\\-_.]+');
      pattern = new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'u');
      patternCache.set(term, pattern);
    }
    return pattern.test(normalised);
  });
}
