// Publishing the shipped site to a bucket, as the server does with SITE_BUCKET set: the build
// publisher's builds followed by the upload (server/publishing/site-bucket/bucket-publishing.ts),
// with the CDN purge hook posting to a real HTTP server on 127.0.0.1. The first publish uploads
// the whole site; an approval uploads its ad's page and the pages that list or count it and
// purges their URLs; a removal deletes the page from the bucket and purges it first. The objects
// and bytes of each are printed. The suite runs it on the content fixture (some 600 files); with
// SITE_FIGURES=shipped, on the shipped content built in dist/ (32,954 files, some 5 minutes on
// radosgw here): docs/benchmarks.md's figures.
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ObjectStorage } from '../../store/object-storage/object-storage.ts';
import { buildPublisher, type BuildPublisher } from '../../server/publishing/build-publisher.ts';
import {
  bucketPublishing,
  SITE_PUBLISHER_LOCK,
  type BucketPublishing,
} from '../../server/publishing/site-bucket/bucket-publishing.ts';
import { listSite } from '../../server/publishing/site-bucket/built-files.ts';
import { purgeHook } from '../../server/publishing/site-bucket/purge-hook.ts';
import { readSiteManifest } from '../../server/publishing/site-bucket/site-manifest.ts';
import { DEFAULT_DELETE_LIMIT } from '../../server/publishing/site-bucket/upload-plan.ts';
import type { StoreHandle } from '../../store/store.ts';
import { useCompiledContentDir } from '../../core/content/index.ts';
import { photoFilePath } from '../../core/schemas/photos.ts';
import { photosTakenDownFile } from '../../pipeline/prerender/output-layout.ts';
import { approveInStore, insertAdInReview } from '../helpers/moderation.ts';
import { purgeEndpointForFile } from '../helpers/purge-endpoint.ts';
import { newTestBucket, removeTestBucket, testObjectStorage } from '../helpers/s3-server.ts';
import { accountInStore } from '../helpers/store-accounts.ts';
import { openSqliteTestStore } from '../helpers/test-store.ts';
import { addAwkwardCities, makeContentFixture } from '../helpers/content-fixture.ts';
import { buildSite } from '../helpers/vite-output.ts';

const root = join(import.meta.dirname, '..', '..');
const BASE_URL = 'https://localboard.example';
const today = new Date().toISOString().slice(0, 10);
const shipped = process.env.SITE_FIGURES === 'shipped';
let fixture: ReturnType<typeof makeContentFixture> | undefined;
let contentDir = join(root, 'content');
let work: string;
let store: StoreHandle;
let bucketName: string;
let storage: ObjectStorage;
let publishing: BucketPublishing;
let publisher: BuildPublisher;
const purged: string[][] = [];
const cdn = purgeEndpointForFile('/purge', ({ files }) => void purged.push(files));
const lines: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'localboard-site-publishing-'));
  if (shipped) {
    cpSync(join(root, 'dist'), join(work, 'out'), { recursive: true });
    cpSync(join(root, '.content'), join(work, 'compiled'), { recursive: true });
  } else {
    fixture = makeContentFixture();
    contentDir = fixture.dir;
    addAwkwardCities(fixture.dir);
    buildFixture();
  }
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'));
  useCompiledContentDir(join(work, 'compiled'));
  ({ store } = openSqliteTestStore(join(work, 'localboard.sqlite')));
  bucketName = await newTestBucket('published-site');
  storage = testObjectStorage(bucketName, '');
  publishing = bucketPublishing({
    outDir: join(work, 'out'),
    storage,
    deleteLimit: DEFAULT_DELETE_LIMIT,
    lock: store.sessionLock(SITE_PUBLISHER_LOCK),
    purge: purgeHook({
      target: { kind: 'http', url: cdn.url, body: '{"files":{urls}}' },
      perMinute: 1_000,
    }),
    baseUrl: () => BASE_URL,
    log: (line) => lines.push(line),
  });
  publisher = buildPublisher({
    outDir: join(work, 'out'),
    database: { path: join(work, 'localboard.sqlite') },
    contentDir,
    compiledContentDir: join(work, 'compiled'),
    buildDate: () => today,
    log: (line) => lines.push(line),
    afterBuild: publishing.afterBuild,
  });
}, 180_000);

