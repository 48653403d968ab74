// Where each place of the search index is (its city's coordinates in the compiled content,
// core/schemas/city.ts), for write-search-index.ts: given to a place when it is first indexed,
// and moved when an editor moved the city since.
import type Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { compiledContentFile } from '../core/content/index.ts';
import type { Coordinates } from '../core/geo/great-circle.ts';
import type { CompiledContent, CompiledState } from '../core/schemas/compiled-content.ts';

/** The coordinates of a city of the compiled content; an unknown city is a bug in the build. */
export type PlaceCoordinates = (state: string, city: string) => Coordinates;

export function placeCoordinates(states: readonly CompiledState[]): PlaceCoordinates {
  const byKey = new Map<string, Coordinates>();
  for (const state of states)
    for (const { name, latitude, longitude } of state.cities)
      byKey.set(`${state.name}\u0000${name}`, { latitude, longitude });
  return (state, city) => {
    const found = byKey.get(`${state}\u0000${city}`);
    if (!found)
      throw new Error(`The search index has ads in ${city}, ${state}, which the content lacks`);
    return found;
  };
}

/** The states of the compiled content in `compiledDir` (when the caller does not hold them). */
export const readCompiledStates = (compiledDir: string): CompiledState[] =>
  (JSON.parse(readFileSync(compiledContentFile(compiledDir), 'utf8')) as CompiledContent).states;

/** Gives every indexed place its city's coordinates where they changed. */
export function moveChangedPlaces(db: Database.Database, at: PlaceCoordinates): void {
  const move = db.prepare<[number, number, number]>(
    'UPDATE places SET latitude = ?, longitude = ? WHERE code = ?',
  );
  const places = db
    .prepare<
      [],
      { code: number; state: string; city: string; latitude: number; longitude: number }
    >('SELECT code, state, city, latitude, longitude FROM places')
    .all();
  for (const place of places) {
    const now = at(place.state, place.city);
    if (now.latitude !== place.latitude || now.longitude !== place.longitude)
      move.run(now.latitude, now.longitude, place.code);
  }
}
