// Puts a text into the form the policy terms are matched in, keeping where each character came
// from, so that a match can be shown on the text as the person wrote it (product.md, section 6:
// `r0ses`, `ｇｅｎｅｒｏｕｓ`, `esc\u200Bort` and `еscort` with a Cyrillic е all read as the plain word).
// Pure and dependency-free: the server, the content compiler and page code all import it.

/** A normalised text and, for each of its UTF-16 code units, the range of the original it stands for. */
export interface NormalisedText {
  text: string;
  /** Absent when the text is the original, character for character (plain ASCII). */
  from?: readonly number[];
  to?: readonly number[];
}

// Letters of other scripts that look like Latin ones, after lower-casing: the usual way to write
// a word so that a plain search misses it. Only letters a reader takes for the Latin one.
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  һ: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  с: 'c',
  ѕ: 's',
  т: 't',
  у: 'y',
  ү: 'y',
  х: 'x',
  ԝ: 'w',
  ԁ: 'd',
  ɡ: 'g',
  // Greek
  α: 'a',
  β: 'b',
  γ: 'y',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  // Latin letters without a decomposition
  ı: 'i',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ß: 'ss',
};

// Digits and signs standing for letters. Folded only inside a word that also has letters, so an
// age ("34"), a distance ("5 miles") or a year is never read as a word. "1" is not folded: it
// stands for "i" or "l", so the term patterns accept it for either (terms.ts).
const DIGIT_LOOK_ALIKES: Readonly<Record<string, string>> = {
  '0': 'o',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};

const NON_ASCII = /[^\x00-\x7f]/;
// Any character of a word with a digit (or @, $) beside a letter: only such words need folding.
const DIGIT_BESIDE_LETTER = /[\p{L}][\p{N}@$]|[\p{N}@$][\p{L}]/u;
const WORD = /[\p{L}\p{N}@$]+/gu;
const HAS_LETTER = /\p{L}/u;
const FOLDABLE = /[03457@$]/g;
// A base character and the marks on it (or marks alone at the start): normalised as one piece.
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gu;
// Marks (accents) and format characters: zero-width spaces and joiners, word joiner, BOM, soft
// hyphen, direction marks. None is seen, so none may split a word.
const MARK_OR_INVISIBLE = /[\p{M}\p{Cf}]/gu;

/**
 * The text as matched, before digits are folded: NFKC, lower-cased, accents and invisible
 * characters removed, look-alike letters of other scripts read as Latin. Plain ASCII is returned
 * as it is (matching ignores case), which is what nearly every ad is.
 */
export function normaliseText(original: string): NormalisedText {
  if (!NON_ASCII.test(original)) return { text: original };
  let text = '';
  const from: number[] = [];
  const to: number[] = [];
  for (const match of original.matchAll(CLUSTER)) {
    const piece = match[0];
    const start = match.index;
    const end = start + piece.length;
    let folded: string;
    if (piece.length === 1 && piece.charCodeAt(0) < 0x80) {
      folded = piece.toLowerCase();
    } else {
      folded = '';
      const plain = piece.normalize('NFKD').toLowerCase().replace(MARK_OR_INVISIBLE, '');
      for (const char of plain.normalize('NFKC')) folded += LOOK_ALIKES[char] ?? char;
    }
    text += folded;
    for (let unit = 0; unit < folded.length; unit += 1) {
      from.push(start);
      to.push(end);
    }
  }
  return { text, from, to };
}

/**
 * Reads digits and signs as the letters they stand for, inside words that have letters
 * (`r0ses` → `roses`, `e$cort` → `escort`; `34` and `5 miles` stay). Keeps the length, so the
 * positions of normaliseText still hold.
 */
export function foldDigitsInWords(text: string): string {
  if (!DIGIT_BESIDE_LETTER.test(text)) return text;
  return text.replace(WORD, (word) =>
    HAS_LETTER.test(word) ? word.replace(FOLDABLE, (char) => DIGIT_LOOK_ALIKES[char]!) : word,
  );
}

/** Where the normalised range [start, end) is in the original text. */
export function originalRange(
  normalised: NormalisedText,
  start: number,
  end: number,
): { start: number; end: number } {
  const { from, to } = normalised;
  if (!from || !to || end <= start) return { start, end };
  return { start: from[start]!, end: to[end - 1]! };
}
