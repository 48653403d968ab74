// PUBLISHER_WARM_IDLE_SECONDS, as an operator writes it (README, settings): seconds, 0 for no warm
// publisher, anything else refused in one line.
import { describe, expect, test } from 'vitest';
import { warmIdleFromEnv } from '../../../../server/publishing/build-publisher.ts';

describe('PUBLISHER_WARM_IDLE_SECONDS', () => {
  test('unset or blank: the warm publisher waits 15 minutes', () => {
    expect(warmIdleFromEnv({})).toEqual({ ms: 900_000 });
    expect(warmIdleFromEnv({ PUBLISHER_WARM_IDLE_SECONDS: ' ' })).toEqual({ ms: 900_000 });
  });

  test('seconds, fractions and 0 (a Node a publish) are taken', () => {
    expect(warmIdleFromEnv({ PUBLISHER_WARM_IDLE_SECONDS: '60' })).toEqual({ ms: 60_000 });
    expect(warmIdleFromEnv({ PUBLISHER_WARM_IDLE_SECONDS: '0.5' })).toEqual({ ms: 500 });
    expect(warmIdleFromEnv({ PUBLISHER_WARM_IDLE_SECONDS: '0' })).toEqual({ ms: 0 });
  });

  test('a negative or non-number value is refused, naming the setting and the value', () => {
    for (const value of ['-1', 'ten', '15m'])
      expect(warmIdleFromEnv({ PUBLISHER_WARM_IDLE_SECONDS: value })).toEqual({
        problem: `PUBLISHER_WARM_IDLE_SECONDS must be a number of seconds, 0 or more (got "${value}")`,
      });
  });
});
