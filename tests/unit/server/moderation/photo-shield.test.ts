// The queue's label of a likely explicit photo (server/moderation/photo-shield.ts): the score as a
// moderator reads it, two decimals, or its first digits below 0.01 (a test's low threshold).
import { describe, expect, test } from 'vitest';
import { likelyExplicitLabel, shownScore } from '../../../../server/moderation/photo-shield.ts';

describe('shownScore', () => {
  test.each([
    [0.87, '0.87'],
    [0.8749, '0.87'],
    [0.5, '0.50'],
    [1, '1.00'],
    [0.0123, '0.01'],
    [0.0048, '0.0048'],
    [0.001, '0.001'],
    [0.0001, '0.0001'],
    [0, '0.00'],
  ])('%s reads %s', (score, shown) => {
    expect(shownScore(score)).toBe(shown);
  });
});

test('the label says it in words, with the score', () => {
  expect(likelyExplicitLabel(0.8712)).toBe('Likely explicit (score 0.87)');
});
