// The content released to the instances that do not build (server/publishing/site-bucket/
// runtime-content.ts, runtime-follower.ts), against the suite's real S3 server, from real compiled
// content: the publisher puts only the runtime files a release lacks, the build's caches never,
// and its search index only as a copy for a new instance (once a day); an instance fetches a
// release into a folder of its own and its readers move there (COMPILED_CONTENT_DIR), byte for
// byte, and keeps its own search index up to date from the released ads; the release before
// stays for readers still in it, older ones go; bytes that are not the release's are refused and
// the instance stays on the release it had.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  openObjectStorage,
  type ObjectStorage,
} from '../../store/object-storage/object-storage.ts';
import { s3SettingsFromEnv, type S3Settings } from '../../store/object-storage/s3-settings.ts';
import {
  releaseRuntimeContent,
  runtimeFileKey,
  SEARCH_INDEX_COPY_MAX_AGE_MS,
  type RuntimeRelease,
} from '../../server/publishing/site-bucket/runtime-content.ts';
import { runtimeFollower } from '../../server/publishing/site-bucket/runtime-follower.ts';
import { compiledContentDir } from '../../core/content/index.ts';
import { AD_COLUMNS } from '../../core/schemas/ad.ts';
import { parseSearchQuery } from '../../core/search-query.ts';
import { searchIndex } from '../../search/search-index.ts';
import { searchIndexFile, SEARCH_INDEX_VERSION } from '../../search/search-index-file.ts';
import { writeFixtureFile } from '../helpers/content-fixture.ts';
import { makeSearchFixture, type SearchFixture } from '../helpers/search-fixture.ts';
import { newTestBucket, removeTestBucket, s3Env } from '../helpers/s3-server.ts';

let fixture: SearchFixture;
let bucketName: string;
let storage: ObjectStorage;
const lines: string[] = [];
const instanceDir = (name: string) => join(fixture.dir, name);

beforeAll(async () => {
  fixture = await makeSearchFixture();
  bucketName = await newTestBucket('runtime');
  const settings = s3SettingsFromEnv(s3Env()) as { settings: S3Settings };
  storage = openObjectStorage({ bucket: bucketName, prefix: 'site/' }, settings.settings);
}, 60_000);

afterAll(async () => {
  storage?.close();
  if (bucketName) await removeTestBucket(bucketName);
  fixture?.cleanup();
});

