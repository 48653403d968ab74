import { describe, expect, test } from 'vitest';
import { findFirstPolicyTerm, findPolicyTerms, parseTermList } from '../../../core/policy/terms.ts';

const terms = {
  refuse: parseTermList('# comment\nescort\nsugar daddy\nincall\nbarely legal\n'),
  review: parseTermList('roses\nminor\n\nGenerous\nnew in town\nteen\nlolita\n'),
};
const first = (text: string, places: string[] = []) =>
  findFirstPolicyTerm(text, terms, places)?.term;

describe('policy terms', () => {
  test('reads one lower-cased term a line, skipping comments and blank lines', () => {
    expect(terms.refuse).toEqual(['escort', 'sugar daddy', 'incall', 'barely legal']);
    expect(terms.review).toEqual(['roses', 'minor', 'generous', 'new in town', 'teen', 'lolita']);
  });

  test('match whole words and phrases in any case and spacing', () => {
    expect(first('Looking for ROSES tonight')).toBe('roses');
    expect(first('a sugar-daddy type')).toBe('sugar daddy');
    expect(first('sugar   daddy')).toBe('sugar daddy');
    expect(first('sugar_daddy and sugar.daddy')).toBe('sugar daddy');
    expect(first('He is generous.')).toBe('generous');
  });

  test('leave longer words alone', () => {
    expect(first('I grow primroses and love minority literature')).toBeUndefined();
    expect(first('sugary donuts, escorted tours, nineteen')).toBeUndefined();
  });

  test.each([
    ['digits for letters', 'r0ses for you', 'roses'],
    ['3 and 4 and 5', 'g3n3rou5', 'generous'],
    ['7 for t', 'es7ablished escor7', 'escort'],
    ['1 for i', '1ncall only', 'incall'],
    ['1 for l', 'inca11 only', 'incall'],
    ['@ and $', 'e$cort @vailable, b@rely legal', 'escort'],
    ['full-width letters', 'ｇｅｎｅｒｏｕｓ man', 'generous'],
    ['zero-width space', 'esc\u200Bort', 'escort'],
    ['zero-width joiner and non-joiner', 'esc\u200Co\u200Drt', 'escort'],
    ['word joiner and BOM', 'esc\u2060or\uFEFFt', 'escort'],
    ['soft hyphen', 'esc\u00ADort', 'escort'],
    ['Cyrillic е', '\u0435scort', 'escort'],
    ['Cyrillic а о р с х у і', 'gener\u043Eus r\u043Eses', 'generous'],
    ['Cyrillic ѕ and о', 'r\u043E\u0455es', 'roses'],
    ['Greek ο and ε', 'r\u03BFs\u03B5s', 'roses'],
    ['capital Cyrillic letters', '\u0415SCORT', 'escort'],
    ['accents', 'éscórt', 'escort'],
    ['combining accents', 'e\u0301scort', 'escort'],
    ['mathematical letters', '\u{1D41E}scort', 'escort'],
    ['a phrase with look-alikes', 'n3w 1n t0wn', 'new in town'],
  ])('normalise before matching: %s', (_, text, term) => {
    expect(first(text)).toBe(term);
  });

  test.each([
    ['an age', 'I am 34 and 5 miles away'],
    ['a year and a count', 'Since 2015, 2 kids, 3 dogs'],
    ['a height and a time', '5\'10", free after 8 pm or 7:30'],
    ['numbers around letters stay numbers', '10 05 50 7 3'],
  ])('never turn innocent numbers into words: %s', (_, text) => {
    expect(findPolicyTerms(text, terms)).toEqual([]);
  });

  test('report each match with its kind and its offsets in the text as written', () => {
    const text = 'Ｗａｒｍ and ｇｅｎｅｒｏｕｓ, no e\u200Bscort, r0ses';
    const found = findPolicyTerms(text, terms);
    expect(found.map(({ term, kind }) => [term, kind])).toEqual([
      ['generous', 'review'],
      ['escort', 'refuse'],
      ['roses', 'review'],
    ]);
    expect(found.map(({ start, end }) => text.slice(start, end))).toEqual([
      'ｇｅｎｅｒｏｕｓ',
      'e\u200Bscort',
      'r0ses',
    ]);
  });

  test('offsets hold around characters that take two code units', () => {
    const text = '\u{1F339} teen \u{1D41E}scort';
    expect(findPolicyTerms(text, terms).map(({ start, end }) => text.slice(start, end))).toEqual([
      'teen',
      '\u{1D41E}scort',
    ]);
  });

  describe("the ad's own place names", () => {
    const minor = ['Minor', 'Alabama'];
    test.each([
      ['the city in the text', 'Living in Minor, AL, new to the area'],
      ['the city alone', 'Minor'],
      ['the city written with a look-alike', 'Living in M1nor'],
      ['the city in capitals', 'MINOR born and raised'],
    ])('never count: %s', (_, text) => {
      expect(first(text, minor)).toBeUndefined();
    });

    test('do not hide the same word in another ad', () => {
      expect(first('Living in Minor, AL', ['Birmingham', 'Alabama'])).toBe('minor');
    });

    test('do not hide other terms beside them', () => {
      expect(first('Minor escort', minor)).toBe('escort');
      expect(findPolicyTerms('Minor, teen', terms, minor)).toHaveLength(1);
    });

    test('cannot join the words around them into a phrase', () => {
      expect(first('new in Springfield town', ['Springfield', 'Illinois'])).toBeUndefined();
    });
  });
});
