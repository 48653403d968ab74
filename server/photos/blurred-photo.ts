// The blurred rendering of a photo the moderation queue keeps out of sight (docs/product.md
// section 6): made on the server from the photo's smallest size, so the page holds
// nothing a moderator could see by accident (opening the image, zooming, a slow network showing
// it before a stylesheet): the bytes themselves are a 24-pixel-wide smudge, scaled up in the page.
// For moderators only; anyone else, a removed photo and an unknown id find nothing alike.
// sharp is loaded on the first such request: the server process does not otherwise decode images
// (processing runs in the worker processes), and this input is a small WebP of our own making.
import type { Store } from '../../store/store.ts';
import type { AppPhotos } from './app-photos.ts';
import type { PhotoViewer } from './photo-for-viewer.ts';

/** The blurred rendering's width in pixels: colours and layout, never a recognisable picture. */
export const BLURRED_WIDTH = 24;

let loadingSharp: Promise<typeof import('sharp').default> | undefined;
const sharpOnce = () =>
  (loadingSharp ??= import('sharp').then(({ default: sharp }) => {
    // One thread at a time, nothing cached: a few small pictures, beside the requests.
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  }));

/** The blurred rendering (WebP) of photo `id`, if `viewer` is a moderator and the photo is there. */
export async function blurredPhotoFor(
  store: Store,
  photos: AppPhotos,
  viewer: PhotoViewer | undefined,
  id: number,
): Promise<Buffer | undefined> {
  if (viewer?.role !== 'moderator') return undefined;
  const photo = await store.photos.find(id);
  const smallest = photo && photo.removedAt === null ? photo.variants[0] : undefined;
  const bytes = smallest && (await photos.storage.get(smallest.key));
  if (!bytes) return undefined;
  const sharp = await sharpOnce();
  return sharp(bytes).resize(BLURRED_WIDTH).blur(1.2).webp({ quality: 60 }).toBuffer();
}
