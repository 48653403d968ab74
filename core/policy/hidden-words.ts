// A member's hidden words (docs/product.md section 7, "Who may reach me"): a first message with one
// of them goes to the member's Filtered folder. A word is found as the scam signals' words are
// (scam-patterns.ts over normalise.ts): whole, in any case, with accents, full-width and
// look-alike letters undone ("Cаsh" with a Cyrillic а, "ca$h"), and, in words of five letters or
// more, stray spaces or signs between letters ("t e l e g r a m"); never inside a longer word
// ("ass" is not in "class"). A phrase's words may be joined by spaces or signs. Browser-safe.
import { normaliseText } from './normalise.ts';
import { signalBody } from './scam-patterns.ts';

/** A hidden word as the pattern language takes it: its words, signs other than ' $ @ left out. */
const patternOf = (word: string) =>
  word
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'$@]+/gu, ' ')
    .trim();

// Before a word: neither a letter nor a digit, nor a sign standing for a letter.
const WORD_START = '(?<![a-z0-9$@])';

/** The first of `words` found in `text`, as the member saved it; undefined for none. */
export function findHiddenWord(text: string, words: readonly string[]): string | undefined {
  if (words.length === 0) return undefined;
  const normalised = normaliseText(text).text;
  return words.find((word) => {
    const pattern = patternOf(word);
    if (pattern === '') return false;
    const body = signalBody(pattern, {});
    return !('problem' in body) && new RegExp(`${WORD_START}${body.body}`, 'i').test(normalised);
  });
}
