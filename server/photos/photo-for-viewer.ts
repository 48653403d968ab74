// One size of a photo not yet published (docs/product.md section 10), for who may see it through
// the server: its member (the posting form's previews, the edit page, Download my data) and the
// moderators (the queue shows photos under review; /moderate/appeals shows a removed photo as it
// was, while its sizes are kept for an appeal). Anyone else, a photo a moderator removed (to anyone
// but moderators, its member included), and a size it does not have, find nothing alike: an id
// says nothing about whether it exists.
import type { Store } from '../../store/store.ts';
import type { AppPhotos } from './app-photos.ts';

/** Who asks: the signed-in member, if any. */
export interface PhotoViewer {
  accountId: number;
  role: 'member' | 'moderator';
}

/** The bytes (WebP) of photo `id`'s size `width`, if `viewer` may see them. */
export async function photoBytesFor(
  store: Store,
  photos: AppPhotos,
  viewer: PhotoViewer | undefined,
  id: number,
  width: number,
): Promise<Buffer | undefined> {
  if (!viewer) return undefined;
  const photo = await store.photos.find(id);
  const maySee =
    photo &&
    (viewer.role === 'moderator' ||
      (photo.removedAt === null && photo.accountId === viewer.accountId));
  if (!maySee) return undefined;
  const variant = photo.variants.find((each) => each.width === width);
  return variant ? photos.storage.get(variant.key) : undefined;
}
