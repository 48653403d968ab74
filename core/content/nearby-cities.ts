// Each city's nearest cities with published ads (docs/product.md section 3, City page): from one
// k-d tree of the cities that have ads (core/geo/kd-tree.ts), built once per compiled content and
// asked once per city, never by comparing every city with every other. Across state lines.
import { hash } from 'node:crypto';
import { SphereKdTree } from '../geo/kd-tree.ts';
import { getAdCounts, getCity, getStates } from './index.ts';

/** How many nearby cities a city page lists. */
export const NEARBY_CITIES_MAX = 8;
/** Farther than this is not "nearby": such cities are not listed. */
export const NEARBY_MILES_MAX = 250;

export interface NearbyCity {
  state: string;
  city: string;
  /** Great-circle miles from the city asked about. */
  miles: number;
  /** Its published ads. */
  ads: number;
}

interface CityWithAds {
  state: string;
  city: string;
  ads: number;
}

let built:
  | {
      states: unknown;
      counts: unknown;
      tree: SphereKdTree;
      cities: CityWithAds[];
      /** Each city's key once asked for: a city's list pages and its ads' pages share it. */
      keys: Map<string, string>;
    }
  | undefined;

/** The tree of the cities with ads, made again when the compiled content is another. */
function citiesWithAds() {
  const states = getStates();
  const counts = getAdCounts();
  if (built?.states === states && built.counts === counts) return built;
  const cities: CityWithAds[] = [];
  const points: { latitude: number; longitude: number }[] = [];
  for (const state of states) {
    for (const city of state.cities) {
      const ads = counts[state.name]?.[city.name] ?? 0;
      if (ads === 0) continue;
      cities.push({ state: state.name, city: city.name, ads });
      points.push(city);
    }
  }
  built = { states, counts, tree: new SphereKdTree(points), cities, keys: new Map() };
  return built;
}

/** Up to NEARBY_CITIES_MAX cities with ads within NEARBY_MILES_MAX of this one, nearest first. */
export function nearbyCities(stateName: string, cityName: string): NearbyCity[] {
  const city = getCity(stateName, cityName);
  if (!city) return [];
  const { tree, cities } = citiesWithAds();
  return tree
    .nearest(city, NEARBY_CITIES_MAX, NEARBY_MILES_MAX, (index) => {
      const other = cities[index]!;
      return other.state === stateName && other.city === cityName;
    })
    .map(({ index, miles }) => ({ ...cities[index]!, miles }));
}

/**
 * What a city page shows of its nearby cities, hashed: a prerender group's inputs
 * (src/pages/prerender-groups.ts) change exactly when the list, a distance as shown or a count
 * does.
 */
export function nearbyCitiesKey(stateName: string, cityName: string): string {
  const { keys } = citiesWithAds();
  const id = `${stateName}\u0000${cityName}`;
  let key = keys.get(id);
  if (key === undefined) {
    const shown = nearbyCities(stateName, cityName)
      // Whole miles decide what formatMiles shows ("under 1 mi" below half a mile).
      .map(({ state, city, miles, ads }) => `${state}|${city}|${Math.round(miles)}|${ads}`)
      .join('\n');
    key = hash('sha1', shown, 'base64url');
    keys.set(id, key);
  }
  return key;
}
