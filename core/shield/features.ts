// What the scam shield's learned model reads in a text (docs/product.md section 7): the same
// features when it is trained (pipeline/shield/) and when it judges a message, so they live here.
//
// Three kinds, each a string key:
// - `w:word` and `b:word word`: the words (but everyday ones, EVERYDAY_WORDS) and word pairs of
//   the text, lower-cased, after the policy scanner's normalising (look-alike letters of other
//   scripts, full-width letters, accents and invisible characters undone); every digit reads 0,
//   so "$50" and "$80" are one word.
// - `c:<ab` … `c:abcde`: runs of 3 to 5 letters of each word (its start and end marked), with
//   digits and signs standing for letters read as them, single letters and split words joined:
//   "t e l e g r a m", "tele-gram", "te1egram" and "wh@tsapp" share the runs of "telegram" and
//   "whatsapp"; "numbr" shares most of "number". Everyday words ("me", "hello") have none.
// - `s:…`: shapes no single word shows: a run of digits or spelled digits as long as a phone
//   number, a money amount, a handle (letters with digits or _), an @handle, a link.
// Every feature counts once, and the vector is scaled to about length 1: a long message weighs as
// much as a short one, but a very short one less (SHORT_TEXT_PRIOR): "hi" is too little to judge,
// however many scams start with it. Pure and browser-safe.
import { normaliseText } from '../policy/normalise.ts';

/** The features of a text, each with its value (the vector has length 1). */
export type FeatureVector = Map<string, number>;

/** Features a text is scaled as if it had this many more of: a typical message has 300 to 600. */
export const SHORT_TEXT_PRIOR = 60;

/** The lengths of the letter runs read: 3 to 5. */
const CHAR_SIZES = [3, 4, 5];

