// What the search index's writer and reader agree on (search/search-index-file.ts): keys that
// sort newest first, and filter tags that an ad has exactly when it matches the filters.
import { describe, expect, test } from 'vitest';
import {
  adTags,
  newestKeyFrom,
  searchKey,
  cellOf,
  tagsMatch,
  type TagFilters,
} from '../../../search/search-index-file.ts';
import { AD_AGE_MAX, AD_AGE_MIN } from '../../../core/schemas/ad-limits.ts';

describe('searchKey', () => {
  test('ascending keys are newest first, then highest id first', () => {
    const ads = [
      { postedAt: '2026-11-20', id: 7 },
      { postedAt: '2026-11-22', id: 3 },
      { postedAt: '2026-11-22', id: 100000001 },
      { postedAt: '2025-01-01', id: 1 },
      { postedAt: '2026-11-20', id: 8 },
    ];
    const byKey = [...ads].sort((a, b) => searchKey(a) - searchKey(b));
    expect(byKey).toEqual([ads[2], ads[1], ads[4], ads[0], ads[3]]);
    for (const ad of ads) expect(Number.isSafeInteger(searchKey(ad))).toBe(true);
  });

  test('newestKeyFrom(day) bounds exactly the ads posted that day or later', () => {
    const bound = newestKeyFrom('2026-11-20');
    expect(searchKey({ postedAt: '2026-11-20', id: 0 })).toBeLessThanOrEqual(bound);
    expect(searchKey({ postedAt: '2026-11-21', id: 5 })).toBeLessThanOrEqual(bound);
    expect(searchKey({ postedAt: '2026-11-19', id: 2 ** 32 - 1 })).toBeGreaterThan(bound);
  });

  test('an id the keys cannot hold is refused', () => {
    expect(() => searchKey({ postedAt: '2026-11-20', id: 2 ** 32 })).toThrow(/does not fit/);
  });
});

describe('tags', () => {
  /** Whether an ad with these tags is found by these filters, as FTS5 would read the expression. */
  function found(tags: string, filters: TagFilters): boolean {
    const expression = tagsMatch(filters);
    if (expression === undefined) return true;
    const wanted = [...expression.matchAll(/"([^"]+)"/g)].map((match) => match[1]);
    return tags.split(' ').some((tag) => wanted.includes(tag));
  }

  test('an ad is found by an age range exactly when its age is in it (every range)', () => {
    for (let age = AD_AGE_MIN; age <= AD_AGE_MAX; age += 1) {
      const tags = adTags({ seeks: 'w4m', age }, 3, 41, 47_000);
      for (let min = AD_AGE_MIN; min <= AD_AGE_MAX; min += 1)
        for (let max = min; max <= AD_AGE_MAX; max += 1)
          if (found(tags, { minAge: min, maxAge: max }) !== (age >= min && age <= max))
            throw new Error(`age ${age}, range ${min}–${max}`);
    }
  });

  test('place, seeks and age together: found exactly when each matches', () => {
    const tags = adTags({ seeks: 'w4m', age: 34 }, 3, 41, 47_000);
    expect(found(tags, { state: 3 })).toBe(true);
    expect(found(tags, { state: 4 })).toBe(false);
    expect(found(tags, { place: 41, seeks: 'w4m', minAge: 30, maxAge: 40 })).toBe(true);
    expect(found(tags, { place: 41, seeks: 'm4w', minAge: 30, maxAge: 40 })).toBe(false);
    expect(found(tags, { place: 42, seeks: 'w4m' })).toBe(false);
    expect(found(tags, { state: 3, seeks: 'w4m', minAge: 35 })).toBe(false);
    expect(found(tags, { seeks: 'w4m', maxAge: 34 })).toBe(true);
    expect(found(tags, { cells: [46_999, 47_000], seeks: 'w4m', minAge: 34 })).toBe(true);
    expect(found(tags, { cells: [46_999], seeks: 'w4m' })).toBe(false);
    expect(found(tags, { cells: [47_000], seeks: 'm4w' })).toBe(false);
    expect(found(tags, { cells: [47_000] })).toBe(true);
    // No filter, or every age: no expression (all ads).
    expect(tagsMatch({})).toBeUndefined();
    expect(tagsMatch({ minAge: AD_AGE_MIN, maxAge: AD_AGE_MAX })).toBeUndefined();
  });
});

test('cellOf: whole degrees, so neighbours within a degree share a cell and others do not', () => {
  const portland = { latitude: 45.52, longitude: -122.68 };
  const vancouver = { latitude: 45.64, longitude: -122.66 };
  const seattle = { latitude: 47.61, longitude: -122.33 };
  expect(cellOf(portland)).toBe(cellOf(vancouver));
  expect(cellOf(portland)).not.toBe(cellOf(seattle));
  // One degree north is 360 cells on; one east, the next cell.
  expect(cellOf({ latitude: 46.52, longitude: -122.68 }) - cellOf(portland)).toBe(360);
  expect(cellOf({ latitude: 45.52, longitude: -121.68 }) - cellOf(portland)).toBe(1);
});
