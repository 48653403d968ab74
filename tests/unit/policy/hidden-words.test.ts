// A member's hidden words (docs/product.md section 7, "Who may reach me"), found as the policy
// scanner reads a text: case, accents, look-alike letters and stray spaces aside, whole words only.
import { describe, expect, it } from 'vitest';
import { findHiddenWord } from '../../../core/policy/hidden-words.ts';

const WORDS = ['ass', 'cash', 'telegram', 'sugar daddy', 'café', "don't"];

describe('a hidden word', () => {
  it.each([
    ['nice ass', 'ass'],
    ['CASH only', 'cash'],
    ['ca$h only', 'cash'],
    ['t e l e g r a m', 'telegram'],
    ['tele.gram', 'telegram'],
    ['tеlеgram', 'telegram'], // Cyrillic е
    ['ｔｅｌｅｇｒａｍ', 'telegram'],
    ['my sugar-daddy', 'sugar daddy'],
    ['sugar  DADDY', 'sugar daddy'],
    ['cafe au lait', 'café'],
    ['CAFÉ', 'café'],
    ['dont', "don't"],
  ])('is found in %j', (text, word) => {
    expect(findHiddenWord(text, WORDS)).toBe(word);
  });

  it.each([
    'I teach a dance class',
    'my assistant',
    'a cashew, please',
    'sugardaddy', // one word is another word
    'telegrams of the war', // a longer word
    'cafeteria',
  ])('is not found inside an ordinary word: %j', (text) => {
    expect(findHiddenWord(text, WORDS)).toBeUndefined();
  });

  it('finds nothing without words', () => {
    expect(findHiddenWord('anything at all', [])).toBeUndefined();
  });
});
