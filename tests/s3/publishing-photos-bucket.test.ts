// Publishing members' photos kept in a bucket (PHOTOS_BUCKET; docs/product.md section 10), through
// the real build (`npm run build`, as the publisher runs it) against the real S3 server: the sizes
// of an approved ad's photos become public objects at the paths its page names, cached for a year,
// and the site holds no photo files; an ad taken down has them hidden again (private, kept for its
// appeal) at the next publish; the ad's deletion deletes every object. Bytes read back raw, and
// through the server's /photos/ route (for a server with nothing in front of it).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../server/http/app.ts';
import type { ObjectStorage } from '../../store/object-storage/object-storage.ts';
import type { AppPhotos } from '../../server/photos/app-photos.ts';
import { deletePhotosOfAd } from '../../server/photos/ad-photo-lifecycle.ts';
import {
  PUBLISHED_CACHE_CONTROL,
  privateKeyOf,
  publicKeyOf,
} from '../../store/photo-storage/photo-bucket.ts';
import {
  openPhotoStorage,
  type PhotoStorageLocation,
} from '../../store/photo-storage/photo-storage.ts';
import { createPhotoPool, type PhotoPool } from '../../server/photos/processing-pool.ts';
import { adPath, outputFileForPath } from '../../core/paths.ts';
import { DEFAULT_EXPLICIT_THRESHOLD, photoFilePath } from '../../core/schemas/photos.ts';
import { photosTakenDownFile } from '../../pipeline/prerender/output-layout.ts';
import { makeContentFixture } from '../helpers/content-fixture.ts';
import { testMailer } from '../helpers/mail.ts';
import { insertMemberAd, setMemberAdStatus } from '../helpers/member-ads.ts';
import { keptPhotoId, putPhotosOnAd } from '../helpers/moderation-photos.ts';
import { smallJpeg } from '../helpers/photo-fixtures.ts';
import { newTestBucket, removeTestBucket, testPhotoBucket } from '../helpers/s3-server.ts';
import { openTestStore, type TestStore } from '../helpers/test-store.ts';
import { buildSite, childBuildEnv, databaseArgs } from '../helpers/vite-output.ts';

const BUILD_DATE = '2026-11-22';
let fixture: ReturnType<typeof makeContentFixture>;
let work: string;
let pool: PhotoPool;
let t: TestStore;
let bucket: string;
let env: Record<string, string>;
let location: PhotoStorageLocation;
let photos: AppPhotos;
let raw: ObjectStorage;
/** The keys the photo storage said it took out of the bucket (the server purges their URLs). */
const takenDown: string[] = [];
const outDir = () => join(work, 'out');
/** The server on the built site, with the photos in the bucket. */
const app = () =>
  createApp({
    siteDir: join(outDir(), 'site'),
    store: t.store,
    mailer: testMailer(join(work, 'outbox')),
    photoProcessing: pool,
    photoStorage: location,
    log: false,
  });

/** `npm run build`, as the publisher runs it, with the photos in the bucket; its output. */
function build(): string {
  const childEnv = childBuildEnv(env);
  delete childEnv.PHOTOS_DIR;
  delete childEnv.DATABASE_URL;
  const built = buildSite({
    date: BUILD_DATE,
    content: fixture.dir,
    out: outDir(),
    cache: join(work, 'cache'),
    database: databaseArgs(t.env),
    env: childEnv,
  });
  return `${built.stdout}\n${built.stderr}`;
}

beforeAll(async () => {
  fixture = makeContentFixture();
  work = mkdtempSync(join(tmpdir(), 'localboard-bucket-publishing-'));
  pool = createPhotoPool({ processes: 1 });
  t = await openTestStore(join(work));
  bucket = await newTestBucket('published-photos');
  ({ env, location, raw } = testPhotoBucket(`s3://${bucket}/media`));
  photos = {
    pool,
    storage: openPhotoStorage(t.store, location, (keys) => takenDown.push(...keys)),
    explicitThreshold: DEFAULT_EXPLICIT_THRESHOLD,
  };
}, 120_000);

