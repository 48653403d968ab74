import { describe, expect, test } from 'vitest';
import { metaDescriptionOf } from '../../../src/pages/ad/adData.ts';

describe("an ad page's meta description", () => {
  test('is the first 150 characters of the description, on one line', () => {
    const description = `First line.\n\nSecond   line with ${'words '.repeat(60)}`;
    const meta = metaDescriptionOf(description);
    expect(meta).toHaveLength(150);
    expect(meta.startsWith('First line. Second line with words')).toBe(true);
    expect(meta).not.toMatch(/\s{2}|\n/);
  });

  test('counts characters, never cutting an emoji in half', () => {
    const meta = metaDescriptionOf(`${'x'.repeat(149)}😀😀`);
    expect(Array.from(meta)).toHaveLength(150);
    expect(meta.endsWith('😀')).toBe(true);
  });

  test('keeps a short description whole', () => {
    expect(metaDescriptionOf('  Coffee and a walk?  ')).toBe('Coffee and a walk?');
  });
});
