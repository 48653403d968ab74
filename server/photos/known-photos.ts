// Photos moderators removed, known again (docs/product.md section 10). Every photo a moderator
// removes, and every photo of an ad removed as "under 18" or "someone else's photos", leaves its
// perceptual hash in blocked_photos (the moderation code adds it). A new upload whose hash is
// within SIMILAR_BITS of one is refused when that one went for one of those two reasons (the same
// picture re-encoded, resized or slightly cropped still matches), and otherwise marked for the
// moderator who reviews the ad (`flag`), who decides.
import {
  MODERATION_REASONS,
  type ModerationReason,
} from '../../core/schemas/moderation-reasons.ts';
import type { BlockedPhoto } from '../../store/parts/photos.ts';
import { hammingDistance } from '../../store/parts/photo-hash-index.ts';
import type { Store } from '../../store/store.ts';

export { hammingDistance };

/** Of the hash's 64 bits, at most this many differ between a photo and a copy of it. */
export const SIMILAR_BITS = 10;

/** Removal reasons that block a photo like it outright. */
export const BLOCKING_REASONS: readonly ModerationReason[] = ['under-18', 'identity'];

export const KNOWN_PHOTO_REFUSED =
  "This photo can't be used: a moderator removed a photo like it from Localboard. Choose another photo.";

export interface KnownPhotoCheck {
  /** Refused: the message beside the field. */
  refused?: string;
  /** Accepted, but the moderator should look: why. */
  flag?: string;
}

/** The nearest removed photo like `phash`, if any, by the blocking reasons first. */
export function closestBlocked(
  phash: string,
  blocked: readonly BlockedPhoto[],
): BlockedPhoto | undefined {
  let found: BlockedPhoto | undefined;
  for (const entry of blocked) {
    if (hammingDistance(phash, entry.phash) > SIMILAR_BITS) continue;
    if (BLOCKING_REASONS.includes(entry.reason as ModerationReason)) return entry;
    found ??= entry;
  }
  return found;
}

export async function checkKnownPhoto(
  store: Pick<Store, 'photos'>,
  phash: string,
): Promise<KnownPhotoCheck> {
  const match = closestBlocked(phash, await store.photos.blocked());
  if (!match) return {};
  if (BLOCKING_REASONS.includes(match.reason as ModerationReason))
    return { refused: KNOWN_PHOTO_REFUSED };
  const label = (MODERATION_REASONS as Record<string, string>)[match.reason] ?? match.reason;
  return {
    flag: `Looks like a photo removed on ${match.blockedAt.slice(0, 10)} (${label}).`,
  };
}
