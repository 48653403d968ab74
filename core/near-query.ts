// Search by distance (docs/product.md section 9): the city a search is near, from the `near`
// parameter as the form sends it or a person types it: "Oregon/Portland" (the URL's own form),
// "Portland, Oregon", "Portland, OR" or "Portland". A name that matches several cities, or none,
// is answered with the cities to choose from, never a guess.
import { getStates } from './content/index.ts';
import type { Coordinates } from './geo/great-circle.ts';
import type { CompiledState } from './schemas/compiled-content.ts';

/** The distances a search may reach, in miles. */
export const WITHIN_MILES = [10, 25, 50, 100] as const;
export type WithinMiles = (typeof WITHIN_MILES)[number];
/** How far a search near a city reaches when no distance is given. */
export const DEFAULT_WITHIN_MILES: WithinMiles = 25;
/** The most cities offered when a name is ambiguous or unknown. */
const CHOICES_MAX = 10;

export interface NearFilter extends Coordinates {
  state: string;
  city: string;
  miles: WithinMiles;
}

/** A city to choose: its state and name. */
export interface NearChoice {
  state: string;
  city: string;
}

export type NearCity =
  | { ok: true; state: string; city: string; at: Coordinates }
  | { ok: false; message: string; choices: NearChoice[] };

/** The `near` parameter of a city: `Oregon/Portland`. */
export const nearValue = ({ state, city }: NearChoice) => `${state}/${city}`;

interface Place extends NearChoice {
  population: number;
  at: Coordinates;
}

let byName: { states: readonly CompiledState[]; places: Map<string, Place[]> } | undefined;

/** Every city by its lower-cased name, most populous first. */
function placesByName(): Map<string, Place[]> {
  const states = getStates();
  if (byName?.states === states) return byName.places;
  const places = new Map<string, Place[]>();
  for (const state of states)
    for (const city of state.cities) {
      const key = city.name.toLowerCase();
      const list = places.get(key) ?? [];
      list.push({
        state: state.name,
        city: city.name,
        population: city.population,
        at: { latitude: city.latitude, longitude: city.longitude },
      });
      places.set(key, list);
    }
  for (const list of places.values()) list.sort((a, b) => b.population - a.population);
  byName = { states, places };
  return places;
}

const stateOf = (text: string) => {
  const wanted = text.trim().toLowerCase();
  return getStates().find(
    (state) => state.name.toLowerCase() === wanted || state.code.toLowerCase() === wanted,
  );
};

/** The city `text` names, or what to choose from. */
export function findNearCity(text: string): NearCity {
  const places = placesByName();
  const slash = text.indexOf('/');
  const comma = text.lastIndexOf(',');
  let name = text.trim();
  let stateName: string | undefined;
  if (slash > 0) {
    stateName = stateOf(text.slice(0, slash))?.name ?? text.slice(0, slash).trim();
    name = text.slice(slash + 1).trim();
  } else if (comma > 0) {
    const state = stateOf(text.slice(comma + 1));
    if (state) {
      stateName = state.name;
      name = text.slice(0, comma).trim();
    }
  }
  const named = places.get(name.toLowerCase()) ?? [];
  const found = stateName ? named.filter((place) => place.state === stateName) : named;
  if (found.length === 1) {
    const [place] = found;
    return { ok: true, state: place!.state, city: place!.city, at: place!.at };
  }
  if (found.length > 1)
    return {
      ok: false,
      message: `${found.length} cities are called “${name}”: choose one.`,
      choices: found.slice(0, CHOICES_MAX).map(choiceOf),
    };
  const where = stateName ? ` in ${stateName}` : '';
  const choices = named.length > 0 ? named : startingWith(places, name.toLowerCase(), stateName);
  return {
    ok: false,
    message:
      `No city called “${name}”${where} on this site.` +
      (choices.length > 0
        ? ' Did you mean one of these?'
        : ' Write it as State/City, e.g. Oregon/Portland.'),
    choices: choices.slice(0, CHOICES_MAX).map(choiceOf),
  };
}

const choiceOf = ({ state, city }: Place): NearChoice => ({ state, city });

/** Cities whose name begins with `prefix` (in that state, if one was named), most populous first. */
function startingWith(places: Map<string, Place[]>, prefix: string, stateName?: string): Place[] {
  if (prefix.length < 3) return [];
  const found: Place[] = [];
  for (const [name, list] of places)
    if (name.startsWith(prefix))
      found.push(...list.filter((place) => !stateName || place.state === stateName));
  return found.sort((a, b) => b.population - a.population);
}
