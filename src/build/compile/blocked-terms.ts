// The blocked-terms policy list (content/policy/blocked-terms.txt) and whole-word matching,
// shared by the content validator and the sample-ad generator.

/** One term or phrase a line; `#` starts a comment line. Lower-cased. */
export function readBlockedTerms(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

interface CompiledTerms {
  /** Any of the terms: one scan of the text decides whether to look closer. */
  any: RegExp;
  /** One pattern a term, to name the term that matched. */
  each: ReadonlyArray<readonly [term: string, pattern: RegExp]>;
}

const compiledTerms = new WeakMap<readonly string[], CompiledTerms>();
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Words of a phrase may be separated by spaces, hyphens, underscores or dots ("sugar-daddy");
// a letter or digit on either side makes the match part of a longer word ("minority").
const termBody = (term: string) => term.split(/\s+/).map(escapeRegExp).join('[\\s\\-_.]+');
const wholeWord = (body: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${body})(?![\\p{L}\\p{N}])`, 'iu');

function compileTerms(terms: readonly string[]): CompiledTerms {
  let compiled = compiledTerms.get(terms);
  if (!compiled) {
    const each = terms.map((term) => [term, wholeWord(termBody(term))] as const);
    const any = each.length > 0 ? wholeWord(terms.map(termBody).join('|')) : /(?!)/;
    compiled = { any, each };
    compiledTerms.set(terms, compiled);
  }
  return compiled;
}

/**
 * The first term of `terms` (in list order) found in `text` as a whole word or phrase, any case,
 * or undefined. Pass the same array on every call: its compiled form is cached.
 */
export function findBlockedTerm(text: string, terms: readonly string[]): string | undefined {
  const { any, each } = compileTerms(terms);
  if (!any.test(text)) return undefined;
  return each.find(([, pattern]) => pattern.test(text))?.[0];
}
