// The id index the content step writes (.content/ads/ids.idx, pipeline/compile/ad-id-index.ts),
// as the server reads it (core/content/ad-by-id.ts): every published ad found by id, and nothing
// else; kept right by the incremental compile as ads are added and removed and a state loses its
// last ad; made from the state files of a compile that came before it; and, read while a publish
// replaces the files, never another ad's line.
import { copyFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compileToDisk } from '../../pipeline/compile/compile-to-disk.ts';
import { findPublishedAd } from '../../core/content/ad-by-id.ts';
import { adIdIndexFile, stateIdsFile } from '../../core/content/ad-id-index-file.ts';
import {
  adIdsForCity,
  getAd,
  getAdCounts,
  useCompiledContentDir,
  type CompiledAd,
} from '../../core/content/index.ts';
import {
  contentFixtureForFile,
  removeFixtureFile,
  writeFixtureFile,
} from '../helpers/content-fixture.ts';

const BUILD_DATE = '2026-11-22';
const HEADER =
  'id,state,city,age,seeks,title,description,images,featured,postedAt,expiresAt,sample';
const fixture = contentFixtureForFile();

/** Compiles the fixture into the compiled folder, as a build or a publish does, and reads it. */
function compile() {
  const outcome = compileToDisk({
    contentDir: fixture.dir,
    compiledDir: fixture.compiledDir,
    buildDate: BUILD_DATE,
  });
  expect(outcome.ok).toBe(true);
  useCompiledContentDir(fixture.compiledDir);
}

/** Every published ad, read city by city as the site's pages read them. */
function publishedAds(): CompiledAd[] {
  return Object.entries(getAdCounts()).flatMap(([state, cities]) =>
    Object.keys(cities).flatMap((city) =>
      adIdsForCity(state, city).map((id) => getAd(state, city, id)!),
    ),
  );
}

const row = (id: number, state: string, city: string, title: string) =>
  `${id},${state},${city},41,m4w,${title},"A plain description, for the id index.",,false,2026-11-20,2026-12-20,false\n`;

const expectEveryAdFound = () => {
  const ads = publishedAds();
  expect(ads.length).toBeGreaterThan(0);
  for (const ad of ads) expect(findPublishedAd(ad.id)).toEqual(ad);
  return ads;
};

describe('the id index of the compiled content', () => {
  test('after a compile: every published ad is found by id, and ids of none are not', () => {
    compile();
    expect(existsSync(adIdIndexFile(fixture.compiledDir))).toBe(true);
    for (const state of ['California', 'Florida', 'Nevada', 'New York'])
      expect(existsSync(stateIdsFile(fixture.compiledDir, state))).toBe(true);
    const ads = expectEveryAdFound();
    const ids = new Set(ads.map((ad) => ad.id));
    for (const id of [1, Math.min(...ids) - 1, Math.max(...ids) + 1, 990_123, 100_000_001])
      if (!ids.has(id)) expect(findPublishedAd(id)).toBeUndefined();
  });

  test('an incremental compile that adds ads: found; the states it did not touch are kept as they were', () => {
    compile();
    const nevada = statSync(stateIdsFile(fixture.compiledDir, 'Nevada'));
    writeFixtureFile(
      fixture.dir,
      'ads/extra.csv',
      HEADER +
        '\n' +
        row(990_777, 'California', 'Fresno', 'Tacos after the farmers market') +
        row(990_778, 'New York', 'Brooklyn', 'Bagels and a long walk'),
    );
    compile();
    expect(findPublishedAd(990_777)?.title).toBe('Tacos after the farmers market');
    expect(findPublishedAd(990_778)?.city).toBe('Brooklyn');
    expectEveryAdFound();
    const after = statSync(stateIdsFile(fixture.compiledDir, 'Nevada'));
    expect([after.ino, after.mtimeMs]).toEqual([nevada.ino, nevada.mtimeMs]);
  });

  test('an incremental compile that removes them: not found any more, the rest still are', () => {
    removeFixtureFile(fixture.dir, 'ads/extra.csv');
    compile();
    expect(findPublishedAd(990_777)).toBeUndefined();
    expect(findPublishedAd(990_778)).toBeUndefined();
    expectEveryAdFound();
  });

  test("a state's last ad removed: its files go, its ids are not found, the others are", () => {
    compile();
    const sample = join(fixture.dir, 'ads', 'sample.csv');
    const lines = readFileSync(sample, 'utf8').split('\n');
    const nevada = publishedAds().filter((ad) => ad.state === 'Nevada');
    expect(nevada.length).toBeGreaterThan(0);
    writeFileSync(sample, lines.filter((line) => !line.includes(',Nevada,')).join('\n'));
    compile();
    expect(existsSync(join(fixture.compiledDir, 'ads', 'Nevada.ndjson'))).toBe(false);
    expect(existsSync(stateIdsFile(fixture.compiledDir, 'Nevada'))).toBe(false);
    for (const ad of nevada) expect(findPublishedAd(ad.id)).toBeUndefined();
    expectEveryAdFound();
    writeFileSync(sample, lines.join('\n'));
    compile();
    for (const ad of nevada) expect(findPublishedAd(ad.id)).toEqual(ad);
  });

  test('compiled content from before the id index: found the old way, and the next compile writes the index', () => {
    compile();
    const ads = publishedAds();
    rmSync(adIdIndexFile(fixture.compiledDir));
    for (const state of ['California', 'Florida', 'Nevada', 'New York'])
      rmSync(stateIdsFile(fixture.compiledDir, state));
    for (const ad of ads) expect(findPublishedAd(ad.id)).toEqual(ad);
    // Nothing in the content changed: the state files stay, their records are read from them.
    compile();
    expect(existsSync(adIdIndexFile(fixture.compiledDir))).toBe(true);
    expect(existsSync(stateIdsFile(fixture.compiledDir, 'Florida'))).toBe(true);
    expect(expectEveryAdFound()).toEqual(ads);
  });

  test("read while a publish replaces the files: an index that does not match the state file finds no line rather than another ad's", () => {
    compile();
    const oldIndex = join(fixture.compiledDir, 'ids-before.idx');
    copyFileSync(adIdIndexFile(fixture.compiledDir), oldIndex);
    const losAngeles = adIdsForCity('California', 'Los Angeles');
    expect(losAngeles.length).toBeGreaterThan(0);
    // An ad in Fresno, before Los Angeles in California's file, moves Los Angeles's lines on.
    writeFixtureFile(
      fixture.dir,
      'ads/extra.csv',
      HEADER + '\n' + row(990_779, 'California', 'Fresno', 'A longer line that moves the others'),
    );
    compile();
    // The server holds the old index (its rename not done yet) and the new state file.
    const newIndex = join(fixture.compiledDir, 'ids-after.idx');
    copyFileSync(adIdIndexFile(fixture.compiledDir), newIndex);
    copyFileSync(oldIndex, adIdIndexFile(fixture.compiledDir));
    for (const id of losAngeles) expect(findPublishedAd(id)).toBeUndefined();
    expect(findPublishedAd(990_779)).toBeUndefined();
    // Once the index is in place, all are found again.
    copyFileSync(newIndex, adIdIndexFile(fixture.compiledDir));
    for (const id of losAngeles) expect(findPublishedAd(id)?.city).toBe('Los Angeles');
    expect(findPublishedAd(990_779)?.city).toBe('Fresno');
    removeFixtureFile(fixture.dir, 'ads/extra.csv');
  });
});
