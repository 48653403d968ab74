// The words of a verified member's badge (docs/product.md section 6, "Verified members"): never
// colour alone, and honest about photos added or replaced after the verification; and the code's
// alphabet, which handwriting cannot confuse.
import { describe, expect, test } from 'vitest';
import { codeHash, newCode } from '../../../server/verification/challenge.ts';
import {
  CODE_ALPHABET,
  CODE_LENGTH,
  POSES,
  verificationBadge,
} from '../../../core/schemas/verification.ts';

describe('the badge', () => {
  test('every photo seen: Photos verified', () => {
    expect(verificationBadge({ covered: 3, photos: 3 }).label).toBe('Photos verified');
  });

  test('a photo added or replaced later: the badge says how many were checked', () => {
    const badge = verificationBadge({ covered: 1, photos: 2 });
    expect(badge.label).toBe('Photos verified: 1 of 2');
    expect(badge.detail).toContain('added or changed later and are not checked');
  });

  test('no photo compared: Real person, and the photos are said to be unchecked', () => {
    expect(verificationBadge({ covered: 0, photos: 2 })).toEqual({
      label: 'Real person',
      detail: expect.stringContaining('These photos were not compared with it'),
    });
    expect(verificationBadge({ covered: 0, photos: 0 }).label).toBe('Real person');
  });
});

describe('the challenge', () => {
  test('codes are made of the alphabet without look-alikes', () => {
    for (const confusable of '0O1IL2Z5S8B6GUVQD') expect(CODE_ALPHABET).not.toContain(confusable);
    const codes = new Set(Array.from({ length: 200 }, () => newCode()));
    for (const code of codes)
      expect(code).toMatch(new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`));
    // 19^5 = 2.5 million codes: 200 draws all differ, or nearly.
    expect(codes.size).toBeGreaterThan(195);
    expect(codeHash('ACE47')).toMatch(/^[0-9a-f]{64}$/);
  });

  test('every pose is hands-free', () => {
    for (const words of Object.values(POSES)) expect(words).not.toMatch(/hand|finger|thumb|wave/i);
  });
});
