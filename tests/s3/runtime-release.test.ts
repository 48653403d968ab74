// The content released to the instances that do not build (server/publishing/site-bucket/
// runtime-content.ts, runtime-follower.ts, content-chunks.ts), against the suite's real S3 server,
// from real compiled content: the publisher puts only the chunks a release lacks, the build's
// caches never, and its search index only as a copy for a new instance (once a day); an instance
// makes a release's files in a folder of its own, byte for byte the publisher's (their ads index
// and id index too, made there), fetching only the chunks it did not have, and its readers move
// there (COMPILED_CONTENT_DIR); it keeps its own search index up to date from the released ads,
// made after it is ready when it is new; the release before stays for readers still in it, older
// ones go; bytes that are not the release's are refused and the instance stays where it was.
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ObjectStorage } from '../../store/object-storage/object-storage.ts';
import {
  releaseRuntimeContent,
  runtimeFileKey,
  SEARCH_INDEX_COPY_MAX_AGE_MS,
} from '../../server/publishing/site-bucket/runtime-content.ts';
import { chunkFile } from '../../server/publishing/site-bucket/content-chunks.ts';
import { runtimeFollower } from '../../server/publishing/site-bucket/runtime-follower.ts';
import { compiledContentDir } from '../../core/content/index.ts';
import { AD_COLUMNS } from '../../core/schemas/ad.ts';
import { parseSearchQuery } from '../../core/search-query.ts';
import { searchIndex } from '../../search/search-index.ts';
import { searchIndexFile, SEARCH_INDEX_VERSION } from '../../search/search-index-file.ts';
import { writeFixtureFile } from '../helpers/content-fixture.ts';
import { makeSearchFixture, type SearchFixture } from '../helpers/search-fixture.ts';
import { newTestBucket, removeTestBucket, testObjectStorage } from '../helpers/s3-server.ts';

let fixture: SearchFixture;
let bucketName: string;
let storage: ObjectStorage;
const lines: string[] = [];
const instanceDir = (name: string) => join(fixture.dir, name);

beforeAll(async () => {
  fixture = await makeSearchFixture();
  bucketName = await newTestBucket('runtime');
  storage = testObjectStorage(bucketName, 'site/');
}, 60_000);

afterAll(async () => {
  storage?.close();
  if (bucketName) await removeTestBucket(bucketName);
  fixture?.cleanup();
});

/** Publishes one more ad (as an approval does) whose title has `word`, by default in San Diego. */
async function approveAdAbout(
  word: string,
  id: number,
  { state, city } = { state: 'California', city: 'San Diego' },
): Promise<void> {
  writeFixtureFile(
    fixture.contentDir,
    `ads/approved-${id}.csv`,
    stringify(
      [
        {
          id: String(id),
          state,
          city,
          age: '33',
          seeks: 'w4m',
          title: `Trying ${word} this winter`,
          description: `Looking for someone to try ${word} with. Say hello.`,
          images: '',
          featured: 'false',
          postedAt: '2026-11-21',
          expiresAt: '2027-12-31',
          sample: 'false',
        },
      ],
      { header: true, columns: [...AD_COLUMNS] },
    ),
  );
  await fixture.publish();
}

/** How many ads an instance's search finds for `word` (in the release it reads). */
function found(word: string, instance: string, version: number | undefined): number {
  const index = searchIndex(() =>
    searchIndexFile(join(instanceDir(instance), `release-${version}`)),
  );
  try {
    const parsed = parseSearchQuery({ q: word });
    if (!parsed.ok) throw new Error(`refused ${word}`);
    return index.search(parsed.filters).total;
  } finally {
    index.close();
  }
}

/**
 * The publisher's compiled file and the instance's: byte for byte, but content.json (the same
 * content, its counts made here) and `ads/index.json` (the same cities).
 */
