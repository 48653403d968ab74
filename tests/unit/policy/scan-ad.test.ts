import { describe, expect, test } from 'vitest';
import { scanAd, type PolicyTerms } from '../../../core/policy/index.ts';
import { readPolicyTerms } from '../../../core/policy/term-files.ts';
import { REAL_CONTENT_DIR } from '../../helpers/content-fixture.ts';

// The shipped terms: the tests also pin which kind each example word is in.
const { terms } = readPolicyTerms(REAL_CONTENT_DIR);
const ad = (description: string, place: Partial<{ state: string; city: string }> = {}) => ({
  state: 'Ohio',
  city: 'Columbus',
  title: 'Coffee and a walk',
  description,
  ...place,
});

describe('scanAd', () => {
  test('lets a plain ad through with nothing marked', () => {
    expect(scanAd(ad('I like long walks and old films.'), terms)).toEqual({ marks: [] });
  });

  test.each([
    ['escort', 'Companion and escort for events', 'escort'],
    ['incall', 'incall only', 'incall'],
    ['gfe', 'Real GFE vibes', 'GFE'],
    ['barely legal', 'barely-legal looks', 'barely-legal'],
    ['a look-alike', 'fun \u0435scort here', '\u0435scort'],
    ['full-width letters', 'ｅｓｃｏｒｔ', 'ｅｓｃｏｒｔ'],
  ])('refuses an unambiguous term, naming the word as typed: %s', (_, description, word) => {
    const scan = scanAd(ad(description), terms);
    expect(scan.refusal).toEqual({
      field: 'description',
      message: `The word “${word}” can't be used in an ad on Localboard: ads may not offer or seek anything for money, or involve anyone under 18 (see the terms).`,
    });
  });

  test('names the brand it is given', () => {
    expect(scanAd(ad('escort'), terms, 'Townboard').refusal?.message).toContain('on Townboard:');
  });

  test.each([
    ['flower arrangement', 'I do flower arrangement classes', 'arrangement'],
    ['my two teens', 'Single dad of my two teens', 'teens'],
    ['high school teacher', 'High school teacher, loves books', 'high school'],
    ['roses', 'I grow r0ses', 'roses'],
    ['generous', 'Generous with my time', 'generous'],
    ['new in town', 'New in town, show me around', 'new in town'],
    ['minor', 'A minor league baseball fan', 'minor'],
  ])('marks an ambiguous term without refusing: %s', (_, description, term) => {
    const scan = scanAd(ad(description), terms);
    expect(scan.refusal).toBeUndefined();
    expect(scan.marks.map((mark) => mark.term)).toEqual([term]);
  });

  test('marks point at the text as the member wrote it, in both fields', () => {
    const scanned = {
      ...ad('Ｆｌｏｗｅｒ ａｒｒａｎｇｅｍｅｎｔ and r0ses.'),
      title: 'Dad of t\u200Beens',
    };
    const { marks, refusal } = scanAd(scanned, terms);
    expect(refusal).toBeUndefined();
    expect(
      marks.map(({ field, term, start, end }) => [field, term, scanned[field].slice(start, end)]),
    ).toEqual([
      ['title', 'teens', 't\u200Beens'],
      ['description', 'arrangement', 'ａｒｒａｎｇｅｍｅｎｔ'],
      ['description', 'roses', 'r0ses'],
    ]);
  });

  test('never counts the ad’s own city or state', () => {
    const inMinor = { state: 'Alabama', city: 'Minor' };
    expect(scanAd({ ...ad('Living in Minor, AL', inMinor), title: 'Minor' }, terms)).toEqual({
      marks: [],
    });
    expect(scanAd(ad('Living in Minor, AL'), terms).marks).toHaveLength(1);
  });

  test.each([
    ['a phone number', 'Text me at 555-123-4567'],
    ['an email address', 'jane at gmail dot com'],
    ['a link', 'See example.com'],
  ])('refuses %s', (_, description) => {
    expect(scanAd(ad(description), terms).refusal).toEqual({
      field: 'description',
      message:
        "Contact details (phone numbers, email addresses, links) can't be in an ad: members reply through Localboard.",
    });
  });

  test('refuses for the title before the description, and still marks', () => {
    const scan = scanAd({ ...ad('escort, roses'), title: 'Call 555 123 4567' }, terms);
    expect(scan.refusal?.field).toBe('title');
    expect(scan.refusal?.message).toContain('Contact details');
    expect(scan.marks.map((mark) => mark.term)).toEqual(['roses']);
  });

  test('accepts any terms object, and none', () => {
    const none: PolicyTerms = { refuse: [], review: [] };
    expect(scanAd(ad('escort roses'), none)).toEqual({ marks: [] });
  });
});
