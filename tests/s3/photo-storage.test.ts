// Photos in a bucket (PHOTOS_BUCKET; store/photo-storage/bucket-photo-storage.ts, photo-bucket.ts) on
// the real S3 server: the same contract as the database and the folder
// (tests/helpers/photo-storage-contract.ts), then what only a bucket does: new bytes private,
// published ones public and cached for a year, moved back when hidden, every object read back raw
// and compared; the sweeps delete a bucket's objects as they do a folder's files.
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ObjectStorage } from '../../store/object-storage/object-storage.ts';
import {
  PRIVATE_CACHE_CONTROL,
  PUBLISHED_CACHE_CONTROL,
  privateKeyOf,
  publicKeyOf,
} from '../../store/photo-storage/photo-bucket.ts';
import {
  openPhotoStorage,
  readPhotoStorageLocation,
  type PhotoStorageLocation,
} from '../../store/photo-storage/photo-storage.ts';
import { sweepPhotos } from '../../server/photos/sweeps.ts';
import {
  photoStorageContract,
  testPhotoKey,
  insertPhotoWithOneSize,
} from '../helpers/photo-storage-contract.ts';
import { testBucketForFile, testPhotoBucket } from '../helpers/s3-server.ts';
import { accountInStore } from '../helpers/store-accounts.ts';
import { storeForEachTest } from '../helpers/test-store.ts';

const bucket = testBucketForFile('photos');
const t = storeForEachTest();
/** The bucket as it is, below the photos' prefix: what a test reads raw. */
let raw: ObjectStorage;
let location: PhotoStorageLocation;
let member: number;
let prefixes = 0;

beforeEach(async () => {
  // A prefix of its own for each test: its objects are all it sees.
  ({ location, raw } = testPhotoBucket(`s3://${bucket.name}/test-${(prefixes += 1)}`));
  member = await accountInStore(t.store, 'member@example.com');
});
afterEach(() => raw.close());

const usePhoto = async (n: number) =>
  void (await insertPhotoWithOneSize(t.store, member, testPhotoKey(n), 10));

describe('photo storage', () => {
  photoStorageContract([
    {
      where: 'a bucket',
      open: () => openPhotoStorage(t.store, location),
      usePhoto,
      leftBehind: async (key) =>
        Boolean((await raw.head(privateKeyOf(key))) ?? (await raw.head(publicKeyOf(key)))),
    },
  ]);
});

/** Bytes as processing names them: the key is their digest. */
function webp(label: string) {
  const bytes = Buffer.concat([Buffer.from(`RIFF ${label} `), randomBytes(3000)]);
  return { bytes, key: createHash('sha256').update(bytes).digest('hex').slice(0, 32) };
}