const WORDS = /[\p{L}\p{N}$@'’_.]+/gu;
const DIGIT_WORD =
  /^(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|\d+|won|to|too|for|ate)$/;
// Digits and signs that stand for letters inside a word that has letters ("te1egram", "c@sh").
const LETTER_FOR: Readonly<Record<string, string>> = {
  '0': 'o',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};
const HAS_LETTER = /\p{L}/u;
// The everyday words of English: pronouns, articles, prepositions, common verbs and greetings. Every
// message has them, so alone they only tell one writer's habits from another's.
const EVERYDAY_WORDS = new Set(
  (
    'a about after again all also am an and any are as at be been before being but by can could ' +
    "did do does doing for from had has have having he her here hers him his how i i'm i'd i'll " +
    "i've if in into is it it's its just let let's me more most my no not now of on one only or " +
    'our out over so some than that the their them then there these they this those to too up us ' +
    "very was we were what when where which while who why will with would you you're your yours " +
    'hi hey hello hiya dear yes yeah ok okay oh lol haha really well get got go going know like ' +
    'love make want see think time day week good great nice'
  ).split(' '),
);
/** The same, as letters alone ("i'm" is "im"): what the letter runs read. */
const EVERYDAY_LETTERS = new Set(
  [...EVERYDAY_WORDS, "don't", "can't", "won't", "isn't", "didn't", "that's", "what's"].map(
    (word) => word.replace(/'/g, ''),
  ),
);
const LETTER = /^\p{L}$/u;
const LINK =
  /\b(?:https?:\/\/|www\.)|\b[a-z0-9-]+\.(?:com|net|org|io|xyz|co|me|ly|app|site|link)\b/;
const AMOUNT = /\$\s?\d|\b\d+\s?(?:dollars|bucks|usd|k)\b/;
const AT_HANDLE = /(?:^|\s)@[a-z][\w.]{2,}/;
const HANDLE = /\b[a-z][a-z._]*(?:\d{2,}|_[a-z0-9]+)\b/;

/** The words of a text as the model reads them: lower-case, digits as 0, trailing dots gone. */
export function shieldWords(text: string): string[] {
  const plain = normaliseText(text).text.toLowerCase();
  const words: string[] = [];
  for (const [raw] of plain.matchAll(WORDS)) {
    const word = raw.replace(/^[.'’_]+|[.'’_]+$/g, '').replace(/’/g, "'");
    if (word !== '') words.push(word.replace(/\d/g, '0'));
  }
  return words;
}

/** A token's letters, with digits and signs standing for letters read as them ("te1egram"). */
function lettersOf(token: string, one: 'i' | 'l'): string {
  let letters = '';
  for (const char of token) {
    const letter = char === '1' ? one : (LETTER_FOR[char] ?? char);
    if (LETTER.test(letter)) letters += letter;
  }
  return letters;
}

/**
 * The "words" whose letter runs the model reads: each word of 3 letters or more, a run of single
 * letters joined ("t e l e g r a m"), and two neighbours that are not everyday words joined
 * ("tele gram", "cash app", "whats app"); a 1 reads `one` ("i" in "b1tcoin", "l" in "te1egram").
 * Runs never cross into everyday words: "let me" is no "tme".
 */
function letterWords(text: string, one: 'i' | 'l'): string[] {
  const plain = normaliseText(text).text.toLowerCase();
  const tokens = [...plain.matchAll(WORDS)]
    .map(([raw]) => raw)
    .filter((raw) => HAS_LETTER.test(raw))
    .map((raw) => lettersOf(raw, one))
    .filter((letters) => letters !== '');
  const words: string[] = [];
  let singles = '';
  tokens.forEach((token, at) => {
    if (token.length === 1) singles += token;
    else {
      if (singles.length >= 3) words.push(singles);
      singles = '';
    }
    if (token.length >= 3) words.push(token);
    const next = tokens[at + 1];
    if (next !== undefined && token.length >= 2 && next.length >= 2)
      if (!EVERYDAY_LETTERS.has(token) && !EVERYDAY_LETTERS.has(next)) words.push(token + next);
  });
  if (singles.length >= 3) words.push(singles);
  return words;
}

/** How many words in a row read as digits ("five five five 0 1 nine"), at most. */
function longestDigitRun(words: readonly string[]): number {
  let longest = 0;
  let run = 0;
  for (const word of words) {
    if (DIGIT_WORD.test(word)) {
      run += /^0+$/.test(word) ? word.length : 1;
      longest = Math.max(longest, run);
    } else run = 0;
  }
  return longest;
}

/** The features of `text` (see the top of this file). */
export function shieldFeatures(text: string): FeatureVector {
  const keys = new Set<string>();
  const words = shieldWords(text);
  for (let index = 0; index < words.length; index += 1) {
    // An everyday word alone says nothing of a scam: only beside another ("send me", "add me").
    if (!EVERYDAY_LETTERS.has(words[index]!.replace(/'/g, ''))) keys.add(`w:${words[index]}`);
    if (index > 0) keys.add(`b:${words[index - 1]} ${words[index]}`);
  }
  const readings = /\p{L}1|1\p{L}/u.test(text) ? (['i', 'l'] as const) : (['i'] as const);
  for (const one of readings)
    for (const word of letterWords(text, one)) {
      if (EVERYDAY_WORDS.has(word) || EVERYDAY_LETTERS.has(word)) continue;
      const marked = `<${word}>`;
      for (const size of CHAR_SIZES)
        for (let start = 0; start + size <= marked.length; start += 1)
          keys.add(`c:${marked.slice(start, start + size)}`);
    }
  const lower = normaliseText(text).text.toLowerCase();
  const digits = longestDigitRun(words);
  if (digits >= 7) keys.add('s:phone-length-digits');
  else if (digits >= 4) keys.add('s:digits');
  if (AMOUNT.test(lower)) keys.add('s:amount');
  if (AT_HANDLE.test(lower)) keys.add('s:at-handle');
  if (HANDLE.test(lower)) keys.add('s:handle');
  if (LINK.test(lower)) keys.add('s:link');
  const vector: FeatureVector = new Map();
  const value = 1 / Math.sqrt(keys.size + SHORT_TEXT_PRIOR);
  for (const key of keys) vector.set(key, value);
  return vector;
}
