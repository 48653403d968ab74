// The policy terms and how they are found in a text: whole words or phrases, after normalisation
// (normalise.ts), with the ad's own place names left out (docs/product.md, section 6). Two kinds:
// `refuse` (unambiguous: a member's ad is refused) and `review` (ambiguous: the ad goes to the
// moderator with the words marked). Editors' CSV ads fail on either kind.
import { LOOK_ALIKE_SIGNS, normaliseText, originalRange } from './normalise.ts';

export interface PolicyTerms {
  /** Unambiguous terms: an ad using one is refused (content/policy/refused-terms.txt). */
  refuse: readonly string[];
  /** Ambiguous terms: marked for the moderator (content/policy/review-terms.txt). */
  review: readonly string[];
}

export type PolicyTermKind = keyof PolicyTerms;

/** A term found in a text; start and end are offsets in the text as written. */
export interface TermMatch {
  term: string;
  kind: PolicyTermKind;
  start: number;
  end: number;
}

/** A terms file: one term or phrase a line; `#` starts a comment line. Lower-cased. */
export function parseTermList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

interface CompiledTerms {
  /** Every term, refuse first, in list order: the capture group n + 1 is entries[n]. */
  entries: ReadonlyArray<{ term: string; kind: PolicyTermKind }>;
  /** Any term, no groups: one scan says whether there is anything to look at. */
  any: RegExp;
  /** Any term, one group a term, global: finds them all. */
  all: RegExp;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Separators allowed between the words of a phrase ("sugar-daddy", "new_in.town").
const PHRASE_SEPARATOR = '[\\s\\-_.]+';
// A letter or digit on either side makes the match part of a longer word ("minority", "primroses").
// ASCII only, and no `u` flag: normalised text is Latin wherever a term can match, and V8 runs a
// `u` pattern several times slower on any text with a character beyond Latin-1 (a quote mark ’).
const NOT_AFTER_WORD = '(?<![a-z0-9])';
const NOT_BEFORE_WORD = '(?![a-z0-9])';

/**
 * A term (or place name) as a pattern over normalised text: each letter also as the digits and
 * signs written for it (`r0ses`, `e$cort`, `inca11`).
 */
function termBody(term: string): string {
  return term
    .split(/[\s\-_.]+/)
    .filter((word) => word !== '')
    .map((word) =>
      [...normaliseText(word.toLowerCase()).text]
        .map((char) => {
          const signs = LOOK_ALIKE_SIGNS[char];
          return signs ? `[${char}${escapeRegExp(signs)}]` : escapeRegExp(char);
        })
        .join(''),
    )
    .join(PHRASE_SEPARATOR);
}

// A match must have a letter: digits alone ("101174", "5 3") are a number, never a word.
const HAS_LETTER = /\p{L}/u;

const compiled = new WeakMap<PolicyTerms, CompiledTerms>();

function compileTerms(terms: PolicyTerms): CompiledTerms {
  let result = compiled.get(terms);
  if (result) return result;
  const entries = [
    ...terms.refuse.map((term) => ({ term, kind: 'refuse' as const })),
    ...terms.review.map((term) => ({ term, kind: 'review' as const })),
  ].filter(({ term }) => termBody(term) !== '');
  if (entries.length === 0) {
    result = { entries, any: /(?!)/, all: /(?!)/g };
  } else {
    // Longer terms first, so that of two starting at one place the longer one wins.
    const bodies = entries.map(({ term }) => termBody(term));
    const byLength = bodies
      .map((_, index) => index)
      .sort((a, b) => bodies[b]!.length - bodies[a]!.length);
    const any = byLength.map((index) => bodies[index]).join('|');
    // Groups in list order (group n + 1 is entries[n]), alternatives in length order.
    const groups = byLength.map((index) => `(?<t${index}>${bodies[index]})`).join('|');
    result = {
      entries,
      any: new RegExp(`${NOT_AFTER_WORD}(?:${any})${NOT_BEFORE_WORD}`, 'i'),
      all: new RegExp(`${NOT_AFTER_WORD}(?:${groups})${NOT_BEFORE_WORD}`, 'gi'),
    };
  }
  compiled.set(terms, result);
  return result;
}

// Place names are blanked with a character that is neither a letter, a digit nor a separator, so
// that no term can match across the gap either.
const BLANK = '#';
const placePatterns = new Map<string, RegExp | undefined>();
const MAX_PLACE_PATTERNS = 10_000;

function placePattern(place: string): RegExp | undefined {
  if (placePatterns.has(place)) return placePatterns.get(place);
  const body = termBody(place);
  const pattern =
    body === '' ? undefined : new RegExp(`${NOT_AFTER_WORD}(?:${body})${NOT_BEFORE_WORD}`, 'gi');
  if (placePatterns.size >= MAX_PLACE_PATTERNS) placePatterns.clear();
  placePatterns.set(place, pattern);
  return pattern;
}

/** The text with each of `places` (whole words, normalised alike) blanked out, same length. */
export function blankPlaces(text: string, places: readonly string[]): string {
  let blanked = text;
  for (const place of places) {
    const pattern = placePattern(place);
    if (pattern) blanked = blanked.replace(pattern, (found) => BLANK.repeat(found.length));
  }
  return blanked;
}

/**
 * Every policy term in `text`, in text order, with its offsets in `text` as written. `places`
 * (the ad's city and state) never count: a term inside one of them as written is no hit
 * ("Minor" in an ad of Minor, Alabama). Pass the same `terms` object on every call: its compiled
 * form is cached.
 */
export function findPolicyTerms(
  text: string,
  terms: PolicyTerms,
  places: readonly string[] = [],
): TermMatch[] {
  const { entries, any, all } = compileTerms(terms);
  const normalised = normaliseText(text);
  let matched = normalised.text;
  if (!any.test(matched)) return [];
  // Blanking only ever removes matches, so it is done only when there is one to remove.
  if (places.length > 0) {
    matched = blankPlaces(matched, places);
    if (!any.test(matched)) return [];
  }
  const found: TermMatch[] = [];
  for (const match of matched.matchAll(all)) {
    const groups = match.groups ?? {};
    const index = entries.findIndex((_, n) => groups[`t${n}`] !== undefined);
    const entry = entries[index];
    if (!entry || !HAS_LETTER.test(match[0])) continue;
    const range = originalRange(normalised, match.index, match.index + match[0].length);
    found.push({ term: entry.term, kind: entry.kind, ...range });
  }
  return found;
}

/**
 * The first policy term in `text` (either kind), or undefined: the strict check of editors' ads.
 * Cheaper than findPolicyTerms when there is none, which is nearly always.
 */
export function findFirstPolicyTerm(
  text: string,
  terms: PolicyTerms,
  places: readonly string[] = [],
): TermMatch | undefined {
  return findPolicyTerms(text, terms, places)[0];
}
