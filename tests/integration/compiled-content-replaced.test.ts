// A publish replaces the compiled state files under a running server, which takes the new index
// only once the publish is done: in between, a city read with the old index's offsets must come
// out as the new file's ads (the index is read again), never as cut lines or an error page.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { compileToDisk } from '../../pipeline/compile/compile-to-disk.ts';
import { findPublishedAd } from '../../core/content/ad-by-id.ts';
import {
  adIdsForCity,
  getAd,
  getAdCounts,
  useCompiledContentDir,
} from '../../core/content/index.ts';
import { contentFixtureForFile } from '../helpers/content-fixture.ts';

const BUILD_DATE = '2026-11-22';
const fixture = contentFixtureForFile();

const compile = () => {
  const outcome = compileToDisk({
    contentDir: fixture.dir,
    compiledDir: fixture.compiledDir,
    buildDate: BUILD_DATE,
  });
  expect(outcome.ok).toBe(true);
};

test("a city read after its state file was replaced gives the new file's ads, not cut lines", () => {
  compile();
  useCompiledContentDir(fixture.compiledDir);
  // The server has its index (counts, offsets) but has not read Los Angeles yet.
  expect(getAdCounts().California?.['Los Angeles']).toBe(2);

  // A publish: an ad in Fresno, which comes before Los Angeles in California's file, moves Los
  // Angeles's lines further into it.
  appendFileSync(
    join(fixture.dir, 'ads', 'sample.csv'),
    '990777,California,Fresno,41,m4w,Tacos after the farmers market,"Fresno local, happy to chat about food and hiking.",,false,2026-11-20,2026-12-20,false\n',
  );
  compile();

  const ids = adIdsForCity('California', 'Los Angeles');
  expect(ids).toHaveLength(2);
  for (const id of ids) expect(getAd('California', 'Los Angeles', id)?.city).toBe('Los Angeles');
  expect(findPublishedAd(990777)?.title).toBe('Tacos after the farmers market');
});
