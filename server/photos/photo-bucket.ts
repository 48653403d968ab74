// Where a photo's bytes are in a bucket (PHOTOS_BUCKET=s3://bucket/prefix; docs/product.md
// section 10), and their moves between its two parts:
// - public: `{prefix}photos/{ab}/{key}.webp`, the sizes of the photos of published ads, at the path
//   the site's pages name (photoFilePath), sent with `Cache-Control: public, max-age=31536000,
//   immutable` (a key is its bytes' digest: they never change). The CDN or web server in front
//   serves `/photos/` from here (README "Photos in a bucket").
// - private: `{prefix}private/{ab}/{key}.webp`, everything not public yet or any more (pending,
//   flagged, removed during its appeal window, uploads on no ad). Never a public URL: the bucket's
//   policy gives anonymous reads of `photos/` only; the server reads these and serves them to those
//   allowed (photo-for-viewer.ts).
// Publishing a key copies it from private to public, then deletes the private copy; hiding does
// the reverse. Either way the bytes are in one part or the other at every moment, so a reader
// (private first, then public) always finds them, and a move stopped half-way leaves two copies,
// never none: the next move, or the deletion of the key, takes both.
import { photoFilePath } from '../../src/schemas/photos.ts';
import type { ObjectStorage } from '../object-storage/object-storage.ts';

export const PUBLISHED_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const PRIVATE_CACHE_CONTROL = 'private, no-store';
const WEBP = 'image/webp';

export const publicKeyOf = (key: string) => photoFilePath(key).slice(1);
export const privateKeyOf = (key: string) => `private/${key.slice(0, 2)}/${key}.webp`;
/** The two parts' prefixes, under the bucket's own. */
export const PARTS = ['private/', 'photos/'] as const;

/** A photo key from an object's key in either part; undefined for any other object. */
export function photoKeyOfObject(objectKey: string): string | undefined {
  const match = /^(?:private|photos)\/([0-9a-f]{2})\/([0-9a-f]{32})\.webp$/.exec(objectKey);
  return match && match[2]!.startsWith(match[1]!) ? match[2] : undefined;
}

export interface PhotoBucket {
  readonly objects: ObjectStorage;
  /** Keeps new bytes in the private part. */
  putPrivate(key: string, bytes: Buffer): Promise<void>;
  /** The bytes of `key` from either part, or undefined when neither has them. */
  get(key: string): Promise<Buffer | undefined>;
  /** Makes `key` public; false when the bucket has no bytes for it. */
  publish(key: string): Promise<boolean>;
  /** Takes `keys` out of public reach (back to the private part); answers how many moved. */
  hide(keys: readonly string[]): Promise<number>;
  /** Deletes both parts' objects of `keys`. */
  deleteBoth(keys: readonly string[]): Promise<void>;
}

export function photoBucket(objects: ObjectStorage): PhotoBucket {
  const move = async (key: string, from: string, to: string, cacheControl: string) => {
    if (!(await objects.copy(from, to, { contentType: WEBP, cacheControl }))) return false;
    await objects.deleteMany([from]);
    return true;
  };
  return {
    objects,
    async putPrivate(key, bytes) {
      await objects.put(privateKeyOf(key), bytes, {
        contentType: WEBP,
        cacheControl: PRIVATE_CACHE_CONTROL,
      });
    },
    async get(key) {
      return (await objects.get(privateKeyOf(key))) ?? (await objects.get(publicKeyOf(key)));
    },
    async publish(key) {
      if (await objects.head(publicKeyOf(key))) {
        // Public already (another ad's identical photo, or a move stopped half-way).
        await objects.deleteMany([privateKeyOf(key)]);
        return true;
      }
      return move(key, privateKeyOf(key), publicKeyOf(key), PUBLISHED_CACHE_CONTROL);
    },
    async hide(keys) {
      let moved = 0;
      for (const key of keys)
        if (await move(key, publicKeyOf(key), privateKeyOf(key), PRIVATE_CACHE_CONTROL)) moved += 1;
      return moved;
    },
    deleteBoth: (keys) =>
      objects.deleteMany(keys.flatMap((key) => [privateKeyOf(key), publicKeyOf(key)])),
  };
}