describe('photos in a bucket', () => {
  it('keeps new bytes private, under the prefix, never at the public path', async () => {
    const storage = openPhotoStorage(t.store, location);
    expect(storage.kind).toBe('bucket');
    expect(storage.describe).toBe(`s3://${bucket.name}/test-${prefixes}/`);
    const { bytes, key } = webp('pending');
    await storage.put(key, bytes);
    expect((await raw.get(`private/${key.slice(0, 2)}/${key}.webp`))?.equals(bytes)).toBe(true);
    expect(await raw.head(privateKeyOf(key))).toMatchObject({
      contentType: 'image/webp',
      cacheControl: PRIVATE_CACHE_CONTROL,
    });
    expect(await raw.head(`photos/${key.slice(0, 2)}/${key}.webp`)).toBeUndefined();
    expect((await storage.get(key))?.equals(bytes)).toBe(true);
  });

  it('publishes a size: public at the path the pages name, cached for a year, the private copy gone', async () => {
    const storage = openPhotoStorage(t.store, location);
    const { bytes, key } = webp('published');
    await storage.put(key, bytes);
    expect(await storage.publicPhotos!.publish(key)).toBe(true);
    expect(publicKeyOf(key)).toBe(`photos/${key.slice(0, 2)}/${key}.webp`);
    expect((await raw.get(publicKeyOf(key)))?.equals(bytes)).toBe(true);
    expect(await raw.head(publicKeyOf(key))).toMatchObject({
      contentType: 'image/webp',
      cacheControl: PUBLISHED_CACHE_CONTROL,
    });
    expect(PUBLISHED_CACHE_CONTROL).toBe('public, max-age=31536000, immutable');
    expect(await raw.head(privateKeyOf(key))).toBeUndefined();
    // The server still reads it (a moderator, its member), and publishing again changes nothing.
    expect((await storage.get(key))?.equals(bytes)).toBe(true);
    expect(await storage.publicPhotos!.publish(key)).toBe(true);
    expect((await raw.get(publicKeyOf(key)))?.equals(bytes)).toBe(true);
    // No bytes, nothing published.
    expect(await storage.publicPhotos!.publish(testPhotoKey(77))).toBe(false);
    expect(await raw.head(publicKeyOf(testPhotoKey(77)))).toBeUndefined();
  });

  it('hides a published size: back in the private part, out of public reach', async () => {
    const storage = openPhotoStorage(t.store, location);
    const { bytes, key } = webp('hidden');
    await storage.put(key, bytes);
    await storage.publicPhotos!.publish(key);
    expect(await storage.publicPhotos!.hide([key, testPhotoKey(78)])).toBe(1);
    expect(await raw.head(publicKeyOf(key))).toBeUndefined();
    expect((await raw.get(privateKeyOf(key)))?.equals(bytes)).toBe(true);
    expect(await raw.head(privateKeyOf(key))).toMatchObject({
      cacheControl: PRIVATE_CACHE_CONTROL,
    });
    expect((await storage.get(key))?.equals(bytes)).toBe(true);
  });

  it('deletes a key from both parts (a move stopped half-way leaves two copies: both go)', async () => {
    const storage = openPhotoStorage(t.store, location);
    const { bytes, key } = webp('two copies');
    await storage.put(key, bytes);
    await raw.put(publicKeyOf(key), bytes, { contentType: 'image/webp' });
    await storage.delete([key]);
    expect(await raw.head(privateKeyOf(key))).toBeUndefined();
    expect(await raw.head(publicKeyOf(key))).toBeUndefined();
    expect(await storage.get(key)).toBeUndefined();
  });

  it('finds orphans in both parts, and leaves other objects of the bucket alone', async () => {
    const storage = openPhotoStorage(t.store, location);
    const [orphan, published, used] = [webp('orphan'), webp('orphan public'), webp('used')];
    for (const each of [orphan, published, used]) await storage.put(each.key, each.bytes);
    await storage.publicPhotos!.publish(published.key);
    await insertPhotoWithOneSize(t.store, member, used.key, used.bytes.length);
    await raw.put('photos/README.txt', Buffer.from('not a photo'), { contentType: 'text/plain' });
    expect(await storage.deleteOrphans(new Date(Date.now() + 60_000))).toBe(2);
    expect(await raw.head(privateKeyOf(orphan.key))).toBeUndefined();
    expect(await raw.head(publicKeyOf(published.key))).toBeUndefined();
    expect((await raw.get(privateKeyOf(used.key)))?.equals(used.bytes)).toBe(true);
    expect((await raw.get('photos/README.txt'))?.toString()).toBe('not a photo');
  });

  it("the hourly sweep deletes an abandoned upload's objects from the bucket", async () => {
    const storage = openPhotoStorage(t.store, location);
    const now = new Date();
    const upload = async (label: string, hoursAgo: number) => {
      const { bytes, key } = webp(label);
      await storage.put(key, bytes);
      await insertPhotoWithOneSize(
        t.store,
        member,
        key,
        bytes.length,
        new Date(now.getTime() - hoursAgo * 3_600_000).toISOString(),
      );
      return { bytes, key };
    };
    const old = await upload('abandoned', 48);
    const young = await upload('young', 1);
    expect((await sweepPhotos(t.store, storage, now)).uploads).toBe(1);
    expect(await raw.head(privateKeyOf(old.key))).toBeUndefined();
    expect((await raw.get(privateKeyOf(young.key)))?.equals(young.bytes)).toBe(true);
  });
});

describe('the PHOTOS_BUCKET setting', () => {
  it.each([
    [{ PHOTOS_BUCKET: 'photos' }, 'PHOTOS_BUCKET: not an s3:// address'],
    [{ PHOTOS_BUCKET: 's3://Photos' }, 'PHOTOS_BUCKET: "Photos" is not a bucket name'],
    [{ PHOTOS_BUCKET: 's3://photos', S3_FORCE_PATH_STYLE: 'on' }, 'S3_FORCE_PATH_STYLE'],
    [{ PHOTOS_BUCKET: 's3://photos', PHOTOS_DIR: '/srv/photos' }, 'both set'],
  ])('%j is refused in one line', (env, why) => {
    const read = readPhotoStorageLocation(env);
    expect('problem' in read && read.problem).toContain(why);
  });
});
