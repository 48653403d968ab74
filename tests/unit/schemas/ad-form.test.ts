// One ad schema: the posting form (core/schemas/ad-form.ts) and editors' CSV rows (ad.ts) are built
// from the same field rules (ad-fields.ts), so they accept and refuse the same values; only the
// wording differs (a sentence beside the field for members, `field: reason` for editors).
import { describe, expect, test } from 'vitest';
import { adRowSchema } from '../../../core/schemas/ad.ts';
import { checkAdForm } from '../../../core/schemas/ad-form.ts';

const FORM = {
  state: 'California',
  city: 'Los Angeles',
  age: '34',
  seeks: 'w4m',
  title: 'Coffee',
  description: 'Hello.',
};
const ROW = {
  ...FORM,
  id: '1',
  images: '',
  featured: '',
  postedAt: '2026-01-01',
  expiresAt: '2026-02-01',
  sample: '',
};

const CASES: [string, Record<string, string>][] = [
  ['a valid ad', {}],
  ['age 18', { age: '18' }],
  ['age 17', { age: '17' }],
  ['age 99', { age: '99' }],
  ['age 100', { age: '100' }],
  ['age with a decimal', { age: '30.5' }],
  ['age empty', { age: '' }],
  ['seeks unknown', { seeks: 'x4y' }],
  ['title of 120 characters', { title: 't'.repeat(120) }],
  ['title of 121 characters', { title: 't'.repeat(121) }],
  ['title on two lines', { title: 'a\nb' }],
  ['title of spaces', { title: '   ' }],
  ['description of 5,000 characters', { description: 'd'.repeat(5000) }],
  ['description of 5,001 characters', { description: 'd'.repeat(5001) }],
  ['description with line breaks', { description: 'a\n\nb' }],
  ['city of 81 characters', { city: 'c'.repeat(81) }],
];

describe('the posting form and the CSV row', () => {
  test.each(CASES)('agree on %s', (_label, change) => {
    const form = checkAdForm({ ...FORM, ...change });
    const row = adRowSchema.safeParse({ ...ROW, ...change });
    expect(form.ok).toBe(row.success);
  });

  test('word the same rule for their readers', () => {
    const form = checkAdForm({ ...FORM, age: '17' });
    const row = adRowSchema.safeParse({ ...ROW, age: '17' });
    expect(form.ok ? undefined : form.problems.age).toBe('You must be 18 or over to post an ad.');
    expect(row.success ? undefined : row.error.issues[0]!.message).toBe(
      'must be 18 or over (got 17)',
    );
  });
});

describe('the posting form', () => {
  test('takes a JSON number for the age, and CRLF line breaks as one character', () => {
    const checked = checkAdForm({ ...FORM, age: 40, description: `${'d'.repeat(4998)}\r\nx` });
    expect(checked.ok && checked.ad.age).toBe(40);
    expect(checked.ok && checked.ad.description).toBe(`${'d'.repeat(4998)}\nx`);
  });

  test('names a city the state does not have, once the rest of the place is right', () => {
    const hasCity = (state: string, city: string) =>
      state === 'California' && city === 'Los Angeles';
    expect(checkAdForm({ ...FORM, city: 'Atlantis' }, hasCity)).toEqual({
      ok: false,
      problems: {
        city: 'We don\'t list a city called "Atlantis" in California. Choose one of the suggested cities, or the nearest one.',
      },
    });
    expect(checkAdForm({ ...FORM, state: 'Atlantis', city: 'Atlantis' }, hasCity)).toEqual({
      ok: false,
      problems: { state: 'Choose one of the 50 states from the list.' },
    });
    expect(checkAdForm(FORM, hasCity).ok).toBe(true);
  });
});
