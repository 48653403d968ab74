// Where the bytes of photos' sizes are kept (docs/product.md section 10): one interface for the
// server, which stores what it processed and shows members and moderators photos not yet
// published, and for the build, which publishes the live ads' photos. Three kinds, chosen by
// configuration:
// - `database` (the default): the photo_blobs table of the store. Every instance on one
//   PostgreSQL database reads the same photos, so each publishes them as files of the site.
// - `folder` (PHOTOS_DIR): files `{dir}/{ab}/{key}.webp`. Several instances need the folder shared.
// - `bucket` (PHOTOS_BUCKET=s3://bucket/prefix): objects through the S3 API, private until the
//   build makes them public in the bucket itself (publicPhotos; bucket-photo-storage.ts), never
//   written into the site.
// Bytes are put before the row that names them, and deleted after it: what a failure in between
// leaves, no row names, and deleteOrphans() finds it (server/photos/sweeps.ts, hourly).
// Keys are the bytes' digests (core/schemas/photos.ts), so a key never changes its bytes.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isPhotoKey } from '../../core/schemas/photos.ts';
import { parseBucketUrl, type BucketLocation } from '../object-storage/bucket-url.ts';
import { openObjectStorage } from '../object-storage/object-storage.ts';
import { s3SettingsFromEnv, type S3Settings } from '../object-storage/s3-settings.ts';
import type { PhotoBlobStore } from '../parts/photo-blobs.ts';
import type { PhotoStore } from '../parts/photos.ts';
import type { Store } from '../store.ts';
import { bucketPhotoStorage } from './bucket-photo-storage.ts';
import { photoBucket } from './photo-bucket.ts';
import type { PhotoStorage } from './photo-storage-kind.ts';

export type { PhotoStorage, PublicPhotos } from './photo-storage-kind.ts';

/** The configuration: PHOTOS_BUCKET chooses a bucket, PHOTOS_DIR a folder; else the database. */
export interface PhotoStorageLocation {
  folder?: string;
  bucket?: { location: BucketLocation; settings: S3Settings };
}

/** The location `env` sets, or what is wrong with its settings, in one line. */
export function readPhotoStorageLocation(
  env: NodeJS.ProcessEnv,
): { location: PhotoStorageLocation } | { problem: string } {
  const folder = env.PHOTOS_DIR?.trim();
  const bucketUrl = env.PHOTOS_BUCKET?.trim();
  if (!bucketUrl) return { location: folder ? { folder: resolve(folder) } : {} };
  if (folder)
    return {
      problem:
        "PHOTOS_BUCKET and PHOTOS_DIR are both set: photos are kept in one place. Move the folder's photos into the bucket (npm run photos:to-bucket), then unset PHOTOS_DIR.",
    };
  const bucket = parseBucketUrl('PHOTOS_BUCKET', bucketUrl);
  if ('problem' in bucket) return bucket;
  const s3 = s3SettingsFromEnv(env);
  if ('problem' in s3) return s3;
  return { location: { bucket: { location: bucket.location, settings: s3.settings } } };
}

/** The location `env` sets; throws on a wrong setting (the server checks them at start). */
export function photoStorageLocationFromEnv(env: NodeJS.ProcessEnv): PhotoStorageLocation {
  const read = readPhotoStorageLocation(env);
  if ('problem' in read) throw new Error(read.problem);
  return read.location;
}

/** The storage at `location`, on `store` (whose photo_variants say which keys are in use). */
export function openPhotoStorage(
  store: Pick<Store, 'photoBlobs' | 'photos'>,
  location: PhotoStorageLocation = {},
  /**
   * Told the keys whose objects a deletion took from a bucket, public ones included (the server
   * purges their URLs from the CDN in front of it: server/publishing/site-bucket/).
   */
  onTakenDown?: (keys: readonly string[]) => void,
): PhotoStorage {
  if (location.bucket)
    return bucketPhotoStorage(
      photoBucket(openObjectStorage(location.bucket.location, location.bucket.settings)),
      store,
      onTakenDown,
    );
  return location.folder ? folderPhotoStorage(location.folder, store) : databasePhotoStorage(store);
}

