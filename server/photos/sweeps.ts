// The photos nobody will see again, deleted every hour (docs/product.md section 10; run by
// server/index.ts, and by the tests with a moved clock):
// - uploads on no ad made more than a day ago: kept for a post that was refused or abandoned;
// - the photos of ads rejected or removed more than 30 days ago (the member had that long to see
//   why) once that decision can no longer be reversed: its appeal upheld, or its 6 months over
//   without one (as under 18: a year at least, upheld or not), so that a reversal brings the ad
//   back with its photos; and of deleted ads (a backstop: deleting an ad deletes its photos);
// - the sizes of photos a moderator removed, once the removal can no longer be reversed: its appeal
//   upheld, or its 6 months over without one (a photo removed as under 18: a year at least, upheld
//   or not). Until then they are kept out of public reach, for moderators only, so a reversal
//   brings the photo back as it was;
// - bytes no photo's size names, kept more than a day ago: left by an upload whose row never came
//   (the database went away between), or by a deletion whose bytes could not be deleted then;
// - from the duplicate index, photos a moderator removed more than 30 days ago (photo-duplicates.ts);
// - verification selfies refused more than 30 days ago without an open appeal, and any a reversal
//   left (server/verification/retention.ts).
// Safe with several instances at once: each deletion is of what is still there, and a key's bytes
// go only when no photo's size uses it, so two sweeps end as one would.
import type { Store } from '../../store/store.ts';
import { APPEAL_MONTHS } from '../moderation/statements.ts';
import { deletePhotos, deleteRemovedPhotoSizes } from './ad-photo-lifecycle.ts';
import { forgetOldRemovals } from './photo-duplicates.ts';
import type { PhotoStorage } from '../../store/photo-storage/photo-storage.ts';
import { sweepRefusedSelfies } from '../verification/retention.ts';

const HOUR_MS = 60 * 60 * 1000;
/** An upload on no ad is kept this long (a refused post's form keeps offering it meanwhile). */
export const UPLOAD_KEPT_MS = 24 * HOUR_MS;
/**
 * A rejected or removed ad's photos are kept this long after the decision at least, and longer
 * while it can still be reversed (ofAdsGoneBefore).
 */
export const REJECTED_KEPT_MS = 30 * 24 * HOUR_MS;
/** Bytes no photo names are kept this long (an upload may be between its bytes and its row). */
export const ORPHAN_KEPT_MS = 24 * HOUR_MS;
/**
 * A photo removed as possibly showing someone under 18 is kept at least this long after its
 * removal (never shown to anyone but moderators): the year US law (18 U.S.C. 2258A(h)) asks a
 * provider to preserve what it reports to NCMEC.
 */
export const UNDER_18_PRESERVED_MS = 365 * 24 * HOUR_MS;
/** How often the server sweeps. */
export const SWEEP_EVERY_MS = HOUR_MS;

export interface PhotoSweep {
  /** Uploads on no ad deleted. */
  uploads: number;
  /** Photos of long-rejected ads deleted. */
  ofRejectedAds: number;
  /** Removed photos whose kept sizes were deleted. */
  removedKept: number;
  /** Keys whose bytes no photo named, deleted. */
  orphanBlobs: number;
  /** Photos removed long ago taken out of the duplicate index. */
  unindexed: number;
  /** Verification selfies whose keeping ended, deleted. */
  selfies: number;
}

const before = (now: Date, ms: number) => new Date(now.getTime() - ms).toISOString();
const monthsBefore = (now: Date, months: number) => {
  const date = new Date(now);
  date.setUTCMonth(date.getUTCMonth() - months);
  return date.toISOString();
};

export async function sweepPhotos(
  store: Store,
  storage: PhotoStorage,
  now: Date,
): Promise<PhotoSweep> {
  const uploads = await deletePhotos(
    store,
    storage,
    await store.photos.uploadsBefore(before(now, UPLOAD_KEPT_MS)),
    (photo) => photo.adId === null,
  );
  const removedKept = await deleteRemovedPhotoSizes(
    store,
    storage,
    await store.photos.removedPastKeeping(
      now.toISOString(),
      monthsBefore(now, APPEAL_MONTHS),
      before(now, UNDER_18_PRESERVED_MS),
    ),
  );
  const ofRejectedAds = await deletePhotos(
    store,
    storage,
    await store.photos.ofAdsGoneBefore(before(now, REJECTED_KEPT_MS), {
      now: now.toISOString(),
      preservedBefore: before(now, UNDER_18_PRESERVED_MS),
    }),
  );
  // Before the orphans: a selfie's row forgets its key, then its bytes go.
  const selfies = await sweepRefusedSelfies(store, { storage }, now);
  // Bytes no photo names (in the database, or files of the PHOTOS_DIR folder).
  const orphanBlobs = await storage.deleteOrphans(new Date(now.getTime() - ORPHAN_KEPT_MS));
  const unindexed = await forgetOldRemovals(store, now);
  return { uploads, ofRejectedAds, removedKept, orphanBlobs, unindexed, selfies };
}

/** One line for the server's log, or undefined when there was nothing to delete. */
export function describeSweep(sweep: PhotoSweep): string | undefined {
  const parts = [
    sweep.uploads > 0 ? `${sweep.uploads} abandoned upload${sweep.uploads === 1 ? '' : 's'}` : '',
    sweep.ofRejectedAds > 0
      ? `${sweep.ofRejectedAds} photo${sweep.ofRejectedAds === 1 ? '' : 's'} of rejected, removed or deleted ads`
      : '',
    sweep.removedKept > 0
      ? `the kept sizes of ${sweep.removedKept} removed photo${sweep.removedKept === 1 ? '' : 's'}`
      : '',
    sweep.orphanBlobs > 0
      ? `${sweep.orphanBlobs} unused photo file${sweep.orphanBlobs === 1 ? '' : 's'}`
      : '',
    sweep.unindexed > 0
      ? `${sweep.unindexed} long-removed photo${sweep.unindexed === 1 ? '' : 's'} from the duplicate index`
      : '',
    sweep.selfies > 0
      ? `${sweep.selfies} verification selfie${sweep.selfies === 1 ? '' : 's'} past keeping`
      : '',
  ].filter(Boolean);
  return parts.length > 0 ? `Deleted ${parts.join(', ')}.` : undefined;
}
