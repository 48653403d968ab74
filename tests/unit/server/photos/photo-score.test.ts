// The explicit-image score's rules without the model (issue 31): what is stored of the model's five
// probabilities (server/photos/explicit-score.ts scoreOf), the one test the queue will use
// (core/schemas/photos.ts isLikelyExplicit), and the threshold's one setting
// (server/photos/app-photos.ts explicitThresholdFromEnv, PHOTO_EXPLICIT_THRESHOLD).
import { describe, expect, test } from 'vitest';
import { explicitThresholdFromEnv } from '../../../../server/photos/app-photos.ts';
import { scoreOf } from '../../../../server/photos/explicit-score.ts';
import { DEFAULT_EXPLICIT_THRESHOLD, isLikelyExplicit } from '../../../../core/schemas/photos.ts';

describe('the stored score', () => {
  test('explicit is porn + hentai, sexy apart, four decimals; drawing and neutral are not kept', () => {
    expect(
      scoreOf({ Drawing: 0.1, Hentai: 0.123456, Neutral: 0.2, Porn: 0.4, Sexy: 0.176544 }),
    ).toEqual({ explicit: 0.5235, sexy: 0.1765 });
  });

  test('never over 1, whatever the float sum', () => {
    expect(
      scoreOf({ Drawing: 0, Hentai: 0.5000001, Neutral: 0, Porn: 0.5000001, Sexy: 0 }).explicit,
    ).toBe(1);
  });
});

describe('isLikelyExplicit', () => {
  test('at or over the threshold; never an unscored photo', () => {
    expect(isLikelyExplicit(0.5, 0.5)).toBe(true);
    expect(isLikelyExplicit(0.93, 0.5)).toBe(true);
    expect(isLikelyExplicit(0.4999, 0.5)).toBe(false);
    expect(isLikelyExplicit(null, 0.01)).toBe(false);
    expect(isLikelyExplicit(undefined, 0.01)).toBe(false);
  });
});

describe('PHOTO_EXPLICIT_THRESHOLD', () => {
  test('unset or empty: the default', () => {
    expect(explicitThresholdFromEnv({})).toEqual({ threshold: DEFAULT_EXPLICIT_THRESHOLD });
    expect(explicitThresholdFromEnv({ PHOTO_EXPLICIT_THRESHOLD: '  ' })).toEqual({
      threshold: DEFAULT_EXPLICIT_THRESHOLD,
    });
  });

  test('a number over 0 and at most 1', () => {
    expect(explicitThresholdFromEnv({ PHOTO_EXPLICIT_THRESHOLD: '0.3' })).toEqual({
      threshold: 0.3,
    });
    expect(explicitThresholdFromEnv({ PHOTO_EXPLICIT_THRESHOLD: '.05' })).toEqual({
      threshold: 0.05,
    });
    expect(explicitThresholdFromEnv({ PHOTO_EXPLICIT_THRESHOLD: '1' })).toEqual({ threshold: 1 });
  });

  test('anything else is a problem in one line, naming the setting and the value', () => {
    for (const value of ['0', '1.5', '-0.2', 'high', '50%', '0x1', '1e-1'])
      expect(explicitThresholdFromEnv({ PHOTO_EXPLICIT_THRESHOLD: value })).toEqual({
        problem: `PHOTO_EXPLICIT_THRESHOLD: expected a number over 0 and at most 1 (default ${DEFAULT_EXPLICIT_THRESHOLD}), got ${JSON.stringify(value)}`,
      });
  });
});