afterAll(async () => {
  await publisher.idle();
  await publishing.stop();
  await removeTestBucket(bucketName);
  await store.close();
  fixture?.cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** The fixture's first build, as `npm run build` makes one (the publisher's steps included). */
function buildFixture(): void {
  buildSite({
    date: today,
    content: contentDir,
    out: join(work, 'out'),
    cache: join(work, 'compiled'),
    database: ['--database', join(work, 'no-database.sqlite')],
  });
}

/** The upload's line of the last publish: objects put, MB, deleted. */
function lastUpload() {
  const line = lines.findLast((each) => each.startsWith('Uploaded '))!;
  console.log(line);
  const [, puts, mb, deletes] = /^Uploaded (\d+) objects \(([\d.]+) MB\) and deleted (\d+)/.exec(
    line,
  )!;
  return { puts: Number(puts), mb: Number(mb), deletes: Number(deletes) };
}

const adPage = (id: number) => `city/Idaho/Coeur d'Alene/ad/${id}/index.html`;
let adId: number;

test('the first publish uploads the whole site', { timeout: 900_000 }, async () => {
  expect(await publisher.publish('start-up')).toEqual({ ok: true });
  const files = listSite(join(work, 'out', 'site'));
  expect(lastUpload()).toMatchObject({ puts: files.length, deletes: 0 });
  // Every object in the bucket is in the manifest with its ETag; a few read back.
  const manifest = await readSiteManifest(storage);
  let listed = 0;
  for await (const object of storage.list('')) {
    if (object.key.startsWith('.localboard/')) continue;
    listed += 1;
    expect(manifest.objects.get(object.key)?.digest, object.key).toBe(object.etag);
  }
  expect(listed).toBe(files.length);
  for (const path of ['index.html', 'city/New Mexico/Española/index.html', 'sitemap.xml'])
    expect(await storage.get(path)).toEqual(readFileSync(join(work, 'out', 'site', path)));
});

test('an approval uploads its page and the pages that list or count it, and purges them', async () => {
  const accountId = await accountInStore(store, 'poster@example.test');
  adId = await insertAdInReview({ store }, { accountId, state: 'Idaho', city: "Coeur d'Alene" });
  const expiresOn = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await approveInStore({ store }, adId, { postedOn: today, expiresOn });
  purged.length = 0;
  expect(await publisher.publish(`approved ad ${adId}`)).toEqual({ ok: true });
  const upload = lastUpload();
  expect(upload.deletes).toBe(0);
  expect(upload.puts).toBeLessThan(20);
  expect(await storage.get(adPage(adId))).toEqual(
    readFileSync(join(work, 'out', 'site', adPage(adId))),
  );
  await publishing.idle();
  const urls = purged.flat();
  expect(urls).toContain(`${BASE_URL}/city/Idaho/Coeur%20d'Alene/ad/${adId}`);
  expect(urls).toContain(`${BASE_URL}/city/Idaho/Coeur%20d'Alene`);
  expect(urls.every((url) => !url.includes('/assets/'))).toBe(true);
});

test('photos taken down in PHOTOS_BUCKET are purged before anything else', async () => {
  const [hidden, deleted] = ['ab'.padEnd(32, '1'), 'cd'.padEnd(32, '2')];
  // A build hid one (published-photos.ts says so beside the site); the server deleted another.
  writeFileSync(photosTakenDownFile(join(work, 'out')), `${hidden}\n${hidden}\n`);
  purged.length = 0;
  publishing.purgePhotos([deleted]);
  expect(await publisher.publish('photos taken down')).toEqual({ ok: true });
  await publishing.idle();
  expect(purged.flat().slice(0, 2).sort()).toEqual(
    [`${BASE_URL}${photoFilePath(hidden)}`, `${BASE_URL}${photoFilePath(deleted)}`].sort(),
  );
  // Said once: the list is gone, and the next publish purges nothing of it.
  expect(existsSync(photosTakenDownFile(join(work, 'out')))).toBe(false);
  purged.length = 0;
  expect(await publisher.publish('nothing new')).toEqual({ ok: true });
  await publishing.idle();
  expect(purged.flat().filter((url) => url.includes('/photos/'))).toEqual([]);
});

test('a removal deletes the page from the bucket and purges it first', async () => {
  const ad = (await store.memberAds.find(adId))!;
  expect(
    await store.moderation.removeLive(
      adId,
      ad.revision,
      { reason: 'scam' },
      new Date().toISOString(),
    ),
  ).toBe(true);
  purged.length = 0;
  expect(await publisher.publish(`removed ad ${adId}`)).toEqual({ ok: true });
  expect(lastUpload().deletes).toBe(1);
  expect(await storage.get(adPage(adId))).toBeUndefined();
  await publishing.idle();
  expect(purged[0]![0]).toBe(`${BASE_URL}/city/Idaho/Coeur%20d'Alene/ad/${adId}`);
});
