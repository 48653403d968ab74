import { describe, expect, it } from 'vitest';
import { DIGEST_ADS_MAX, newSince, seenOf } from '../../../server/saved-searches/seen-ads.ts';

const ad = (day: string, id: number) => ({ postedAt: day, id });
const ids = (ads: readonly { id: number }[]) => ads.map((a) => a.id);

describe('which matching ads are new to a saved search', () => {
  it('remembers the newest day and the ids of that day it saw', () => {
    expect(seenOf([])).toBeNull();
    expect(
      seenOf([ad('2026-11-24', 9), ad('2026-11-24', 4), ad('2026-11-23', 12), ad('2026-11-20', 2)]),
    ).toEqual({ day: '2026-11-24', ids: [9, 4] });
  });

  it('lists everything when nothing matched before', () => {
    expect(ids(newSince([ad('2026-11-24', 9), ad('2026-11-23', 3)], null))).toEqual([9, 3]);
  });

  it('finds an ad approved later the same day with a lower id (it sorts below the seen ones)', () => {
    const seen = seenOf([ad('2026-11-24', 9), ad('2026-11-23', 3)]);
    const now = [
      ad('2026-11-25', 2),
      ad('2026-11-24', 9),
      ad('2026-11-24', 5),
      ad('2026-11-23', 3),
    ];
    expect(ids(newSince(now, seen))).toEqual([2, 5]);
    // Mailed: nothing is new any more, until another comes.
    expect(newSince(now, seenOf(now))).toEqual([]);
  });

  it('never lists an ad of an earlier day again', () => {
    const seen = { day: '2026-11-24', ids: [9] };
    expect(newSince([ad('2026-11-24', 9), ad('2026-11-23', 40)], seen)).toEqual([]);
  });

  it('counts ads below a full day read as seen (the digest lists the newest only)', () => {
    const day = Array.from({ length: DIGEST_ADS_MAX }, (_, i) => ad('2026-11-24', 100 - i));
    const seen = seenOf(day)!;
    expect(seen.ids).toHaveLength(DIGEST_ADS_MAX);
    expect(ids(newSince([ad('2026-11-24', 101), ...day.slice(0, -1)], seen))).toEqual([101]);
    expect(newSince([...day, ad('2026-11-24', 3)], seen)).toEqual([]);
  });
});
