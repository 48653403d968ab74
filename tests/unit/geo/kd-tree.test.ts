// The nearest cities from the k-d tree are the nearest by great-circle distance: checked against
// comparing every pair, on the shipped cities' coordinates.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import { formatMiles, milesBetween } from '../../../core/geo/great-circle.ts';
import { SphereKdTree } from '../../../core/geo/kd-tree.ts';
import { REAL_CONTENT_DIR } from '../../helpers/content-fixture.ts';
import { mulberry32 } from '../../../bench/seeded-random.ts';

interface Place {
  name: string;
  latitude: number;
  longitude: number;
}

const citiesDir = join(REAL_CONTENT_DIR, 'cities');
const places: Place[] = readdirSync(citiesDir).flatMap((file) =>
  (
    parse(readFileSync(join(citiesDir, file), 'utf8'), { columns: true }) as Record<
      string,
      string
    >[]
  ).map((row) => ({
    name: `${row.name}, ${file.replace('.csv', '')}`,
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
  })),
);
const at = (name: string) => places.find((place) => place.name === name)!;

describe('great-circle distance', () => {
  test('agrees with published distances between cities', () => {
    // Portland, OR to Vancouver, WA across the Columbia; Los Angeles to New York.
    expect(milesBetween(at('Portland, Oregon'), at('Vancouver, Washington'))).toBeCloseTo(8, 0);
    expect(
      milesBetween(at('Los Angeles, California'), at('New York City, New York')),
    ).toBeGreaterThan(2440);
    expect(milesBetween(at('Los Angeles, California'), at('New York City, New York'))).toBeLessThan(
      2452,
    );
  });

  test('reads as a visitor reads it', () => {
    expect(formatMiles(0.3)).toBe('under 1 mi');
    expect(formatMiles(6.49)).toBe('6 mi');
    expect(formatMiles(1234.5)).toBe('1,235 mi');
  });
});

describe('the k-d tree', () => {
  const random = mulberry32(44);
  // A tenth of the cities "have ads".
  const withAds = places.filter(() => random() < 0.1);
  const tree = new SphereKdTree(withAds);

  test('finds the same 8 nearest as comparing every pair, for 300 cities', () => {
    for (let n = 0; n < 300; n += 1) {
      const center = places[Math.floor(random() * places.length)]!;
      const expected = withAds
        .map((place, index) => ({ index, miles: milesBetween(center, place) }))
        .filter(({ index }) => withAds[index]!.name !== center.name)
        .sort((a, b) => a.miles - b.miles)
        .slice(0, 8);
      const found = tree.nearest(
        center,
        8,
        Infinity,
        (index) => withAds[index]!.name === center.name,
      );
      expect(found.map(({ index }) => withAds[index]!.name)).toEqual(
        expected.map(({ index }) => withAds[index]!.name),
      );
      for (const [i, { miles }] of found.entries())
        expect(miles).toBeCloseTo(expected[i]!.miles, 6);
    }
  });

  test('stops at the distance asked for', () => {
    const found = tree.nearest(at('Portland, Oregon'), 8, 30);
    expect(found.every(({ miles }) => miles <= 30)).toBe(true);
    const all = withAds.filter((place) => milesBetween(at('Portland, Oregon'), place) <= 30);
    expect(found).toHaveLength(Math.min(8, all.length));
  });

  test('finds neighbours across the 180th meridian', () => {
    const aleutians = new SphereKdTree([
      { latitude: 52.9, longitude: 173.2 },
      { latitude: 52.9, longitude: -179.0 },
      { latitude: 40, longitude: -100 },
    ]);
    const [first] = aleutians.nearest({ latitude: 52.8, longitude: 179.5 }, 1);
    expect(first?.index).toBe(1);
  });
});
