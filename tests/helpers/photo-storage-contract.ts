// What every kind of photo storage does (store/photo-storage/photo-storage.ts), as tests a file runs on
// its kinds: the database and a folder (tests/integration/store/photos.test.ts), a bucket on the
// real S3 server (tests/s3/photo-storage.test.ts).
import { expect, it } from 'vitest';
import type { PhotoStorage } from '../../store/photo-storage/photo-storage.ts';
import type { Store } from '../../store/store.ts';

/** The n-th test key: 32 hex digits. */
export const testPhotoKey = (n: number) => n.toString(16).padStart(32, '0');

/**
 * A stored photo of the member (800 × 600) whose one size, 320 px wide, is `key` of `size` bytes,
 * uploaded at `at` (now unless told): those bytes are in use. Its id.
 */
export const insertPhotoWithOneSize = (
  store: Pick<Store, 'photos'>,
  accountId: number,
  key: string,
  size: number,
  at = new Date().toISOString(),
) =>
  store.photos.insert({
    accountId,
    width: 800,
    height: 600,
    phash: '0123456789abcdef',
    flag: null,
    variants: [{ width: 320, height: 240, key, size }],
    at,
  });

export interface PhotoStorageKind {
  /** "the database", "a folder", "a bucket". */
  where: string;
  open(): PhotoStorage;
  /** Stores a photo one of whose sizes is `testPhotoKey(n)`: its bytes are in use. */
  usePhoto(n: number): Promise<void>;
  /** Whether anything of `key` is left where the kind keeps bytes (a file, an object), read raw. */
  leftBehind?(key: string): Promise<boolean>;
}

/** The tests, for each kind (whose methods are called in the tests, after a file's beforeEach). */
export function photoStorageContract(kinds: readonly PhotoStorageKind[]): void {
  for (const each of kinds) {
    const { where } = each;
    const kind = () => each;
    it(`in ${where}: keeps bytes by key, and deletes them only when no photo uses them`, async () => {
      const key = testPhotoKey;
      const storage = kind().open();
      await storage.put(key(1), Buffer.from('one'));
      await storage.put(key(1), Buffer.from('one'));
      await storage.put(key(2), Buffer.from('two'));
      expect((await storage.get(key(1)))!.toString()).toBe('one');
      expect(await storage.get(key(9))).toBeUndefined();
      expect(await storage.get('../../etc/passwd')).toBeUndefined();
      await expect(storage.put('../x', Buffer.from('x'))).rejects.toThrow(/not a photo key/);
      // key(2) is a size of a photo: it stays.
      await kind().usePhoto(2);
      await storage.delete([key(1), key(2)]);
      expect(await storage.get(key(1))).toBeUndefined();
      expect((await storage.get(key(2)))!.toString()).toBe('two');
      if (kind().leftBehind) expect(await kind().leftBehind!(key(1))).toBe(false);
    });

    it(`in ${where}: deletes orphan bytes (kept long enough ago, named by no photo)`, async () => {
      const key = testPhotoKey;
      const storage = kind().open();
      await storage.put(key(1), Buffer.from('orphan'));
      await storage.put(key(2), Buffer.from('used'));
      await kind().usePhoto(2);
      // Nothing is old enough yet: an upload may be between its bytes and its row.
      expect(await storage.deleteOrphans(new Date(Date.now() - 60_000))).toBe(0);
      expect(await storage.deleteOrphans(new Date(Date.now() + 60_000))).toBe(1);
      expect(await storage.get(key(1))).toBeUndefined();
      expect((await storage.get(key(2)))!.toString()).toBe('used');
      if (kind().leftBehind) expect(await kind().leftBehind!(key(1))).toBe(false);
    });
  }
}
