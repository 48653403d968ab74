import { describe, expect, test } from 'vitest';
import { normaliseText, originalRange } from '../../../core/policy/normalise.ts';

describe('normaliseText', () => {
  test('leaves plain ASCII as it is, with no position map', () => {
    expect(normaliseText('Hello There 34, r0ses')).toEqual({ text: 'Hello There 34, r0ses' });
  });

  test('leaves typographic quotes, dashes and no-break spaces as they are', () => {
    const text = 'It’s “fine” – really\u00a0so';
    expect(normaliseText(text)).toEqual({ text });
  });

  test.each([
    ['NFKC and case', 'ＧＥＮＥＲＯＵＳ', 'generous'],
    ['Cyrillic capitals', '\u0415\u0421', 'ec'],
    ['ligatures', 'ﬁne', 'fine'],
    [
      'zero-width characters and soft hyphen',
      'a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf\u00ADg',
      'abcdefg',
    ],
    ['Cyrillic look-alikes', '\u0430\u0435\u043E\u0440\u0441\u0445\u0443\u0456', 'aeopcxyi'],
    ['Greek look-alikes', '\u03BF\u03B5\u03B1', 'oea'],
    ['accents', 'Crème brûlée', 'Creme brulee'],
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
