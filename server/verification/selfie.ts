// The member's verification selfie (docs/product.md section 6, "Verified members"): processed like
// an ad photo, in the photo workers (upright, sRGB, every piece of metadata stripped), but kept
// only in its largest size, in the photo storage under a key no photo's size names, so the build
// never publishes it and the storage's sweeps leave it (store/parts/photo-blobs.ts, photos.ts).
// Before it is kept, its perceptual hash is compared with every earlier verification selfie and
// with the photos of the site's members (the duplicate index): a picture already seen, re-encoded
// or resized, is refused with words that say why. A hash is not a face template: it is of the
// picture's light and shade, and says nothing of who is in it.
import { UPLOADS_PER_CHALLENGE } from '../../core/schemas/verification.ts';
import type { AppPhotos } from '../photos/app-photos.ts';
import { DUPLICATE_BITS } from '../photos/photo-duplicates.ts';
import { PHOTO_PROBLEMS } from '../photos/process-photo.ts';
import { PhotoProcessingBusy, PROCESSING_FAILED } from '../photos/processing-pool.ts';
import type { UploadedFile } from '../photos/read-upload.ts';
import { Refusal } from '../../core/refusal.ts';
import { hammingDistance } from '../../store/parts/photo-hash-index.ts';
import type { Store } from '../../store/store.ts';
import { openChallenge } from './challenge.ts';

export const SELFIE_FIELD = 'selfie';

export const NO_OPEN_CHALLENGE =
  'You have no open code: ask for a code first (a code can be used for 24 hours).';
export const NO_SELFIE_CHOSEN = 'Choose or take a selfie showing the code.';
export const TOO_MANY_UPLOADS = `You have sent ${UPLOADS_PER_CHALLENGE} selfies for this code. Ask for a new code to try again.`;
export const SELFIE_SEEN_BEFORE =
  'This picture was used before, here or in an ad on the site, so it cannot verify you. Take a new selfie now, showing the code written by hand.';
export const SELFIE_BUSY =
  'We are processing a lot of photos right now. Please send your selfie again in a minute.';

/** Whether a picture with this hash was seen before: an earlier selfie, or a member's photo. */
async function seenBefore(store: Store, phash: string): Promise<boolean> {
  for (const earlier of await store.verifications.selfieHashes())
    if (hammingDistance(earlier.phash, phash) <= DUPLICATE_BITS) return true;
  // Every account's photos, the member's own too: a verification selfie is taken for it.
  return (await store.photoHashes.near(phash, DUPLICATE_BITS, 0)).length > 0;
}

/**
 * Keeps `file` as the selfie answering the member's open challenge; refused (thrown, with the
 * selfie field) when there is none, after UPLOADS_PER_CHALLENGE tries, when the file is no photo
 * we take, or when the picture was seen before.
 */
export async function sendSelfie(
  store: Store,
  photos: Pick<AppPhotos, 'pool' | 'storage'>,
  accountId: number,
  file: UploadedFile | undefined,
  now: Date,
): Promise<number> {
  const refuse = (message: string, kind: 'invalid' | 'conflict' = 'invalid') =>
    new Refusal(kind, message, { field: SELFIE_FIELD });
  const challenge = await openChallenge(store, accountId, now);
  if (!challenge) throw refuse(NO_OPEN_CHALLENGE, 'conflict');
  if (challenge.uploads >= UPLOADS_PER_CHALLENGE) throw refuse(TOO_MANY_UPLOADS, 'conflict');
  if (!file) throw refuse(NO_SELFIE_CHOSEN);
  if (file.tooLarge) throw refuse(PHOTO_PROBLEMS.tooLarge);
  if (!file.path) throw refuse(PROCESSING_FAILED);
  let outcome;
  try {
    outcome = await photos.pool.process(file.path);
  } catch (error) {
    if (error instanceof PhotoProcessingBusy)
      throw new Refusal('busy', SELFIE_BUSY, {
        field: SELFIE_FIELD,
        retryAfter: error.retryAfterSeconds,
      });
    console.error(`Selfie processing failed: ${(error as Error).message}`);
    throw refuse(PROCESSING_FAILED);
  }
  await store.verifications.countUpload(challenge.id);
  if (!outcome.ok) throw refuse(outcome.problem);
  const { photo } = outcome;
  if (await seenBefore(store, photo.phash)) throw refuse(SELFIE_SEEN_BEFORE);
  const largest = photo.variants.at(-1)!;
  // The bytes first: a row never names bytes that are not there.
  await photos.storage.put(largest.key, largest.bytes);
  const kept = await store.verifications.submit(challenge.id, {
    key: largest.key,
    width: largest.width,
    height: largest.height,
    phash: photo.phash,
    at: now.toISOString(),
  });
  if (!kept) {
    await photos.storage.delete([largest.key]);
    throw refuse(NO_OPEN_CHALLENGE, 'conflict');
  }
  return challenge.id;
}
