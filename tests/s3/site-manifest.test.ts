// The manifest of the site in its bucket (server/publishing/site-bucket/site-manifest.ts), on the
// real S3 server: a journal of a base and deltas that reads back as what was written, whoever
// reads it; a new base once the deltas reach a tenth of the site, the older journal deleted.
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ObjectStorage } from '../../store/object-storage/object-storage.ts';
import {
  MANIFEST_FOLDER,
  readSiteManifest,
  writeSiteManifest,
} from '../../server/publishing/site-bucket/site-manifest.ts';
import type { SiteObject } from '../../server/publishing/site-bucket/site-objects.ts';
import { testBucketForFile, testObjectStorage } from '../helpers/s3-server.ts';

const bucket = testBucketForFile('site-manifest');
let storage: ObjectStorage;

beforeAll(() => {
  storage = testObjectStorage(bucket.name, 'site/');
});

afterAll(() => storage.close());

const page = (index: number, digest = 'a'.repeat(32)): SiteObject => ({
  path: `city/New Mexico/Española ${index}/index.html`,
  digest,
  size: 1000 + index,
  contentType: 'text/html; charset=utf-8',
  encoding: 'identity',
});

async function journal(): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key } of storage.list(MANIFEST_FOLDER))
    keys.push(key.slice(MANIFEST_FOLDER.length));
  return keys.sort();
}

test('a base, deltas, and a new base that replaces them, read back as written', async () => {
  const state = await readSiteManifest(storage);
  expect(state.objects.size).toBe(0);
  // A first publish of 2,000 pages: a base.
  await writeSiteManifest(
    storage,
    state,
    Array.from({ length: 2_000 }, (_, index) => page(index)),
    [],
  );
  expect(await journal()).toEqual(['base-000000000001.tsv.gz']);
  // Publishes of a few pages each: deltas.
  await writeSiteManifest(storage, state, [page(1, 'b'.repeat(32))], ['city/gone/index.html']);
  await writeSiteManifest(storage, state, [], [page(2).path]);
  expect(await journal()).toEqual([
    'base-000000000001.tsv.gz',
    'delta-000000000002.tsv',
    'delta-000000000003.tsv',
  ]);
  const read = await readSiteManifest(storage);
  expect(read.objects).toEqual(state.objects);
  expect(read.objects.size).toBe(1_999);
  expect(read.objects.get(page(1).path)?.digest).toBe('b'.repeat(32));
  expect([read.sequence, read.deltaLines]).toEqual([3, 3]);
  // Deltas past a tenth of the site (and 1,000 lines): a new base, the rest deleted.
  await writeSiteManifest(
    storage,
    read,
    Array.from({ length: 1_200 }, (_, index) => page(index, 'c'.repeat(32))),
    [],
  );
  expect(await journal()).toEqual(['base-000000000004.tsv.gz']);
  const again = await readSiteManifest(storage);
  expect(again.objects).toEqual(read.objects);
  expect(again.objects.get(page(5).path)?.digest).toBe('c'.repeat(32));
});
