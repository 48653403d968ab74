// Where the bytes of photos' sizes are kept (docs/product.md section 10): one interface for the
// server, which stores what it processed and shows members and moderators photos not yet
// published, and for the build, which publishes the live ads' photos as files of the site. Two
// kinds, chosen by configuration:
// - `database` (the default): the photo_blobs table of the store. Every instance on one
//   PostgreSQL database reads the same photos, so each publishes them.
// - `folder` (PHOTOS_DIR): files `{dir}/{ab}/{key}.webp`. Several instances need the folder shared.
// Keys are the bytes' digests (src/schemas/photos.ts), so a key never changes its bytes.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isPhotoKey } from '../../src/schemas/photos.ts';
import type { Store } from '../store/store.ts';

export interface PhotoStorage {
  readonly kind: 'database' | 'folder';
  /** For logs. */
  readonly describe: string;
  /** Keeps the bytes of `key` (a key already kept stays as it is). */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes of `key`, or undefined when they are not kept (deleted meanwhile). */
  get(key: string): Promise<Buffer | undefined>;
  /** Deletes the bytes of these keys, unless a photo's size uses one again (the store is asked). */
  delete(keys: readonly string[]): Promise<void>;
}

/** The configuration: PHOTOS_DIR chooses a folder; else the database. */
export interface PhotoStorageLocation {
  folder?: string;
}

export function photoStorageLocationFromEnv(env: NodeJS.ProcessEnv): PhotoStorageLocation {
  const folder = env.PHOTOS_DIR?.trim();
  return folder ? { folder: resolve(folder) } : {};
}

/** The storage at `location`, on `store` (whose photo_variants say which keys are in use). */
export function openPhotoStorage(
  store: Pick<Store, 'photoBlobs' | 'photos'>,
  location: PhotoStorageLocation = {},
): PhotoStorage {
  return location.folder ? folderPhotoStorage(location.folder, store) : databasePhotoStorage(store);
}

export function databasePhotoStorage(store: Pick<Store, 'photoBlobs'>): PhotoStorage {
  return {
    kind: 'database',
    describe: 'the database (photo_blobs)',
    put: async (key, bytes) => store.photoBlobs.put(checked(key), bytes, new Date().toISOString()),
    get: (key) => (isPhotoKey(key) ? store.photoBlobs.get(key) : Promise.resolve(undefined)),
    delete: (keys) => store.photoBlobs.delete(keys.filter(isPhotoKey)),
  };
}

export function folderPhotoStorage(dir: string, store: Pick<Store, 'photos'>): PhotoStorage {
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
  };
}

function checked(key: string): string {
  if (!isPhotoKey(key)) throw new Error(`not a photo key: ${JSON.stringify(key)}`);
  return key;
}
