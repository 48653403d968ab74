// A page of a search by distance is the same whichever way the places' ads fall on pages: every
// page of every distance-ordered list, read place by place, is that list's slice.
import { describe, expect, test } from 'vitest';
import { newestOfPlaces, pageByDistance } from '../../../search/search-index-near.ts';

/** Places nearest first, each with its matches' keys in key (newest-first) order. */
const PLACES = [
  { code: 7, miles: 0, keys: [3, 9, 12] },
  { code: 2, miles: 4.2, keys: [] },
  { code: 5, miles: 8.1, keys: [1, 2, 4, 5, 6] },
  { code: 9, miles: 20, keys: [7, 8] },
];
const keysOf = (code: number) => PLACES.find((place) => place.code === code)!.keys;
const count = (code: number, cap: number) => Math.min(cap, keysOf(code).length);
const keys = (code: number, limit: number, offset = 0) =>
  keysOf(code).slice(offset, offset + limit);
const inOrder = PLACES.flatMap((place) => place.keys.map((key) => ({ key, miles: place.miles })));

describe('pageByDistance', () => {
  test('every page of every size is the slice of the whole list, and the count is whole', () => {
    for (let limit = 1; limit <= 4; limit += 1)
      for (let offset = 0; offset <= inOrder.length; offset += limit) {
        const page = pageByDistance(PLACES, count, keys, { offset, limit, countedMax: 100 });
        expect(page.found).toEqual(inOrder.slice(offset, offset + limit));
        expect(page.counted).toBe(inOrder.length);
      }
  });

  test('stops counting past the counted limit', () => {
    const page = pageByDistance(PLACES, count, keys, { offset: 0, limit: 2, countedMax: 3 });
    expect(page.found).toEqual(inOrder.slice(0, 2));
    expect(page.counted).toBe(4);
  });
});

test('newestOfPlaces merges the places’ newest keys', () => {
  expect(newestOfPlaces(PLACES, (code, limit) => keys(code, limit), 4)).toEqual([1, 2, 3, 4]);
});
