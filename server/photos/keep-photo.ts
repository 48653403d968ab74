// One uploaded file kept as a member's photo (docs/product.md section 10): processed in the pool
// (never in the server's process), checked against the photos moderators removed, its sizes' bytes
// put in the photo storage, looked up among other members' photos (photo-duplicates.ts: a match is
// kept for the moderator), and its row stored as an upload of the member's, on no ad yet (the
// posting and edit routes attach it to the ad). The uploaded file itself is the caller's to
// delete (read-upload.ts dispose()); nothing of it is kept but what was re-encoded.
import type { Store } from '../../store/store.ts';
import type { AppPhotos } from './app-photos.ts';
import { checkKnownPhoto } from './known-photos.ts';
import { photoElsewhere } from './photo-duplicates.ts';
import { PHOTO_PROBLEMS } from './process-photo.ts';
import { PhotoProcessingBusy, PROCESSING_FAILED } from './processing-pool.ts';
import type { UploadedFile } from './read-upload.ts';

export type KeptPhoto =
  { ok: true; id: number; flag: string | null } | { ok: false; problem: string };

/**
 * Processes and keeps `file` for the member. Rejects with PhotoProcessingBusy (503) when the
 * pool is full; anything wrong with the file is `{ ok: false, problem }`, in words for the member.
 */
export async function keepUploadedPhoto(
  store: Store,
  photos: Pick<AppPhotos, 'pool' | 'storage'>,
  accountId: number,
  file: UploadedFile,
  now: Date,
): Promise<KeptPhoto> {
  if (file.tooLarge) return { ok: false, problem: PHOTO_PROBLEMS.tooLarge };
  if (!file.path) return { ok: false, problem: PROCESSING_FAILED };
  let outcome;
  try {
    outcome = await photos.pool.process(file.path);
  } catch (error) {
    if (error instanceof PhotoProcessingBusy) throw error;
    console.error(`Photo processing failed: ${(error as Error).message}`);
    return { ok: false, problem: PROCESSING_FAILED };
  }
  if (!outcome.ok) return { ok: false, problem: outcome.problem };
  const { photo } = outcome;
  const known = await checkKnownPhoto(store, photo.phash);
  if (known.refused) return { ok: false, problem: known.refused };
  const duplicateOf = await photoElsewhere(store, photo.phash, accountId, now);
  // The bytes first: a row never names bytes that are not there. Bytes whose row never came
  // (the database went away between) are swept as orphans.
  for (const variant of photo.variants) await photos.storage.put(variant.key, variant.bytes);
  const id = await store.photos.insert({
    accountId,
    width: photo.width,
    height: photo.height,
    phash: photo.phash,
    flag: known.flag ?? null,
    score: photo.score,
    duplicateOf: duplicateOf ?? null,
    variants: photo.variants.map(({ width, height, key, bytes }) => ({
      width,
      height,
      key,
      size: bytes.length,
    })),
    at: now.toISOString(),
  });
  return { ok: true, id, flag: known.flag ?? null };
}
