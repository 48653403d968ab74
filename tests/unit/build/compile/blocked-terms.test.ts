import { describe, expect, test } from 'vitest';
import { findBlockedTerm, readBlockedTerms } from '../../../../src/build/compile/blocked-terms.ts';

const terms = readBlockedTerms('# comment\nroses\nsugar daddy\nminor\n\nGenerous\n');

describe('blocked terms', () => {
  test('reads one lower-cased term a line, skipping comments and blank lines', () => {
    expect(terms).toEqual(['roses', 'sugar daddy', 'minor', 'generous']);
  });

  test('match whole words and phrases in any case and spacing', () => {
    expect(findBlockedTerm('Looking for ROSES tonight', terms)).toBe('roses');
    expect(findBlockedTerm('a sugar-daddy type', terms)).toBe('sugar daddy');
    expect(findBlockedTerm('sugar   daddy', terms)).toBe('sugar daddy');
    expect(findBlockedTerm('He is generous.', terms)).toBe('generous');
  });

  test('leave longer words alone', () => {
    expect(findBlockedTerm('I grow primroses and love minority literature', terms)).toBeUndefined();
    expect(findBlockedTerm('sugary donuts', terms)).toBeUndefined();
  });
});
