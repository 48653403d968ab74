// What a photo's explicit score does in the moderation queue, and the moderator's shield from what
// they review (docs/product.md section 6): a photo likely explicit (isLikelyExplicit at
// the app's threshold) is blurred until this moderator chooses to see it, and labelled with its
// score; a photo never scored says so; a moderator's own "Show all photos blurred" blurs every
// photo until revealed one by one. The choices are the moderator's own, kept in the store
// (store.moderatorPhotos), so they outlive the page, its forms and its redirects.
import { isLikelyExplicit } from '../../core/schemas/photos.ts';
import type { QueuePhoto } from '../../core/views/moderation.ts';
import type { PhotoRow } from '../../store/parts/photos.ts';
import type { Store } from '../../store/store.ts';
import { photoSizeApiPath } from '../../core/paths.ts';
import { Refusal } from '../../core/refusal.ts';
import { noSuchPhoto } from './photos.ts';
import type { NamedId } from './named-id.ts';

/** A photo never scored (stored before scoring existed, or its scoring failed). */
export const NOT_SCORED = 'Not scored';

/** A score as the moderator reads it: two decimals, or the first digits that are not 0 below 0.01. */
export function shownScore(score: number): string {
  if (score >= 0.01 || score === 0) return score.toFixed(2);
  return score.toFixed(4).replace(/0+$/, '');
}

/** The label of a photo likely explicit: "Likely explicit (score 0.87)". */
export const likelyExplicitLabel = (score: number) =>
  `Likely explicit (score ${shownScore(score)})`;

/** What the queue needs to know of one moderator's shield. */
export interface PhotoShield {
  blurAll: boolean;
  /** Of the photo's shield: whether it is blurred now, and the label the moderator reads. */
  of(photo: PhotoRow): Pick<QueuePhoto, 'blurred' | 'likelyExplicit' | 'scoreLabel'>;
}

/** The shield of `moderatorId` over `photos` (the ones a page shows), at `threshold`. */
export async function photoShieldOf(
  store: Store,
  moderatorId: number,
  threshold: number,
  photos: readonly PhotoRow[],
): Promise<PhotoShield> {
  const [blurAll, revealed] = await Promise.all([
    store.moderatorPhotos.blurAll(moderatorId),
    store.moderatorPhotos.revealed(
      moderatorId,
      photos.map((photo) => photo.id),
    ),
  ]);
  return {
    blurAll,
    of(photo) {
      const explicit = photo.score?.explicit;
      const likely = isLikelyExplicit(explicit, threshold);
      const scoreLabel =
        explicit == null ? NOT_SCORED : likely ? likelyExplicitLabel(explicit) : null;
      return {
        blurred: (likely || blurAll) && !revealed.has(photo.id),
        likelyExplicit: likely,
        scoreLabel,
      };
    },
  };
}

/** The photo's sizes as the page shows it once seen (the reveal's answer, for the script). */
export type RevealedPhoto = {
  photoId: number;
  src: string;
  srcSet: string;
};

/**
 * The moderator chose to see photo `photo`: from now on it is not blurred for them. A removed or
 * unknown photo is refused as unknown.
 */
export async function revealPhoto(
  store: Store,
  moderatorId: number,
  photo: NamedId,
  at: Date,
): Promise<RevealedPhoto> {
  const row = await store.photos.find(photo.id);
  const largest = row?.variants.at(-1);
  if (!row || row.removedAt !== null || !largest) throw noSuchPhoto(photo.raw);
  await store.moderatorPhotos.reveal(moderatorId, row.id, at.toISOString());
  return {
    photoId: row.id,
    src: photoSizeApiPath(row.id, largest.width),
    srcSet: row.variants
      .map((variant) => `${photoSizeApiPath(row.id, variant.width)} ${variant.width}w`)
      .join(', '),
  };
}

/** The notice after the setting's form post. */
export const blurAllNotice = (on: boolean) =>
  on
    ? 'Every photo is now shown blurred until you choose to see it.'
    : 'Photos are now shown as they are, except those likely explicit.';

/** The moderator's "Show all photos blurred", as their form sent it; whether it is on now. */
export async function chooseBlurAll(
  store: Store,
  moderatorId: number,
  fields: Record<string, unknown>,
  at: Date,
): Promise<boolean> {
  const on = blurAllFrom(fields);
  await store.moderatorPhotos.setBlurAll(moderatorId, on, at.toISOString());
  return on;
}

/** The setting's field, as a form or a script sends it: "on" (a checked box, true) or not. */
function blurAllFrom(fields: Record<string, unknown>): boolean {
  const value = fields.blurAll;
  if (value === true || value === 'on' || value === 'true') return true;
  if (
    value === undefined ||
    value === false ||
    value === '' ||
    value === 'off' ||
    value === 'false'
  )
    return false;
  throw new Refusal('invalid', 'The setting "Show all photos blurred" is on or off.');
}
