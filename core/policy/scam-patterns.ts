// The pattern language of the scam signals (content/policy/scam-signals.txt, read by
// scam-signals.ts): how a pattern's words, lists, gaps and shapes become a regular expression over
// normalised text (normalise.ts), and the words a text is looked up by. See scam-signals.ts for
// the file's syntax. Browser-safe.
import { LOOK_ALIKE_SIGNS, normaliseText } from './normalise.ts';

// Digits written as words, for phone numbers spelled out.
const DIGIT_WORDS = 'zero|oh|one|two|three|four|five|six|seven|eight|nine';
const DIGIT_TOKEN = `(?:${DIGIT_WORDS}|\\d)`;
const DIGIT_GAP = '[\\s.,\\-()/+]*';

/** The shapes a pattern may name, as patterns over normalised text. */
const SLOTS: Readonly<Record<string, string>> = {
  // A user name as handed out: "@jess", "jessy_luv94", "lexi.rose22" (a letter, then a digit or _).
  handle: '(?:@[a-z0-9_.]{2,}|[a-z][a-z0-9_.]*[0-9_][a-z0-9_]*)',
  // A sum of money: "$20", "$ 1,500", "50 dollars", "20 bucks", "5k".
  amount:
    '(?:\\$\\s?\\d[\\d,]*(?:\\.\\d{2})?k?|\\d[\\d,]*(?:\\.\\d{2})?k?\\s?(?:dollars?|bucks|usd|usdt))',
  // A handle written with its at sign alone: "@cutie_amy".
  'at-handle': '@[a-z][a-z0-9_.]{2,}',
  number: '\\d+',
  // A share: "30%", "30 percent".
  percent: '\\d+(?:\\.\\d+)?\\s?(?:%|percent)',
  // A phone number with digits written as words, alone or mixed with digits: seven digits or more,
  // at least one of them a word ("five five five 01 nine nine …").
  'spelled-phone': `(?=(?:\\d${DIGIT_GAP})*(?:${DIGIT_WORDS}))(?:${DIGIT_TOKEN}${DIGIT_GAP}){6,}${DIGIT_TOKEN}`,
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A letter or digit after it makes the match part of a longer word. ASCII only (see terms.ts).
const NOT_BEFORE_WORD = '(?![a-z0-9])';
// Between two words of a pattern: spaces and signs, never a letter or digit ($ and @ stand for
// letters, so they do not separate either).
const BETWEEN = '[^a-z0-9$@]+';
// A stray space or sign inside a long word: "tele gram", "c.a.s.h.a.p.p".
const INSIDE_WORD = '[\\s.\\-_*]?';
const SPREAD_FROM = 5;
// "you're" as "youre", "you're" or "you’re".
const APOSTROPHE = "['’]?";
const MAX_GAP = 20;

/** One word as a pattern: look-alike signs, strays inside long ones, apostrophes optional. */
function wordBody(word: string): string {
  const letters = [...normaliseText(word.toLowerCase()).text];
  const spread = letters.filter((char) => char !== "'").length >= SPREAD_FROM;
  let body = '';
  letters.forEach((char, index) => {
    if (char === "'") {
      body += APOSTROPHE;
      return;
    }
    if (index > 0 && letters[index - 1] !== "'" && spread) body += INSIDE_WORD;
    const signs = LOOK_ALIKE_SIGNS[char];
    body += signs ? `[${char}${escapeRegExp(signs)}]` : escapeRegExp(char);
  });
  return body;
}

/** An entry of a list or a literal phrase: its words, each a wordBody, apart. */
const phraseBody = (phrase: string) =>
  phrase
    .split(/[\s\-_]+/)
    .filter((word) => word !== '')
    .map(wordBody)
    .join(BETWEEN);

const GAP = /^(?:…|\.\.\.|~(\d+))$/;

interface Piece {
  body: string;
  /** The words it can start with, folded (foldWord), or `<shape>` for a shape. */
  keys: string[];
  optional: boolean;
  /** Words allowed before it (a gap before this piece). */
  gapBefore: number;
}

/** The pattern's pieces, or why it cannot be used. */
function patternPieces(
  pattern: string,
  lists: Readonly<Record<string, readonly string[]>>,
): Piece[] | string {
  const pieces: Piece[] = [];
  let gap = 0;
  for (const raw of pattern.trim().split(/\s+/)) {
    const gapMatch = GAP.exec(raw);
    if (gapMatch) {
      const words = gapMatch[1] === undefined ? 3 : Number(gapMatch[1]);
      if (words < 1 || words > MAX_GAP) return `a gap is ~1 to ~${MAX_GAP} words, not '${raw}'`;
      if (pieces.length === 0) return `'${raw}' cannot start a pattern`;
      gap += words;
      continue;
    }
    const optional = raw.endsWith('?') && raw.length > 1;
    const token = optional ? raw.slice(0, -1) : raw;
    let body: string;
    let keys: string[];
    if (token.startsWith('@')) {
      const entries = lists[token.slice(1).toLowerCase()];
      if (!entries) return `no list '${token.slice(1)}' above this line`;
      body = `(?:${entries.map(phraseBody).join('|')})`;
      keys = entries.map((entry) => foldWord(entry.split(/[\s\-_]+/)[0]!));
    } else if (/^<[^>]+>$/.test(token)) {
      const name = token.slice(1, -1).toLowerCase();
      const slot = SLOTS[name];
      if (!slot)
        return `unknown shape ${token}; the shapes are ${Object.keys(SLOTS)
          .map((name) => `<${name}>`)
          .join(', ')}`;
      body = slot;
      keys = [`<${name}>`];
    } else if (/^[\p{L}\p{N}'$@]+$/u.test(token)) {
      body = wordBody(token);
      keys = [foldWord(token)];
    } else {
      return `'${token}' is not a word, a @list, a <shape> or a gap (… or ~N)`;
    }
    pieces.push({ body, keys, optional, gapBefore: gap });
    gap = 0;
  }
  if (gap > 0) return 'a gap cannot end a pattern';
  if (pieces.length === 0) return 'the pattern is empty';
  if (pieces[0]!.optional) return 'a pattern cannot start with an optional word';
  return pieces;
}

/**
 * The pattern as a regular-expression body over normalised text, matched from the start of a word
 * (sticky), the words it can start with (`keys`) and, for each word it cannot do without after
 * the first, the words that one can start with (`needs`); or why it cannot be used.
 */
export function signalBody(
  pattern: string,
  lists: Readonly<Record<string, readonly string[]>>,
): { body: string; keys: string[]; needs: string[][] } | { problem: string } {
  const pieces = patternPieces(pattern, lists);
  if (typeof pieces === 'string') return { problem: pieces };
  let body = pieces[0]!.body;
  for (const piece of pieces.slice(1)) {
    const gap = piece.gapBefore > 0 ? `(?:[a-z0-9$@'’]+${BETWEEN}){0,${piece.gapBefore}}` : '';
    const next = `${BETWEEN}${gap}${piece.body}`;
    body += piece.optional ? `(?:${next})?` : next;
  }
  return {
    body: `(?:${body})${NOT_BEFORE_WORD}`,
    keys: pieces[0]!.keys,
    needs: pieces.slice(1).flatMap((piece) => (piece.optional ? [] : [piece.keys])),
  };
}

// What a word of the text is folded to for the lookup, as the signals' first words are: look-alike
// digits and signs read as letters (i and l alike: "1" stands for either), apostrophes gone.
const FOLD: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  l: 'i',
  '3': 'e',
  '4': 'a',
  '@': 'a',
  '5': 's',
  $: 's',
  '7': 't',
};
/** A word as the lookup reads it; `normalised`: the word is from normalised text already. */
export function foldWord(word: string, normalised = false): string {
  const plain = (normalised ? word : normaliseText(word).text).toLowerCase();
  let folded = '';
  for (const char of plain) if (char !== "'" && char !== '’') folded += FOLD[char] ?? char;
  return folded;
}

// A word of normalised text: letters, digits and the signs standing for letters.
export const WORD = /[a-z0-9$@]+(?:['’][a-z0-9$@]+)*/gi;
const DIGIT_WORD = new RegExp(`^(?:${DIGIT_WORDS})$`, 'i');
// A handle's start: a letter, then letters, digits, dots or _ with a digit or _ among them.
const HANDLE_START = /[a-z][a-z0-9_.]*[0-9_]/iy;

/** The shapes a signal may start with at this word. */
export function shapesAt(text: string, word: string, at: number): string[] {
  const first = word[0]!;
  if (first >= '0' && first <= '9') return ['<amount>', '<number>', '<percent>', '<spelled-phone>'];
  if (first === '$') return ['<amount>'];
  if (first === '@') return ['<at-handle>', '<handle>'];
  const shapes: string[] = [];
  if (DIGIT_WORD.test(word)) shapes.push('<spelled-phone>');
  HANDLE_START.lastIndex = at;
  if (HANDLE_START.test(text)) shapes.push('<handle>');
  return shapes;
}
