// A small valid copy of content/ for content tests: every state, the first five cities of each,
// and a few real sample ads. Tests then add or replace files to show one failure at a time.
import { afterAll, beforeAll } from 'vitest';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { AD_COLUMNS } from '../../core/schemas/ad.ts';

export const REAL_CONTENT_DIR = fileURLToPath(new URL('../../content', import.meta.url));

const CITIES_PER_STATE = 5;
// The site.md popular cities; each is within the first five rows of its state's CSV.
const AD_CITIES = ['Los Angeles', 'New York City', 'Miami', 'Las Vegas'];
const ADS_PER_CITY = 2;

/**
 * Creates `<temp>/content` so problems read `content/...`, as they do for the real folder
 * (the compiler names files relative to the content folder's parent).
 */
export function makeContentFixture(): { dir: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'localboard-content-'));
  const dir = join(root, 'content');
  for (const entry of ['site.md', 'pages', 'guides', 'policy', 'states']) {
    cpSync(join(REAL_CONTENT_DIR, entry), join(dir, entry), { recursive: true });
  }

  mkdirSync(join(dir, 'cities'));
  for (const name of readdirSync(join(REAL_CONTENT_DIR, 'cities'))) {
    const lines = readFileSync(join(REAL_CONTENT_DIR, 'cities', name), 'utf8').split(/\r?\n/);
    writeFixtureFile(dir, `cities/${name}`, `${lines.slice(0, 1 + CITIES_PER_STATE).join('\n')}\n`);
  }

  const sampleCsv = readFileSync(join(REAL_CONTENT_DIR, 'ads', 'sample.csv'), 'utf8');
  const ads: Record<string, string>[] = parse(sampleCsv, { columns: true });
  const chosen = AD_CITIES.flatMap((city) =>
    ads.filter((ad) => ad.city === city).slice(0, ADS_PER_CITY),
  );
  const adsCsv = stringify(chosen, { header: true, columns: [...AD_COLUMNS] });
  writeFixtureFile(dir, 'ads/sample.csv', adsCsv);

  return { dir, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * makeContentFixture for a file's tests, with a folder beside it for their compiled content
 * (empty until they compile): made before the tests, removed after them. The object is filled
 * in by `beforeAll`: read it inside hooks and tests only.
 */
export function contentFixtureForFile(): { dir: string; compiledDir: string } {
  const fixture = { dir: '', compiledDir: '' };
  let cleanup = () => {};
  beforeAll(() => {
    const made = makeContentFixture();
    Object.assign(fixture, { dir: made.dir, compiledDir: join(made.dir, '..', 'compiled') });
    cleanup = made.cleanup;
  });
  afterAll(() => cleanup());
  return fixture;
}

export function writeFixtureFile(dir: string, relativePath: string, text: string): void {
  const path = join(dir, relativePath);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export function removeFixtureFile(dir: string, relativePath: string): void {
  rmSync(join(dir, relativePath));
}

/**
 * Cities whose names need encoding in a URL, added to the fixture: a space and an apostrophe
 * (Coeur d'Alene, Idaho), an ñ (Española, New Mexico) and, with `plus`, a + (Plus+Town, Vermont).
 */
export function addAwkwardCities(dir: string, { plus = false } = {}): void {
  appendFileSync(
    join(dir, 'cities/Idaho.csv'),
    "Coeur d'Alene,49122,47.67768,-116.78047,5589173\n",
  );
  appendFileSync(
    join(dir, 'cities/New Mexico.csv'),
    'Española,10224,35.99113,-106.08058,5467024\n',
  );
  if (plus)
    appendFileSync(join(dir, 'cities/Vermont.csv'), 'Plus+Town,1000,44.26,-72.58,9999999\n');
}
