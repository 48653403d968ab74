// What the scam shield's model reads (core/shield/features.ts): the ways scammers write a word so
// that a filter misses it read as the word, and the shapes of a phone number or a handle.
import { describe, expect, it } from 'vitest';
import { SHORT_TEXT_PRIOR, shieldFeatures, shieldWords } from '../../../core/shield/features.ts';

const keys = (text: string) => new Set(shieldFeatures(text).keys());
/** The letter runs (c:…) two texts share, as a share of the first's. */
const shared = (a: string, b: string) => {
  const runs = (text: string) => [...keys(text)].filter((key) => key.startsWith('c:'));
  const other = new Set(runs(b));
  const mine = runs(a);
  return mine.filter((key) => other.has(key)).length / mine.length;
};

describe('the features of a text', () => {
  it('reads spaced, hyphenated and look-alike spellings as the word', () => {
    for (const written of [
      't e l e g r a m',
      'tele-gram',
      'te1egram',
      'ｔｅｌｅｇｒａｍ',
      'tеlеgram',
    ])
      expect(shared('telegram', written), written).toBe(1);
    expect(shared('whatsapp', 'wh@tsapp')).toBe(1);
    expect(shared('cashapp', 'c@$h app')).toBe(1);
    expect(shared('number', 'numbr')).toBeGreaterThan(0.3);
  });

  it('reads every digit as 0, so amounts of one shape are one word', () => {
    expect(shieldWords('Send $50 now')).toEqual(['send', '$00', 'now']);
    expect(keys('send $80')).toEqual(keys('send $20'));
  });

  it('sees a number as long as a phone number, spelled out or not, and handles', () => {
    expect(keys('five five five two one nine nine')).toContain('s:phone-length-digits');
    expect(keys('call 555 201 9981')).toContain('s:phone-length-digits');
    expect(keys('I have 2 dogs and 3 cats')).not.toContain('s:phone-length-digits');
    expect(keys('add me jessy_luv94')).toContain('s:handle');
    expect(keys('find me @mike.r77')).toContain('s:at-handle');
    expect(keys('a $40 ticket')).toContain('s:amount');
  });

  it('weighs a long text about as much as a short one, and a very short one less', () => {
    const length = (text: string) => Math.hypot(...shieldFeatures(text).values());
    const long = 'Coffee on Saturday at the museum? I love the modern wing, and the garden after.';
    expect(length(long)).toBeGreaterThan(0.75);
    expect(length(long)).toBeLessThan(1);
    expect(length('hi there')).toBeLessThan(length(long) / 3);
    const pizza = shieldFeatures('pizza');
    expect(length('pizza')).toBeCloseTo(
      Math.sqrt(pizza.size / (pizza.size + SHORT_TEXT_PRIOR)),
      10,
    );
    // An everyday word alone ("hi") says nothing: no features at all.
    expect(shieldFeatures('hi').size).toBe(0);
    expect(shieldFeatures('').size).toBe(0);
  });
});