/** Publishes one more ad (as an approval does) whose title has `word`. */
async function approveAdAbout(word: string, id: number): Promise<void> {
  writeFixtureFile(
    fixture.contentDir,
    `ads/approved-${id}.csv`,
    stringify(
      [
        {
          id: String(id),
          state: 'California',
          city: 'San Diego',
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

/** The files of `release` that `before` did not have (by their bytes). */
const newIn = (release: RuntimeRelease, before: RuntimeRelease) =>
  release.files.filter((file) => !before.files.some((old) => old.digest === file.digest));

test('a release is fetched whole, moved to at once, and only what changed travels', async () => {
  const first = await releaseRuntimeContent(storage, fixture.compiledDir);
  expect(first.release.version).toBe(1);
  const paths = first.release.files.map((file) => file.path);
  expect(paths).toEqual(expect.arrayContaining(['content.json', 'ads/index.json', 'ads/ids.idx']));
  expect(paths.filter((path) => path.endsWith('.ndjson')).length).toBeGreaterThan(0);
  // The build's own caches, and the search index, are not among the files.
  for (const path of paths) expect(path).toMatch(/^(content\.json|ads\/[^/]+)$/);
  expect(paths).not.toContain('search.sqlite');
  // The index travels once, as a copy for new instances; every file is put.
  expect(first.release.searchIndex).toMatchObject({ indexVersion: SEARCH_INDEX_VERSION });
  expect(first.puts).toBe(first.release.files.length + 1);

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
    for (const file of first.release.files)
      expect(readFileSync(join(compiledContentDir(), file.path))).toEqual(
        readFileSync(join(fixture.compiledDir, file.path)),
      );
    expect(existsSync(join(compiledContentDir(), 'memo.json'))).toBe(false);
    // Its search index is its own, linked into the release, and finds what the publisher's does.
    const link = join(compiledContentDir(), 'search.sqlite');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(join(instanceDir('instance'), 'index', 'search.sqlite'));
    expect(found('barometers', 'instance', follower.version)).toBe(1);

    // One approval: the state's file and the indexes change and travel; the search index does not.
    await approveAdAbout('heliography', 9001);
    const second = await releaseRuntimeContent(storage, fixture.compiledDir);
    expect(second.release.version).toBe(2);
    expect(second.release.searchIndex).toEqual(first.release.searchIndex);
    const changed = newIn(second.release, first.release);
    expect(changed.map((file) => file.path)).toContain('ads/California.ndjson');
    expect(second.puts).toBe(changed.length);
    expect(second.putBytes).toBe(changed.reduce((sum, file) => sum + file.size, 0));
    await follower.refresh('announced');
    expect(follower.version).toBe(2);
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^Reading release 2 of the site's content \\(announced\\): ${changed.length} files ` +
          `fetched .*, search index: 1 city brought up to date`,
      ),
    );
    expect(found('heliography', 'instance', follower.version)).toBe(1);

    // The release before stays for readers still in it; the one before that goes.
    await approveAdAbout('orienteering', 9002);
    const third = await releaseRuntimeContent(storage, fixture.compiledDir);
    await follower.refresh('announced');
    expect(follower.version).toBe(3);
    expect(existsSync(join(instanceDir('instance'), 'release-1'))).toBe(false);
    expect(existsSync(join(instanceDir('instance'), 'release-2', 'content.json'))).toBe(true);
    expect(found('orienteering', 'instance', follower.version)).toBe(1);

    // Bytes that are not the release's: refused, the instance stays where it was.
    await approveAdAbout('birdsong', 9003);
    const fourth = await releaseRuntimeContent(storage, fixture.compiledDir);
    const state = newIn(fourth.release, third.release).find((file) =>
      file.path.endsWith('.ndjson'),
    )!;
    await storage.put(runtimeFileKey(state.digest), Buffer.from('something else'), {
      contentType: 'application/octet-stream',
    });
    await follower.refresh('announced');
    expect(follower.version).toBe(3);
    expect(lines.at(-1)).toMatch(/California\.ndjson of release 4 came with other bytes/);
    expect(found('birdsong', 'instance', follower.version)).toBe(0);
    expect(found('orienteering', 'instance', follower.version)).toBe(1);
  } finally {
    follower.stop();
  }
});

test('a new instance starts from the copy of the index and brings it up to date', async () => {
  await approveAdAbout('kitesurfing', 9004);
  const release = await releaseRuntimeContent(storage, fixture.compiledDir);
  // The copy is the first release's: the ads approved since are not in it.
  const copy = release.release.searchIndex!;
  const follower = runtimeFollower({
    storage,
    dir: instanceDir('newcomer'),
    log: (line) => lines.push(line),
  });
  try {
    await follower.refresh('start-up');
    expect(follower.version).toBe(release.release.version);
    expect(lines.at(-1)).toMatch(/search index: 1 city brought up to date/);
    for (const word of ['barometers', 'heliography', 'orienteering', 'kitesurfing'])
      expect([word, found(word, 'newcomer', follower.version)]).toEqual([word, 1]);
    expect(copy.digest).toMatch(/^[0-9a-f]{32}$/);
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
  expect(dayOld.putBytes).toBe(dayOld.release.searchIndex!.size);
  // Its bytes are the publisher's index now.
  const bytes = await storage.get(runtimeFileKey(dayOld.release.searchIndex!.digest));
  expect(bytes).toEqual(readFileSync(searchIndexFile(fixture.compiledDir)));
  const otherVersion = await releaseRuntimeContent(storage, fixture.compiledDir, {
    ...dayOld.release,
    searchIndex: { ...dayOld.release.searchIndex!, indexVersion: SEARCH_INDEX_VERSION - 1 },
  });
  expect(otherVersion.release.searchIndex!.indexVersion).toBe(SEARCH_INDEX_VERSION);
  expect(otherVersion.putBytes).toBe(otherVersion.release.searchIndex!.size);
});

test('a release of an earlier publisher that names its search index: the instance makes its own', async () => {
  const latest = (await releaseRuntimeContent(storage, fixture.compiledDir)).release;
  const oldIndex = Buffer.from('an earlier publisher’s index');
  const digest = createHash('md5').update(oldIndex).digest('hex');
  await storage.put(runtimeFileKey(digest), oldIndex, {
    contentType: 'application/octet-stream',
  });
  const earlier: RuntimeRelease = {
    ...latest,
    version: latest.version + 1,
    files: [...latest.files, { path: 'search.sqlite', digest, size: oldIndex.length }],
  };
  await storage.put('.localboard/runtime/current.json', Buffer.from(JSON.stringify(earlier)), {
    contentType: 'application/json',
  });
  const follower = runtimeFollower({ storage, dir: instanceDir('upgraded'), log: () => {} });
  try {
    await follower.refresh('start-up');
    expect(follower.version).toBe(earlier.version);
    const link = join(instanceDir('upgraded'), `release-${earlier.version}`, 'search.sqlite');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(found('heliography', 'upgraded', follower.version)).toBe(1);
  } finally {
    follower.stop();
  }
});
