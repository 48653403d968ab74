// One ads file of 100,000 rows (50 MB), as an editor's bulk import gives it. The compiler used to
// read an ads file whole and died of heap exhaustion on this one under the build's heap cap
// (pipeline/build.ts runs the content step with --max-old-space-size=160 --max-semi-space-size=2);
// it now reads files a few MB at a time. And however the same ads are split across files, one file,
// one a state or many small ones, the compiled content is the same, byte for byte.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateBenchAds, readWeightedCities } from '../../bench/ads.ts';
import type { GeneratedAd } from '../../bench/generate-ads.ts';
import { compileToDisk } from '../../pipeline/compile/compile-to-disk.ts';
import { AD_COLUMNS } from '../../core/schemas/ad.ts';
import type { AdsIndex } from '../../core/schemas/compiled-content.ts';
import { makeContentFixture } from '../helpers/content-fixture.ts';

const root = join(import.meta.dirname, '..', '..');
const BUILD_DATE = '2026-11-22';
const ADS = 100_000;
/** The content step's Node flags in pipeline/build.ts. */
const STEP_NODE_OPTIONS = ['--max-old-space-size=160', '--max-semi-space-size=2'];

let work: string;
let fixture: ReturnType<typeof makeContentFixture>;
let ads: GeneratedAd[];

const adsCsv = (rows: readonly GeneratedAd[]) =>
  stringify(rows as GeneratedAd[], {
    header: true,
    columns: [...AD_COLUMNS],
    cast: { boolean: (value) => (value ? 'true' : 'false') },
  });

/** A copy of the fixture's content with the ads split into files by `fileOf`. */
function contentWith(name: string, fileOf: (ad: GeneratedAd, index: number) => string): string {
  const dir = join(work, name, 'content');
  cpSync(fixture.dir, dir, { recursive: true, filter: (path) => !path.includes('/ads/') });
  const files = new Map<string, GeneratedAd[]>();
  ads.forEach((ad, index) => {
    const file = fileOf(ad, index);
    const rows = files.get(file);
    if (rows) rows.push(ad);
    else files.set(file, [ad]);
  });
  for (const [file, rows] of files) writeFileSync(join(dir, 'ads', file), adsCsv(rows));
  return dir;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'localboard-large-ads-'));
  fixture = makeContentFixture();
  rmSync(join(fixture.dir, 'ads', 'sample.csv'));
  ads = generateBenchAds({
    contentDir: fixture.dir,
    cities: readWeightedCities(fixture.dir),
    count: ADS,
    seed: 8,
    buildDate: BUILD_DATE,
  });
});

afterAll(() => {
  fixture.cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** Every compiled file, by name: the state files, their id records, the id index and content.json as they are, the index without its `pieces` (which name the batches). */
function compiled(compiledDir: string): Map<string, string> {
  const files = new Map<string, string>();
  files.set('content.json', readFileSync(join(compiledDir, 'content.json'), 'utf8'));
  for (const name of readdirSync(join(compiledDir, 'ads')).sort()) {
    const text = readFileSync(join(compiledDir, 'ads', name), 'utf8');
    if (name !== 'index.json') files.set(name, text);
    else {
      const index = JSON.parse(text) as AdsIndex;
      for (const state of Object.values(index)) state.pieces = '';
      files.set(name, JSON.stringify(index));
    }
  }
  return files;
}

describe('one ads file of 100,000 rows', () => {
  let single: Map<string, string>;

  // The step's own process, run without blocking this one (a busy machine makes it slow: it checks
  // the heap cap, not the time).
  test('compiles under the build heap cap, in its own process as the build runs it', async () => {
    const contentDir = contentWith('single', () => 'all.csv');
    const compiledDir = join(work, 'single', 'compiled');
    const result = await promisify(execFile)(
      process.execPath,
      [...STEP_NODE_OPTIONS, '--import', 'tsx', 'scripts/compile-content.ts', '--full'],
      {
        cwd: root,
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
        env: {
          ...process.env,
          CONTENT_DIR: contentDir,
          COMPILED_CONTENT_DIR: compiledDir,
          BUILD_DATE,
          // No member ads: a developer's data/localboard.sqlite (the default database) or
          // DATABASE_URL would add the site's transparency counts, which the in-process compiles
          // below do not read.
          DATABASE_PATH: join(work, 'no-database.sqlite'),
          DATABASE_URL: undefined,
        },
      },
    ).catch((error: { stdout: string; stderr: string; code: number }) => error);
    expect(result.stderr).not.toMatch(/heap|FATAL/);
    expect(result.stdout).toMatch(/^Compiled content for 2026-11-22: 100000 live ads \(50 state/);
    expect('code' in result ? result.code : 0).toBe(0);
    single = compiled(compiledDir);
    // content.json, the index, the id index, and the 50 state files with their id records
    expect(single.size).toBe(103);
  }, 180_000);

  test.each([
    ['one file a state', (ad: GeneratedAd) => `${ad.state}.csv`],
    [
      '1,000 files of a hundred ads',
      (_ad: GeneratedAd, index: number) => `import-${Math.floor(index / 100)}.csv`,
    ],
  ])(
    'compiles to the same content as the same ads in %s',
    (name, fileOf) => {
      const contentDir = contentWith(name, fileOf);
      const compiledDir = join(work, name, 'compiled');
      const outcome = compileToDisk({ contentDir, compiledDir, buildDate: BUILD_DATE, full: true });
      expect(outcome.ok && outcome.content.activeAds).toBe(ADS);
      const split = compiled(compiledDir);
      expect([...split.keys()]).toEqual([...single.keys()]);
      for (const [file, text] of single) expect(split.get(file) === text, file).toBe(true);
    },
    60_000,
  );
});