function expectSameAsPublisher(path: string): void {
  const mine = readFileSync(join(compiledContentDir(), path));
  const publisher = readFileSync(join(fixture.compiledDir, path));
  if (path === 'content.json')
    return void expect(JSON.parse(mine.toString('utf8'))).toEqual(
      JSON.parse(publisher.toString('utf8')),
    );
  if (path !== 'ads/index.json') return void expect(mine.equals(publisher), path).toBe(true);
  const cities = (bytes: Buffer) =>
    Object.entries(JSON.parse(bytes.toString('utf8')) as Record<string, { cities: unknown }>).map(
      ([state, entry]) => [state, entry.cities],
    );
  expect(cities(mine)).toEqual(cities(publisher));
}

/** What the last "Reading release" line says was fetched: objects and bytes. */
function lastFetched(): { objects: number; megabytes: number } {
  const line = lines.findLast((one) => one.startsWith('Reading release'))!;
  const [, objects, megabytes] = /: (\d+) objects fetched \(([\d.]+) MB\)/.exec(line)!;
  return { objects: Number(objects), megabytes: Number(megabytes) };
}

test('a release is made whole, moved to at once, and only the chunks that changed travel', async () => {
  const first = await releaseRuntimeContent(storage, fixture.compiledDir);
  expect(first.release.version).toBe(1);
  const paths = first.release.files.map((file) => file.path);
  expect(paths).toEqual(
    expect.arrayContaining(['content-without-counts.json', 'transparency.json']),
  );
  const stateFiles = paths.filter((path) => path.endsWith('.ndjson'));
  expect(stateFiles.length).toBeGreaterThan(0);
  // The build's caches, the ads' indexes and counts (made by each instance) and the search index
  // stay home.
  expect(paths).toHaveLength(stateFiles.length + 2);
  // The index travels once, as a copy for new instances.
  expect(first.release.searchIndex).toMatchObject({ indexVersion: SEARCH_INDEX_VERSION });

  const follower = runtimeFollower({
    storage,
    dir: instanceDir('instance'),
    log: (line) => lines.push(line),
  });
  try {
    expect(follower.waitingFor).toMatch(/^waiting for the publisher's first release/);
    await follower.refresh('start-up');
    expect(follower.version).toBe(1);
    expect(compiledContentDir()).toBe(join(instanceDir('instance'), 'release-1'));
    for (const path of [...stateFiles, 'content.json', 'ads/index.json', 'ads/ids.idx'])
      expectSameAsPublisher(path);
    expect(existsSync(join(compiledContentDir(), 'memo.json'))).toBe(false);
    // Ready before its search index: a new instance makes it next, from the publisher's copy.
    await follower.searchMade();
    expect(follower.searchReady).toBe(true);
    expect(lines.at(-1)).toMatch(
      /^The search index is ready: the publisher's copy \([\d.]+ MB\) fetched/,
    );
    const link = join(compiledContentDir(), 'search.sqlite');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(join(instanceDir('instance'), 'index', 'search.sqlite'));
    expect(found('barometers', 'instance', follower.version)).toBe(1);

    // One approval: a few chunks of the state's file and of content.json travel, not the files.
    await approveAdAbout('heliography', 9001);
    const second = await releaseRuntimeContent(storage, fixture.compiledDir);
    expect(second.release.version).toBe(2);
    expect(second.release.searchIndex).toEqual(first.release.searchIndex);
    const california = second.release.files.find((file) => file.path === 'ads/California.ndjson')!;
    expect(chunkFile(join(fixture.compiledDir, california.path)).root).toBe(california.root);
    await follower.refresh('announced');
    expect(follower.version).toBe(2);
    for (const path of ['content.json', california.path, 'ads/index.json', 'ads/ids.idx'])
      expectSameAsPublisher(path);
    const fetched = lastFetched();
    console.log(
      `One approval: ${second.puts} objects put (${second.putBytes} bytes); the instance ` +
        `fetched ${fetched.objects} objects (${fetched.megabytes} MB) of a release of ` +
        `${(second.release.files.reduce((sum, file) => sum + file.size, 0) / 1e6).toFixed(2)} MB.`,
    );
    expect(fetched.objects).toBe(second.puts);
    expect(fetched.megabytes).toBeLessThan(0.1);
    expect(lines.at(-1)).toMatch(/search index: 1 city brought up to date/);
    expect(found('heliography', 'instance', follower.version)).toBe(1);

    // The release before stays for readers still in it; the one before that goes.
    await approveAdAbout('orienteering', 9002);
    await releaseRuntimeContent(storage, fixture.compiledDir);
    await follower.refresh('announced');
    expect(follower.version).toBe(3);
    expect(existsSync(join(instanceDir('instance'), 'release-1'))).toBe(false);
    expect(existsSync(join(instanceDir('instance'), 'release-2', 'content.json'))).toBe(true);
    expect(found('orienteering', 'instance', follower.version)).toBe(1);
    // What no kept release names is gone from the instance's folders.
    expect(readdirSync(join(instanceDir('instance'), 'files')).length).toBeLessThanOrEqual(
      2 * paths.length,
    );

    // Approvals in two other states, one after the other: the second fetches its state's changed
    // chunks and nodes alone, its tree's other nodes kept from the releases before.
    for (const [index, place] of [
      { state: 'Texas', city: 'Houston' },
      { state: 'New York', city: 'Brooklyn' },
    ].entries()) {
      await approveAdAbout(`stargazing${index}`, 9100 + index, place);
      const next = await releaseRuntimeContent(storage, fixture.compiledDir);
      await follower.refresh('announced');
      expect(lastFetched().objects).toBe(next.puts);
      expect(found(`stargazing${index}`, 'instance', follower.version)).toBe(1);
    }

    // Bytes that are not the release's: refused, the instance stays where it was.
    await approveAdAbout('birdsong', 9003);
    const fourth = await releaseRuntimeContent(storage, fixture.compiledDir);
    const changed = fourth.release.files.find((file) => file.path === 'ads/California.ndjson')!;
    const chunks = chunkFile(join(fixture.compiledDir, changed.path)).chunks;
    for (const chunk of chunks)
      await storage.put(runtimeFileKey(chunk.digest), Buffer.from('something else'), {
        contentType: 'application/octet-stream',
      });
    await follower.refresh('announced');
    expect(follower.version).toBe(5);
    expect(lines.at(-1)).toMatch(
      /a chunk of ads\/California\.ndjson of this release came with other bytes/,
    );
    expect(found('birdsong', 'instance', follower.version)).toBe(0);
    expect(found('orienteering', 'instance', follower.version)).toBe(1);
    // Put back as they were (as a repair would): the next look reads release 6.
    for (const chunk of chunks)
      await storage.put(
        runtimeFileKey(chunk.digest),
        readFileSync(join(fixture.compiledDir, changed.path)).subarray(
          chunk.offset,
          chunk.offset + chunk.size,
        ),
        { contentType: 'application/octet-stream' },
      );
    await follower.refresh('announced');
    expect(follower.version).toBe(6);
    expect(found('birdsong', 'instance', follower.version)).toBe(1);
  } finally {
    follower.stop();
  }
});

test('a new instance is ready before its search index, which it makes from the copy and brings up to date', async () => {
  await approveAdAbout('kitesurfing', 9004);
  const release = await releaseRuntimeContent(storage, fixture.compiledDir);
  const follower = runtimeFollower({
    storage,
    dir: instanceDir('newcomer'),
    log: (line) => lines.push(line),
  });
  try {
    await follower.refresh('start-up');
    expect(follower.version).toBe(release.release.version);
    expect(follower.searchReady).toBe(false);
    expect(lines.at(-1)).toMatch(/search index: being made/);
    await follower.searchMade();
    expect(follower.searchReady).toBe(true);
    // The copy is the first release's: the ads approved since are brought in after it.
    expect(lines.at(-1)).toMatch(/^The search index is ready: .*(city|cities) brought up to date/);
    for (const word of ['barometers', 'heliography', 'orienteering', 'kitesurfing'])
      expect([word, found(word, 'newcomer', follower.version)]).toEqual([word, 1]);
  } finally {
    follower.stop();
  }
});

test('the copy of the index is put again once it is a day old, or of another version', async () => {
  const latest = (await releaseRuntimeContent(storage, fixture.compiledDir)).release;
  const old = new Date(Date.now() - SEARCH_INDEX_COPY_MAX_AGE_MS - 60_000).toISOString();
  const dayOld = await releaseRuntimeContent(storage, fixture.compiledDir, {
    ...latest,
    searchIndex: { ...latest.searchIndex!, put: old },
  });
  expect(Date.parse(dayOld.release.searchIndex!.put)).toBeGreaterThan(Date.parse(old));
  // With it, the whole copies of the files a new instance starts from.
  const starter = dayOld.release.starter!;
  expect(Date.parse(starter.put)).toBeGreaterThan(Date.parse(old));
  expect(starter.files.map((file) => file.path)).toEqual(
    expect.arrayContaining(dayOld.release.files.map((file) => file.path)),
  );
  const starterBytes = starter.files.reduce((sum, file) => sum + file.size, 0);
  expect(dayOld.putBytes).toBe(dayOld.release.searchIndex!.size + starterBytes);
  const stateCopy = starter.files.find((file) => file.path === 'ads/California.ndjson')!;
  expect(await storage.get(runtimeFileKey(stateCopy.digest))).toEqual(
    readFileSync(join(fixture.compiledDir, 'ads', 'California.ndjson')),
  );
  // Its bytes are the publisher's index now.
  const bytes = await storage.get(runtimeFileKey(dayOld.release.searchIndex!.digest));
  expect(bytes).toEqual(readFileSync(searchIndexFile(fixture.compiledDir)));
  const otherVersion = await releaseRuntimeContent(storage, fixture.compiledDir, {
    ...dayOld.release,
    searchIndex: { ...dayOld.release.searchIndex!, indexVersion: SEARCH_INDEX_VERSION - 1 },
  });
  expect(otherVersion.release.searchIndex!.indexVersion).toBe(SEARCH_INDEX_VERSION);
  expect(otherVersion.putBytes).toBe(otherVersion.release.searchIndex!.size + starterBytes);
  // Between the day's copies, neither is put again.
  expect((await releaseRuntimeContent(storage, fixture.compiledDir)).putBytes).toBe(0);
});

test('objects no release names (an earlier format’s whole files, a crash’s) go with the day’s copy', async () => {
  const latest = (await releaseRuntimeContent(storage, fixture.compiledDir)).release;
  const stray = runtimeFileKey('0123456789abcdef0123456789abcdef');
  await storage.put(stray, Buffer.from('a whole file of format 1'), {
    contentType: 'application/octet-stream',
  });
  const kept = await releaseRuntimeContent(storage, fixture.compiledDir);
  expect(await storage.head(stray)).toBeDefined();
  const old = new Date(Date.now() - SEARCH_INDEX_COPY_MAX_AGE_MS - 60_000).toISOString();
  const swept = await releaseRuntimeContent(storage, fixture.compiledDir, {
    ...kept.release,
    searchIndex: { ...kept.release.searchIndex!, put: old },
  });
  expect(await storage.head(stray)).toBeUndefined();
  expect(swept.deleted).toBeGreaterThanOrEqual(1);
  // What the release before and this one name is all there.
  const follower = runtimeFollower({ storage, dir: instanceDir('after-sweep'), log: () => {} });
  try {
    await follower.refresh('start-up');
    expect(follower.version).toBe(swept.release.version);
    expect(latest.version).toBeLessThan(swept.release.version);
  } finally {
    follower.stop();
  }
});