afterAll(async () => {
  raw?.close();
  await pool?.close();
  await t?.store.close();
  fixture?.cleanup();
  if (bucket) await removeTestBucket(bucket);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('publishing photos kept in a bucket (PHOTOS_BUCKET)', () => {
  test('published sizes are public objects cached for a year; a takedown hides them; a deletion deletes them', async () => {
    const id = await insertMemberAd(t, { state: 'California', city: 'San Jose', title: 'Kayaks' });
    const { accountId } = (await t.store.memberAds.find(id))!;
    const photoId = await keptPhotoId(t.store, photos, accountId, await smallJpeg(41, 1600, 1200));
    await putPhotosOnAd(t, id, accountId, [photoId]);
    const variants = (await t.store.photos.find(photoId))!.variants;
    expect(variants.map((variant) => variant.width)).toEqual([320, 640, 1280]);
    // Kept private while the ad is not published yet.
    const bytes = new Map<string, Buffer>();
    for (const { key } of variants) {
      bytes.set(key, (await raw.get(privateKeyOf(key)))!);
      expect(bytes.get(key)!.length).toBeGreaterThan(100);
      expect(await raw.head(publicKeyOf(key))).toBeUndefined();
    }

    // The site as a build with the photos elsewhere left it: their files, and its record of them.
    const stale = join(outDir(), 'site', photoFilePath('ab'.padEnd(32, '0')));
    mkdirSync(dirname(stale), { recursive: true });
    writeFileSync(stale, 'a photo published before the move');
    mkdirSync(join(outDir(), 'published-photos'), { recursive: true });
    writeFileSync(join(outDir(), 'published-photos', 'current.json'), '[]');

    build();
    // Gone: with the photos in the bucket, the site serves none, not even stale ones.
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(join(outDir(), 'published-photos'))).toBe(false);
    const adHtml = readFileSync(
      join(outDir(), 'site', outputFileForPath(adPath('California', 'San Jose', id))),
      'utf8',
    );
    for (const { key } of variants) {
      // The page names /photos/ab/key.webp; the bucket has it there, under its prefix.
      expect(adHtml).toContain(photoFilePath(key));
      expect(`media/${publicKeyOf(key)}`).toBe(`media${photoFilePath(key)}`);
      expect((await raw.get(publicKeyOf(key)))?.equals(bytes.get(key)!)).toBe(true);
      expect(await raw.head(publicKeyOf(key))).toMatchObject({
        contentType: 'image/webp',
        cacheControl: PUBLISHED_CACHE_CONTROL,
      });
      expect(await raw.head(privateKeyOf(key))).toBeUndefined();
      // The site holds no photo files: the CDN serves /photos/ from the bucket, and so does the
      // server when nothing in front of it does.
      expect(existsSync(join(outDir(), 'site', photoFilePath(key)))).toBe(false);
      const served = await app().request(`http://localhost${photoFilePath(key)}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('cache-control')).toBe(PUBLISHED_CACHE_CONTROL);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(Buffer.from(await served.arrayBuffer()).equals(bytes.get(key)!)).toBe(true);
    }
    // Only a size's own path: another shelf finds nothing.
    const [first] = variants;
    const elsewhere = `/photos/${first!.key.startsWith('00') ? '11' : '00'}/${first!.key}.webp`;
    expect((await app().request(`http://localhost${elsewhere}`)).status).toBe(404);

    // A moderator takes the ad down: at the next publish its photos are out of public reach,
    // kept private while the decision can be appealed.
    await setMemberAdStatus(t, id, 'removed');
    build();
    // Said to the publisher, which purges their public URLs from the CDN at its upload.
    const listed = readFileSync(photosTakenDownFile(outDir()), 'utf8').trim().split('\n');
    expect(listed.sort()).toEqual(variants.map(({ key }) => key).sort());
    rmSync(photosTakenDownFile(outDir()));
    for (const { key } of variants) {
      expect(await raw.head(publicKeyOf(key))).toBeUndefined();
      expect((await raw.get(privateKeyOf(key)))?.equals(bytes.get(key)!)).toBe(true);
      expect((await photos.storage.get(key))?.equals(bytes.get(key)!)).toBe(true);
      // Private: the server never serves it at a public path.
      expect((await app().request(`http://localhost${photoFilePath(key)}`)).status).toBe(404);
    }

    // Back live (a reversal), public again with the same bytes; then the member deletes it.
    await setMemberAdStatus(t, id, 'live');
    build();
    for (const { key } of variants)
      expect((await raw.get(publicKeyOf(key)))?.equals(bytes.get(key)!)).toBe(true);
    await setMemberAdStatus(t, id, 'deleted');
    expect(takenDown).toEqual([]);
    expect(await deletePhotosOfAd(t.store, photos.storage, id)).toBe(1);
    // Every size deleted while public is told, for the CDN to forget.
    expect(takenDown.sort()).toEqual(variants.map(({ key }) => key).sort());
    // A publish that hides nothing says nothing.
    expect(existsSync(photosTakenDownFile(outDir()))).toBe(false);
    for (const { key } of variants) {
      expect(await raw.head(publicKeyOf(key))).toBeUndefined();
      expect(await raw.head(privateKeyOf(key))).toBeUndefined();
    }
    const left = [];
    for await (const object of raw.list('')) left.push(object.key);
    expect(left).toEqual([]);
  }, 300_000);
});
