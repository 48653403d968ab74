// Where the bytes of photos' sizes are kept (docs/product.md section 10): one interface for the
// server, which stores what it processed and shows members and moderators photos not yet
// published, and for the build, which publishes the live ads' photos as files of the site. Two
// kinds, chosen by configuration:
// - `database` (the default): the photo_blobs table of the store. Every instance on one
//   PostgreSQL database reads the same photos, so each publishes them.
// - `folder` (PHOTOS_DIR): files `{dir}/{ab}/{key}.webp`. Several instances need the folder shared.
// Bytes are put before the row that names them, and deleted after it: what a failure in between
// leaves, no row names, and deleteOrphans() finds it (server/photos/sweeps.ts, hourly).
// Keys are the bytes' digests (core/schemas/photos.ts), so a key never changes its bytes.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isPhotoKey } from '../../core/schemas/photos.ts';
import type { Store } from '../../store/store.ts';

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
  /**
   * Deletes bytes kept before `before` that no photo's size uses (left by an upload whose row
   * never came, or a deletion that stopped half-way); answers how many.
   */
  deleteOrphans(before: Date): Promise<number>;
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
    async deleteOrphans(before) {
      const orphans = await store.photoBlobs.orphansBefore(before.toISOString());
      await store.photoBlobs.delete(orphans);
      return orphans.length;
    },
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
