// The photo storage of kind `bucket` (PHOTOS_BUCKET; photo-storage.ts, docs/product.md section 10):
// bytes in a bucket through the S3 API, private until the build publishes them (photo-bucket.ts
// says where and how they move). Put before the row that names them, deleted after it, as the
// other kinds; the orphans are found by listing both parts (an hourly sweep: a list request a
// thousand objects, and the store asked about 500 keys at a time).
import { isPhotoKey } from '../../src/schemas/photos.ts';
import type { Store } from '../store/store.ts';
import { PARTS, photoKeyOfObject, publicKeyOf, type PhotoBucket } from './photo-bucket.ts';
import type { PhotoStorage } from './photo-storage.ts';

export function bucketPhotoStorage(
  bucket: PhotoBucket,
  store: Pick<Store, 'photos'>,
): PhotoStorage {
  const deleteUnused = async (keys: readonly string[]) => {
    const unused = await store.photos.unreferencedKeys(keys.filter(isPhotoKey));
    await bucket.deleteBoth(unused);
    return unused.length;
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
      await deleteUnused(keys);
    },
    async deleteOrphans(before) {
      let deleted = 0;
      for (const part of PARTS) {
        let old: string[] = [];
        const flush = async () => {
          deleted += await deleteUnused([...new Set(old)]);
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
