// The same photo on two accounts (docs/product.md section 10): a stolen identity or a
// catfish usually shows itself by a photo already on another member's ad. Every uploaded photo's
// perceptual hash is looked up in the store's duplicate index (store/parts/photo-hashes.ts, shared
// by every instance) among the photos of every OTHER account: on an ad live or in review, or on
// one rejected or removed, or removed by a moderator, within DUPLICATE_WINDOW_MS. A match is kept
// on the photo (duplicate_of) for the queue to show (server/moderation/photos-elsewhere.ts); it
// never refuses the photo and nobody but moderators is told: it is triage. The blocked list
// (known-photos.ts) still refuses the photos moderators removed as under 18 or someone else's.
import type { PhotoRow } from '../../store/parts/photos.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import type { Store } from '../../store/store.ts';

/**
 * Of the hash's 64 bits, at most this many differ between a photo and another member's copy of
 * it. Measured (docs/benchmarks.md; bench/photo-hash-distances.ts): re-encoding and
 * resizing move a hash by 0–2 bits, brightening by up to 4, cropping 3 % by 6 (median) to 11
 * (95th percentile); unrelated photos were 17 bits apart at the least. 11 would catch 95 % of
 * 3 %-crops, but among 3,000,000 photos 14 % of new hashes found a stranger within 11 bits
 * (bench/photo-duplicates.ts): a flag on one ad in seven says nothing. At 8, strangers are rare
 * (about 1 in 1,000 at 3,000,000) and most 3 %-crops are still caught; the index's 3 pieces then
 * need 2 bits flipped a piece (floor(8 / 3)), 718 probes a look-up.
 */
export const DUPLICATE_BITS = 8;

/**
 * How long a rejected or removed ad's photos, and a photo a moderator removed, still count:
 * as long as a rejected ad's photos are kept (sweeps.ts REJECTED_KEPT_MS, 30 days).
 */
export const DUPLICATE_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/** Candidates read at most per upload (the nearest first): a flood of copies stops nowhere else. */
const CANDIDATES_READ = 20;

export interface PhotoElsewhere {
  photo: PhotoRow;
  ad: MemberAdRow;
}

/** Whether `photo`, on `ad`, still counts as a photo on another member's ad at `now`. */
export function countsAsElsewhere(
  photo: PhotoRow,
  ad: MemberAdRow | undefined,
  now: Date,
): ad is MemberAdRow {
  if (!ad || ad.id !== photo.adId || ad.accountId !== photo.accountId) return false;
  const since = new Date(now.getTime() - DUPLICATE_WINDOW_MS).toISOString();
  if (photo.removedAt !== null && photo.removedAt < since) return false;
  if (ad.status === 'review' || ad.status === 'live') return true;
  return (ad.status === 'rejected' || ad.status === 'removed') && ad.updatedAt >= since;
}

/**
 * Another member's photo like `phash` (nearest first), on an ad that counts; else the nearest
 * one on no ad yet (an upload its member is posting this moment); else none.
 */
export async function photoElsewhere(
  store: Store,
  phash: string,
  accountId: number,
  now: Date,
): Promise<number | undefined> {
  const near = (await store.photoHashes.near(phash, DUPLICATE_BITS, accountId)).slice(
    0,
    CANDIDATES_READ,
  );
  if (near.length === 0) return undefined;
  const photos = await store.photos.findMany(near.map((found) => found.photoId));
  const byId = new Map(photos.map((photo) => [photo.id, photo] as const));
  let upload: number | undefined;
  for (const { photoId } of near) {
    const photo = byId.get(photoId);
    if (!photo) continue;
    if (photo.adId === null) {
      upload ??= photo.id;
      continue;
    }
    if (countsAsElsewhere(photo, await store.memberAds.find(photo.adId), now)) return photo.id;
  }
  return upload;
}

/** Batches of the backfill: photos read and indexed at once. */
const BACKFILL_BATCH = 1000;

/**
 * Puts in the index the photos stored before it existed (run when a server starts; idempotent, so
 * several instances starting at once end as one would). Answers how many were indexed.
 */
export async function indexPhotosStoredBefore(store: Store): Promise<number> {
  let indexed = 0;
  for (;;) {
    const batch = await store.photoHashes.unindexed(BACKFILL_BATCH);
    if (batch.length === 0) return indexed;
    await store.photoHashes.index(batch);
    indexed += batch.length;
  }
}

/** The photo sweep's part: photos a moderator removed longer ago than the window leave the index. */
export function forgetOldRemovals(store: Store, now: Date): Promise<number> {
  return store.photoHashes.forgetRemovedBefore(
    new Date(now.getTime() - DUPLICATE_WINDOW_MS).toISOString(),
  );
}
