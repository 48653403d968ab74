// A page of a search by distance is the same whichever way the places' ads fall on pages: every
// page of every distance-ordered list, read place by place, is that list's slice; and the same
// list sorted from one lookup of the places' cells.
import { describe, expect, test } from 'vitest';
import { byDistance, newestOfPlaces, pageByDistance } from '../../../search/search-index-near.ts';

/** Places nearest first, each with its matches' keys in key (newest-first) order. */
const PLACES = [
  { code: 7, cell: 1, miles: 0, keys: [3, 9, 12] },
  { code: 2, cell: 1, miles: 4.2, keys: [] },
  { code: 5, cell: 2, miles: 8.1, keys: [1, 2, 4, 5, 6] },
  { code: 9, cell: 1, miles: 20, keys: [7, 8] },
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

test('byDistance sorts one lookup’s matches as place by place, leaving out other places', () => {
  // In key order, as a lookup by cells finds them, with a place of the cells that is too far.
  const matches = [
    ...PLACES.flatMap((place) => place.keys.map((key) => ({ key, place: place.code }))),
    { key: 10, place: 11 },
    { key: 0, place: 11 },
  ].sort((a, b) => a.key - b.key);
  expect(byDistance(PLACES, matches)).toEqual(inOrder);
});

test('newestOfPlaces merges the places’ newest keys', () => {
  expect(newestOfPlaces(PLACES, (code, limit) => keys(code, limit), 4)).toEqual([1, 2, 3, 4]);
});