export function databasePhotoStorage(store: Pick<Store, 'photoBlobs'>): PhotoStorage {
  return {
    kind: 'database',
    describe: 'the database (photo_blobs)',
    put: async (key, bytes) => store.photoBlobs.put(checked(key), bytes, new Date().toISOString()),
    get: (key) => (isPhotoKey(key) ? store.photoBlobs.get(key) : Promise.resolve(undefined)),
    delete: (keys) => store.photoBlobs.delete(keys.filter(isPhotoKey)),
    async deleteOrphans(before) {
      const orphans = await store.photoBlobs.orphansBefore(before.toISOString());
      await store.photoBlobs.delete(orphans);
      return orphans.length;
    },
  };
}

export function folderPhotoStorage(
  dir: string,
  store: { photos: Pick<PhotoStore, 'unreferencedKeys'> },
): PhotoStorage {
  const fileOf = (key: string) => join(dir, key.slice(0, 2), `${key}.webp`);
  return {
    kind: 'folder',
    describe: dir,
    async put(key, bytes) {
      const file = fileOf(checked(key));
      await mkdir(join(dir, key.slice(0, 2)), { recursive: true });
      // Whole or not at all: written aside, then renamed into place.
      const aside = `${file}.${randomBytes(6).toString('hex')}.part`;
      await writeFile(aside, bytes, { mode: 0o600 });
      await rename(aside, file);
    },
    async get(key) {
      if (!isPhotoKey(key)) return undefined;
      try {
        return await readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(keys) {
      const unused = await store.photos.unreferencedKeys(keys.filter(isPhotoKey));
      await Promise.all(unused.map((key) => rm(fileOf(key), { force: true })));
    },
    async deleteOrphans(before) {
      // Once an hour: a folder a prefix (256 of them), the store asked about 500 keys at a time.
      let deleted = 0;
      let shelves: string[];
      try {
        shelves = (await readdir(dir)).filter((name) => /^[0-9a-f]{2}$/.test(name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw error;
      }
      for (const shelf of shelves) {
        const old: string[] = [];
        for (const name of await readdir(join(dir, shelf))) {
          const key = name.replace(/\.webp$/, '');
          if (!isPhotoKey(key) || !name.endsWith('.webp')) continue;
          const info = await stat(join(dir, shelf, name)).catch(() => undefined);
          if (info && info.mtime < before) old.push(key);
        }
        for (let at = 0; at < old.length; at += 500) {
          const unused = await store.photos.unreferencedKeys(old.slice(at, at + 500));
          await Promise.all(unused.map((key) => rm(fileOf(key), { force: true })));
          deleted += unused.length;
        }
      }
      return deleted;
    },
  };
}

function checked(key: string): string {
  if (!isPhotoKey(key)) throw new Error(`not a photo key: ${JSON.stringify(key)}`);
  return key;
}

/** What the build reads of the photo storage (pipeline/compile/published-photos.ts). */
export type PhotoReading = Pick<PhotoStorage, 'kind' | 'describe' | 'get' | 'publicPhotos'>;

/** The build puts and deletes nothing: the store's photos are never asked which keys are unused. */
const NOTHING_DELETED = {
  photos: {
    unreferencedKeys: () => Promise.reject(new Error('the build deletes no photo')),
  },
};

/**
 * The storage at `location` as the build reads it: the bytes of keys (from `photoBlobs` when the
 * database keeps them), and a bucket's publishing of them. It neither puts nor deletes.
 */
export function openPhotoReading(
  photoBlobs: Pick<PhotoBlobStore, 'get'>,
  location: PhotoStorageLocation = {},
): PhotoReading {
  if (location.bucket || location.folder) {
    const { kind, describe, get, publicPhotos } = location.bucket
      ? bucketPhotoStorage(
          photoBucket(openObjectStorage(location.bucket.location, location.bucket.settings)),
          NOTHING_DELETED,
        )
      : folderPhotoStorage(location.folder!, NOTHING_DELETED);
    return publicPhotos ? { kind, describe, get, publicPhotos } : { kind, describe, get };
  }
  return {
    kind: 'database',
    describe: 'the database (photo_blobs)',
    get: (key) => (isPhotoKey(key) ? photoBlobs.get(key) : Promise.resolve(undefined)),
  };
}
