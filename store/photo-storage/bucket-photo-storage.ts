// The photo storage of kind `bucket` (PHOTOS_BUCKET; photo-storage.ts, docs/product.md section 10):
// bytes in a bucket through the S3 API, private until the build publishes them (photo-bucket.ts
// says where and how they move). Put before the row that names them, deleted after it, as the
// other kinds; the orphans are found by listing both parts (an hourly sweep: a list request a
// thousand objects, and the store asked about 500 keys at a time).
import { isPhotoKey } from '../../core/schemas/photos.ts';
import type { PhotoStore } from '../parts/photos.ts';
import { PARTS, photoKeyOfObject, publicKeyOf, type PhotoBucket } from './photo-bucket.ts';
import type { PhotoStorage } from './photo-storage-kind.ts';

export function bucketPhotoStorage(
  bucket: PhotoBucket,
  store: { photos: Pick<PhotoStore, 'unreferencedKeys'> },
  /** Told the keys `delete` took out (the CDN forgets their public URLs: photo-storage.ts). */
  onTakenDown?: (keys: readonly string[]) => void,
): PhotoStorage {
  const deleteUnused = async (keys: readonly string[]) => {
    const unused = await store.photos.unreferencedKeys(keys.filter(isPhotoKey));
    await bucket.deleteBoth(unused);
    return unused;
  };
  return {
    kind: 'bucket',
    describe: bucket.objects.describe,
    async put(key, bytes) {
      if (!isPhotoKey(key)) throw new Error(`not a photo key: ${JSON.stringify(key)}`);
      await bucket.putPrivate(key, bytes);
    },
    get: (key) => (isPhotoKey(key) ? bucket.get(key) : Promise.resolve(undefined)),
    async delete(keys) {
      const deleted = await deleteUnused(keys);
      if (deleted.length > 0) onTakenDown?.(deleted);
    },
    async deleteOrphans(before) {
      let deleted = 0;
      for (const part of PARTS) {
        let old: string[] = [];
        const flush = async () => {
          // Orphans: bytes no photo names, never public since (the sweep's age is far longer
          // than a publish), so nothing to purge.
          deleted += (await deleteUnused([...new Set(old)])).length;
          old = [];
        };
        for await (const object of bucket.objects.list(part)) {
          const key = photoKeyOfObject(object.key);
          if (key && object.lastModified < before) old.push(key);
          if (old.length >= 500) await flush();
        }
        await flush();
      }
      return deleted;
    },
    publicPhotos: {
      publish: (key) => bucket.publish(key),
      hide: (keys) => bucket.hide(keys),
      readPublic: (key) =>
        isPhotoKey(key) ? bucket.objects.get(publicKeyOf(key)) : Promise.resolve(undefined),
    },
  };
}
