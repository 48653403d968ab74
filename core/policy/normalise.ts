// Puts a text into the form the policy terms are matched in, keeping where each character came
// from, so that a match can be shown on the text as the person wrote it (docs/product.md, section 6:
// `ｇｅｎｅｒｏｕｓ`, `esc\u200Bort` and `еscort` with a Cyrillic е all read as the plain word).
// Digits and signs standing for letters (`r0ses`) are left in the text: the term patterns accept
// them in place of their letters (terms.ts), so a number alone ("34", "5 miles") is never a word.
// Pure and dependency-free: the server, the content compiler and page code all import it.

/** A normalised text and, for each of its UTF-16 code units, the range of the original it stands for. */
export interface NormalisedText {
  text: string;
  /** Absent when the text is the original, character for character. */
  from?: readonly number[];
  to?: readonly number[];
}

/** Digits and signs written for a letter ("r0ses", "e$cort", "1ncall", "inca11"). */
export const LOOK_ALIKE_SIGNS: Readonly<Record<string, string>> = {
  a: '4@',
  e: '3',
  i: '1',
  l: '1',
  o: '0',
  s: '5$',
  t: '7',
};

// Letters of other scripts that look like Latin ones, after lower-casing: the usual way to write
// a word so that a plain search misses it. Only letters a reader takes for the Latin one.
const LOOK_ALIKE_LETTERS: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  һ: 'h',
  і: 'i',
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
  ɡ: 'g',
  ı: 'i',
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ß: 'ss',
};

// Non-ASCII characters that normalising would leave as they are and that are neither letters nor
// digits: typographic quotes and dashes, the no-break space. A text with only these is matched as
// written, like ASCII (they are common in pasted text, and the full path costs far more).
const NEEDS_NORMALISING = /[^\x00-\x7f\u00a0\u2013\u2014\u2018-\u201f]/;
// A character and the marks on it (or marks alone at the start): normalised as one piece.
const CLUSTER = /\P{M}\p{M}*|\p{M}+/uy;
// Marks (accents) and format characters: zero-width spaces and joiners, word joiner, BOM, soft
// hyphen, direction marks. None is seen, so none may split a word.
const MARK_OR_INVISIBLE = /[\p{M}\p{Cf}]/gu;

// Node measures a string's UTF-8 length natively, far faster than a regular expression scans it.
const nodeBuffer = (globalThis as { Buffer?: { byteLength(text: string): number } }).Buffer;
const isAscii = nodeBuffer
  ? (text: string) => nodeBuffer.byteLength(text) === text.length
  : (text: string) => !/[^\x00-\x7f]/.test(text);

/**
 * The text as matched: NFKC, accents and invisible characters removed, look-alike letters of other
 * scripts read as Latin (lower-cased: ASCII letters keep their case, as every pattern ignores it).
 * ASCII text is returned as it is: that is nearly every ad.
 */
export function normaliseText(original: string): NormalisedText {
  if (isAscii(original) || !NEEDS_NORMALISING.test(original)) return { text: original };
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  let start = 0;
  while (start < original.length) {
    // An ASCII character with no mark after it is itself (a letter's case is left to matching).
    if (original.charCodeAt(start) < 0x80 && !(original.charCodeAt(start + 1) >= 0x80)) {
      parts.push(original[start]!);
      from.push(start);
      to.push(start + 1);
      start += 1;
      continue;
    }
    CLUSTER.lastIndex = start;
    const piece = CLUSTER.exec(original)![0];
    const end = start + piece.length;
    const plain = piece.normalize('NFKD').toLowerCase().replace(MARK_OR_INVISIBLE, '');
    for (const char of plain.normalize('NFKC')) {
      const folded = LOOK_ALIKE_LETTERS[char] ?? char;
      parts.push(folded);
      for (let unit = 0; unit < folded.length; unit += 1) {
        from.push(start);
        to.push(end);
      }
    }
    start = end;
  }
  return { text: parts.join(''), from, to };
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
