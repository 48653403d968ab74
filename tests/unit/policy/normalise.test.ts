import { describe, expect, test } from 'vitest';
import { foldDigitsInWords, normaliseText, originalRange } from '../../../src/policy/normalise.ts';

describe('normaliseText', () => {
  test('leaves plain ASCII as it is, with no position map', () => {
    expect(normaliseText('Hello There 34')).toEqual({ text: 'Hello There 34' });
  });

  test.each([
    ['NFKC and case', 'ＧＥＮＥＲＯＵＳ', 'generous'],
    ['ligatures', 'ﬁne', 'fine'],
    [
      'zero-width characters and soft hyphen',
      'a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf\u00ADg',
      'abcdefg',
    ],
    ['Cyrillic look-alikes', '\u0430\u0435\u043E\u0440\u0441\u0445\u0443\u0456', 'aeopcxyi'],
    ['Greek look-alikes', '\u03BF\u03B5\u03B1', 'oea'],
    ['accents', 'Crème brûlée', 'creme brulee'],
  ])('%s', (_, text, normalised) => {
    expect(normaliseText(text).text).toBe(normalised);
  });

  test('maps each normalised character back to what it came from', () => {
    const original = 'xｘ\u200By\u0301';
    const normalised = normaliseText(original);
    expect(normalised.text).toBe('xxy');
    expect(originalRange(normalised, 1, 2)).toEqual({ start: 1, end: 2 });
    expect(originalRange(normalised, 2, 3)).toEqual({ start: 3, end: 5 });
    expect(originalRange(normalised, 0, 3)).toEqual({ start: 0, end: 5 });
  });
});

describe('foldDigitsInWords', () => {
  test.each([
    ['r0ses', 'roses'],
    ['G3N3R0U5', 'GeNeRoUs'],
    ['e$cort @ll', 'escort all'],
    ['1ncall', '1ncall'],
    ['34 years, 5 miles, 2026, $200, 5\'10"', '34 years, 5 miles, 2026, $200, 5\'10"'],
    ['late 30s', 'late eos'],
  ])('%s → %s', (text, folded) => {
    expect(foldDigitsInWords(text)).toBe(folded);
    expect(foldDigitsInWords(text)).toHaveLength(text.length);
  });
});
