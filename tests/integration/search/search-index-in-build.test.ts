// The search index in a build (pipeline/prerender/new-search-index.ts): when the compiled content
// has no index of this version, the content step leaves it to the pages step, which builds it from
// nothing on its render worker before that joins the rendering; when it has one, the content step
// brings it up to date. Either way the index holds exactly the ads a compile in one step indexes,
// and the server's search finds them.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { compileToDisk } from '../../../pipeline/compile/compile-to-disk.ts';
import type { CompiledAd, CompiledContent } from '../../../core/schemas/compiled-content.ts';
import {
  isSearchIndexOfThisVersion,
  searchIndexFile,
  SEARCH_INDEX_VERSION,
} from '../../../search/search-index-file.ts';
import { searchIndex } from '../../../search/search-index.ts';
import { makeContentFixture, writeFixtureFile } from '../../helpers/content-fixture.ts';
import { buildSite } from '../../helpers/vite-output.ts';

const BUILD_DATE = '2026-11-22';
const LEFT = 'the search index left to the pages step, which builds it from nothing';
const BUILT = 'Built the search index from nothing beside the pages';

let fixture: ReturnType<typeof makeContentFixture>;
let work: string;
const cache = () => join(work, 'cache');

function build(): string {
  return buildSite({
    date: BUILD_DATE,
    content: fixture.dir,
    out: join(work, 'out'),
    cache: cache(),
    // No member ads: a developer's data/localboard.sqlite must not change what is built here.
    database: ['--database', join(work, 'no-database.sqlite')],
  }).stdout;
}

/** The index's ads (their keys, ids, cities and lines), in key order. */
function indexedAds(compiledDir: string) {
  const db = new Database(searchIndexFile(compiledDir), { readonly: true });
  try {
    return db.prepare('SELECT key, id, place, digest, ad FROM ads ORDER BY key').all();
  } finally {
    db.close();
  }
}

/** The ids the server's search finds for `words`, every page. */
function found(compiledDir: string, words: string[]): number[] {
  const index = searchIndex(() => searchIndexFile(compiledDir));
  try {
    const ids: number[] = [];
    for (let page = 1; ; page += 1) {
      const { ads, total } = index.search({ words, page });
      ids.push(...ads.map((ad) => ad.id));
      if (ads.length === 0 || ids.length >= total) return ids.sort((a, b) => a - b);
    }
  } finally {
    index.close();
  }
}

/** The index a compile of the fixture as it is now writes in one step, in a fresh folder. */
function indexedInOneStep(name: string): string {
  const compiledDir = join(work, name);
  const outcome = compileToDisk({ contentDir: fixture.dir, compiledDir, buildDate: BUILD_DATE });
  if (!outcome.ok || !outcome.searchIndex) throw new Error('the compile in one step failed');
  return compiledDir;
}

const liveAds = () =>
  (JSON.parse(readFileSync(join(cache(), 'content.json'), 'utf8')) as CompiledContent).activeAds;

beforeAll(() => {
  fixture = makeContentFixture();
  work = mkdtempSync(join(tmpdir(), 'localboard-index-in-build-'));
});

afterAll(() => {
  fixture.cleanup();
  rmSync(work, { recursive: true, force: true });
});

test('a first build leaves the index to the pages step, which indexes every live ad', () => {
  const output = build();
  expect(output).toContain(LEFT);
  expect(liveAds()).toBeGreaterThan(4);
  expect(output).toContain(`${BUILT}: ${liveAds()} ads in`);
  const oneStep = indexedInOneStep('first-in-one-step');
  expect(indexedAds(cache())).toEqual(indexedAds(oneStep));
  // Every live ad is found; and by a word of one's title, that ad among those found.
  const all = found(cache(), []);
  expect(all).toHaveLength(liveAds());
  const ad = JSON.parse((indexedAds(cache())[0] as { ad: string }).ad) as CompiledAd;
  const word = /[A-Za-z]{5,}/.exec(ad.title)![0];
  expect(found(cache(), [word])).toContain(ad.id);
  expect(found(cache(), [word])).toEqual(found(oneStep, [word]));
}, 120_000);

test('a build with an index brings it up to date in the content step: an edited ad is found by its new title', () => {
  const file = 'ads/sample.csv';
  const before = readFileSync(join(fixture.dir, file), 'utf8');
  const row = /^(\d+),California,Los Angeles,\d+,\w+,/m.exec(before)!;
  writeFixtureFile(
    fixture.dir,
    file,
    before.replace(
      new RegExp(`^(${row[1]},California,Los Angeles,\\d+,\\w+,)[^,]*,`, 'm'),
      '$1Heliography walks at dawn,',
    ),
  );
  const output = build();
  expect(output).toMatch(/\(1 state ad files rewritten, 1 cities re-indexed for search in /);
  expect(output).not.toContain(BUILT);
  expect(found(cache(), ['heliography'])).toEqual([Number(row[1])]);
  expect(indexedAds(cache())).toEqual(indexedAds(indexedInOneStep('edited-in-one-step')));
}, 120_000);

test('an index of another version, or a file that is not one, is built again by the pages step', () => {
  const file = searchIndexFile(cache());
  const db = new Database(file);
  db.pragma(`user_version = ${SEARCH_INDEX_VERSION - 1}`);
  db.close();
  expect(isSearchIndexOfThisVersion(file)).toBe(false);
  let output = build();
  expect(output).toContain(LEFT);
  expect(output).toContain(`${BUILT}: ${liveAds()} ads in`);
  expect(isSearchIndexOfThisVersion(file)).toBe(true);
  expect(found(cache(), ['heliography'])).toHaveLength(1);

  writeFileSync(file, 'SQLite format 3 is what this file is not');
  expect(isSearchIndexOfThisVersion(file)).toBe(false);
  output = build();
  expect(output).toContain(`${BUILT}: ${liveAds()} ads in`);
  expect(found(cache(), ['heliography'])).toHaveLength(1);
}, 120_000);
