// Photos leaving for good (docs/product.md section 10): with their ad when its member deletes it,
// with the account (server/accounts/delete-account.ts), and by the sweeps (sweeps.ts). The rows go
// in the store; the bytes of their sizes go from the photo storage after, and only those no other
// photo's size uses (a key is the bytes' digest: two members' identical photos share it).
// Every step is idempotent: a photo or a key already gone is nothing to do, so two instances
// doing it at once, or a retry after a failure half-way, end the same.
import type { PhotoRow, PhotoStore } from '../../store/parts/photos.ts';
import type { Store } from '../../store/store.ts';
import type { PhotoStorage } from '../../store/photo-storage/photo-storage.ts';

/** Rows deleted in one statement at most (SQL parameter lists stay small on both engines). */
const BATCH = 500;

/**
 * In batches, each in one unit of work: the photos of `ids` that still answer to `still` when
 * read again there lose what `drop` deletes (their rows, or only their sizes), and after the unit
 * of work the bytes no photo uses any more go: bytes are never deleted while a row still names
 * them. Answers how many photos it dropped.
 */
async function dropPhotos(
  store: Store,
  storage: PhotoStorage,
  ids: readonly number[],
  still: (photo: PhotoRow) => boolean,
  drop: (photos: PhotoStore, ids: readonly number[]) => Promise<string[]>,
): Promise<number> {
  let dropped = 0;
  for (let start = 0; start < ids.length; start += BATCH) {
    const batch = ids.slice(start, start + BATCH);
    const { found, keys } = await store.unitOfWork(async (tx) => {
      const doomed = (await tx.photos.findMany(batch)).filter(still).map((photo) => photo.id);
      return { found: doomed.length, keys: await drop(tx.photos, doomed) };
    });
    dropped += found;
    await storage.delete(keys);
  }
  return dropped;
}

/**
 * Deletes the photos of `ids` (rows and sizes), then the bytes no photo uses any more; with
 * `still`, only those that still answer to it when read again in the deletion's unit of work (an
 * upload a post attached meanwhile is no longer abandoned). Answers how many were deleted.
 */
export function deletePhotos(
  store: Store,
  storage: PhotoStorage,
  ids: readonly number[],
  still: (photo: PhotoRow) => boolean = () => true,
): Promise<number> {
  return dropPhotos(store, storage, ids, still, (photos, doomed) => photos.delete(doomed));
}

/**
 * The sizes (and then bytes) of removed photos whose keeping is over (sweeps.ts): the rows stay,
 * so the member still reads what was removed and why. Only those still removed when read again in
 * the unit of work (a reversal meanwhile put one back). Answers how many photos lost their sizes.
 */
export function deleteRemovedPhotoSizes(
  store: Store,
  storage: PhotoStorage,
  ids: readonly number[],
): Promise<number> {
  const stillRemoved = (photo: PhotoRow) => photo.removedAt !== null;
  return dropPhotos(store, storage, ids, stillRemoved, (photos, doomed) =>
    photos.deleteVariants(doomed),
  );
}

/**
 * An ad deleted by its member: its photos (published or not, removed or not) and their bytes go.
 * Called after the ad's own change is stored; answers how many photos went.
 */
export async function deletePhotosOfAd(
  store: Store,
  storage: PhotoStorage,
  adId: number,
): Promise<number> {
  const photos = await store.photos.listForAd(adId);
  return deletePhotos(
    store,
    storage,
    photos.map((photo) => photo.id),
  );
}

/**
 * Within the unit of work that deletes an account, before its rows go: the keys of every size of
 * its photos, whose bytes are to be deleted once the unit is done (deleteBytesOf).
 */
export async function photoKeysOfAccount(tx: Store, accountId: number): Promise<string[]> {
  const photos = await tx.photos.listOwned(accountId);
  return [...new Set(photos.flatMap((photo) => photo.variants.map((variant) => variant.key)))];
}

/**
 * Deletes the bytes of `keys` no photo's size uses any more. A failure is logged, not thrown: the
 * rows are gone already, and the sweeps take the bytes left behind (orphan blobs) later.
 */
export async function deleteBytesOf(
  /** None: an app without photo storage (the API's own tests) has no bytes to delete. */
  storage: PhotoStorage | undefined,
  keys: readonly string[],
  why: string,
): Promise<void> {
  if (!storage || keys.length === 0) return;
  try {
    await storage.delete(keys);
  } catch (error) {
    console.error(`Deleting the photos of ${why} failed: ${(error as Error).message}`);
  }
}
