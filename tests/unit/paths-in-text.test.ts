// A refusal's site paths become links (core/paths-in-text.ts): only a path standing as a word.
import { describe, expect, it } from 'vitest';
import { piecesOfText } from '../../core/paths-in-text.ts';

describe('piecesOfText', () => {
  it("finds the age check's page in a refusal, and nothing else", () => {
    expect(piecesOfText('Check your age on /verify-age (only "18 or over" is kept).')).toEqual([
      { text: 'Check your age on ' },
      { path: '/verify-age' },
      { text: ' (only "18 or over" is kept).' },
    ]);
    expect(piecesOfText('ask for a code on /account/verification, send a selfie')).toEqual([
      { text: 'ask for a code on ' },
      { path: '/account/verification' },
      { text: ', send a selfie' },
    ]);
    expect(piecesOfText('and/or 18/99, https://x.test/a, //host, /terms#clause-4-7.')).toEqual([
      { text: 'and/or 18/99, https://x.test/a, //host, /terms#clause-4-7.' },
    ]);
    expect(piecesOfText('/verify-age')).toEqual([{ path: '/verify-age' }]);
    expect(piecesOfText('')).toEqual([]);
  });
});
