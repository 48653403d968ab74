// Contact details in a member's ad: phone numbers, email addresses and links. Members reply
// through the site (docs/product.md, section 6), so an ad carrying them is refused. Matched on the
// normalised text (full-width digits, zero-width characters and look-alike letters undone), and
// shaped so that ages, heights (5'10"), years, "2 kids", "8 pm" or "5 miles" are not taken for one.
import { normaliseText, originalRange } from './normalise.ts';

export type ContactKind = 'phone' | 'email' | 'link';

export interface ContactMatch {
  kind: ContactKind;
  /** Offsets in the text as written. */
  start: number;
  end: number;
}

// Domain endings a word after a dot is taken for on their own ("example.com", "bit.ly").
const TLDS = 'com|net|org|edu|gov|info|biz|io|ly|xyz|gg|cc|ws|ee|tk|ru|uk|ca|de|fr|tv|fm|ai';
// Endings that are everyday words, and so follow a full stop typed without a space ("hiking.Me
// too", "for love.Live"): they count only before a path (t.co/x, linktr.ee is above).
const WORD_TLDS =
  'co|me|us|to|live|love|fun|date|chat|page|shop|store|top|social|club|link|site|app|dev|online|vip|dating|cam';
const WORD_CHAR = '[\\p{L}\\p{N}]';
const NOT_AFTER_WORD = '(?<![\\p{L}\\p{N}])';
const NOT_BEFORE_WORD = '(?![\\p{L}\\p{N}])';
const SPELLED_AT = '(?:\\(at\\)|\\[at\\]|\\{at\\}|\\sat\\s)';
const SPELLED_DOT = '(?:\\(dot\\)|\\[dot\\]|\\{dot\\}|\\sdot\\s)';

const PATTERNS: ReadonlyArray<readonly [ContactKind, RegExp]> = [
  // name@example.com, with spaces around the signs too.
  ['email', /[\p{L}\p{N}._%+-]+\s*@\s*[\p{L}\p{N}-]+(?:\s*\.\s*[\p{L}\p{N}-]+)*\s*\.\s*\p{L}{2,}/u],
  // Spelled out: "name at gmail dot com", "name (at) gmail (dot) com", "name at gmail.com".
  [
    'email',
    new RegExp(
      `${WORD_CHAR}[\\p{L}\\p{N}._%+-]*\\s*${SPELLED_AT}\\s*${WORD_CHAR}[\\p{L}\\p{N}-]*\\s*(?:\\.|${SPELLED_DOT})\\s*(?:${TLDS}|${WORD_TLDS})${NOT_BEFORE_WORD}`,
      'iu',
    ),
  ],
  // A scheme or www.
  ['link', /(?:https?:\/\/|(?<![\p{L}\p{N}])www\s*\.\s*)[\p{L}\p{N}]/iu],
  // A bare domain: example.com, foo.net, bit.ly/x, t.co/x.
  [
    'link',
    new RegExp(
      `${NOT_AFTER_WORD}${WORD_CHAR}[\\p{L}\\p{N}-]*(?:\\.[\\p{L}\\p{N}-]+)*\\.(?:(?:${TLDS})${NOT_BEFORE_WORD}|(?:${WORD_TLDS})\\/)`,
      'iu',
    ),
  ],
  // Spelled out: "example dot com".
  [
    'link',
    new RegExp(
      `${NOT_AFTER_WORD}${WORD_CHAR}[\\p{L}\\p{N}-]*\\s*${SPELLED_DOT}\\s*(?:${TLDS}|${WORD_TLDS})${NOT_BEFORE_WORD}`,
      'iu',
    ),
  ],
  // US phone numbers: 555-123-4567, (555) 123 4567, 555.123.4567, +1 555 123 4567, 5551234567.
  ['phone', /(?<!\d)(?:\+?1[\s.-]*)?\(?\d{3}\)?[\s.-]*\d{3}[\s.-]*\d{4}(?!\d)/],
  // Any other run of ten or more digits with at most one separator between two of them.
  ['phone', /(?<!\d)\+?\d(?:[\s().-]?\d){9,}(?!\d)/],
];

/** The first contact detail in `text` (the earliest in the text), or undefined. */
export function findContactDetails(text: string): ContactMatch | undefined {
  const normalised = normaliseText(text);
  let first: { kind: ContactKind; index: number; end: number } | undefined;
  for (const [kind, pattern] of PATTERNS) {
    const match = pattern.exec(normalised.text);
    if (match && (!first || match.index < first.index))
      first = { kind, index: match.index, end: match.index + match[0].length };
  }
  return first && { kind: first.kind, ...originalRange(normalised, first.index, first.end) };
}
