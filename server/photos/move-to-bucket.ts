// Moves the bytes of photos kept in the database (photo_blobs) or a folder (PHOTOS_DIR) into a
// bucket (PHOTOS_BUCKET; `npm run photos:to-bucket`, README "Photos in a bucket"). Each key in
// turn: its bytes are read from the source, put in the bucket's private part (photo-bucket.ts)
// unless the bucket has them already, read back from the bucket and compared byte for byte, and
// only then deleted from the source. So a move stopped at any point (Ctrl-C, a crash, a lost
// connection) loses nothing, and running it again goes on where it stopped: a key already in the
// bucket is compared, not copied again, then deleted from the source. The next build publishes the
// sizes of published ads (pipeline/compile/published-photos.ts).
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isPhotoKey } from '../../src/schemas/photos.ts';
import type { Store } from '../store/store.ts';
import type { PhotoBucket } from './photo-bucket.ts';

/** Where the bytes are now. */
export interface MoveSource {
  describe: string;
  /** Every key, a page at a time, in order after `after`. */
  keysAfter(after: string, limit: number): Promise<string[]>;
  get(key: string): Promise<Buffer | undefined>;
  /** Deletes `key`'s bytes from the source, used or not (they are in the bucket now). */
  deleteMoved(key: string): Promise<void>;
}

export interface MoveCount {
  /** Copied into the bucket, checked, deleted from the source. */
  moved: number;
  /** In the bucket already with the same bytes (a move stopped half-way): deleted from the source. */
  alreadyInBucket: number;
  /** Gone from the source between the listing and the read (deleted meanwhile). */
  vanished: number;
}

export function databaseSource(store: Pick<Store, 'photoBlobs'>): MoveSource {
  return {
    describe: 'the database (photo_blobs)',
    keysAfter: (after, limit) => store.photoBlobs.keysAfter(after, limit),
    get: (key) => store.photoBlobs.get(key),
    deleteMoved: (key) => store.photoBlobs.deleteMoved(key),
  };
}

/** The PHOTOS_DIR folder: files `{dir}/{ab}/{key}.webp` (photo-storage.ts). */
export function folderSource(dir: string): MoveSource {
  const fileOf = (key: string) => join(dir, key.slice(0, 2), `${key}.webp`);
  const names = async (path: string) => {
    try {
      return (await readdir(path)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  };
  return {
    describe: dir,
    async keysAfter(after, limit) {
      const keys: string[] = [];
      for (const shelf of await names(dir)) {
        if (!/^[0-9a-f]{2}$/.test(shelf) || shelf < after.slice(0, 2)) continue;
        for (const name of await names(join(dir, shelf))) {
          const key = name.replace(/\.webp$/, '');
          if (!name.endsWith('.webp') || !isPhotoKey(key) || key <= after) continue;
          keys.push(key);
          if (keys.length >= limit) return keys;
        }
      }
      return keys;
    },
    async get(key) {
      try {
        return await readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    deleteMoved: (key) => rm(fileOf(key), { force: true }),
  };
}

export interface MoveOptions {
  /** Keys moved at once (default 8). */
  concurrency?: number;
  /** Stops after this many keys (a move stopped half-way, in the tests). */
  stopAfter?: number;
  /** After each key: for a progress line. */
  onKey?: (count: MoveCount) => void;
}

/** Moves every key of `source` into `bucket`; answers the counts. */
export async function movePhotosToBucket(
  source: MoveSource,
  bucket: PhotoBucket,
  { concurrency = 8, stopAfter = Infinity, onKey }: MoveOptions = {},
): Promise<MoveCount> {
  const count: MoveCount = { moved: 0, alreadyInBucket: 0, vanished: 0 };
  let done = 0;
  const moveOne = async (key: string) => {
    const bytes = await source.get(key);
    if (!bytes) {
      count.vanished += 1;
      return;
    }
    let there = await bucket.get(key);
    const already = there !== undefined && there.equals(bytes);
    if (!already) {
      await bucket.putPrivate(key, bytes);
      there = await bucket.get(key);
      if (!there?.equals(bytes))
        throw new Error(
          `${bucket.objects.describe} gave back other bytes for ${key} than ${source.describe} has: nothing deleted; run the move again`,
        );
    }
    await source.deleteMoved(key);
    if (already) count.alreadyInBucket += 1;
    else count.moved += 1;
  };
  // Keys are deleted as they go, so each page starts after the last key of the one before.
  for (let after = ''; done < stopAfter;) {
    const page = await source.keysAfter(after, 500);
    if (page.length === 0) break;
    const keys = page.slice(0, stopAfter - done);
    for (let at = 0; at < keys.length; at += concurrency) {
      await Promise.all(keys.slice(at, at + concurrency).map(moveOne));
      done += keys.slice(at, at + concurrency).length;
      onKey?.(count);
    }
    after = page.at(-1)!;
  }
  return count;
}

/** The command's last line. */
export function describeMove(count: MoveCount, source: MoveSource, bucket: PhotoBucket): string {
  const total = count.moved + count.alreadyInBucket;
  return `Moved ${total} photo file${total === 1 ? '' : 's'} from ${source.describe} to ${bucket.objects.describe} (${count.moved} copied, ${count.alreadyInBucket} already there${count.vanished > 0 ? `, ${count.vanished} deleted meanwhile` : ''}).`;
}
