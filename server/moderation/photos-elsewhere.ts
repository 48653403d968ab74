// The queue's flag of a photo also on another member's ad (docs/product.md section 10):
// for each photo of an ad in the queue that matched another member's photo when it was uploaded
// (photos.duplicate_of, server/photos/photo-duplicates.ts), that photo and its ad as they are now:
// shown only while the other photo is still there, still another member's, still alike, and its
// ad still counts (live, in review, or rejected or removed within the window). Both photos are
// shown side by side at the moderator-only URL of photos in review.
import type { PhotoElsewhereView, QueueItem, QueuePhoto } from '../../core/views/moderation.ts';
import {
  adPath,
  blurredPhotoApiPath,
  moderatePath,
  moderationLogPath,
  photoSizeApiPath,
} from '../../core/paths.ts';
import { countsAsElsewhere, DUPLICATE_BITS } from '../photos/photo-duplicates.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import { hammingDistance } from '../../store/parts/photo-hash-index.ts';
import type { PhotoRow } from '../../store/parts/photos.ts';
import type { Store } from '../../store/store.ts';

/** The queue's items, each with its photos also on another member's ad (if any). */
export async function withPhotosElsewhere(
  store: Store,
  items: readonly QueueItem[],
  photoRows: ReadonlyMap<number, PhotoRow>,
  now: Date,
): Promise<QueueItem[]> {
  const otherIds = [...photoRows.values()].flatMap((photo) =>
    photo.duplicateOf === null ? [] : [photo.duplicateOf],
  );
  if (otherIds.length === 0) return [...items];
  const others = new Map(
    (await store.photos.findMany(otherIds)).map((photo) => [photo.id, photo] as const),
  );
  const adIds = [...new Set([...others.values()].flatMap((photo) => photo.adId ?? []))];
  const ads = new Map(
    await Promise.all(adIds.map(async (id) => [id, await store.memberAds.find(id)] as const)),
  );
  return items.map((item) => {
    const found = item.photos.flatMap((shown) => {
      const photo = photoRows.get(shown.id);
      const other = photo?.duplicateOf == null ? undefined : others.get(photo.duplicateOf);
      if (!photo || !other || other.accountId === photo.accountId) return [];
      if (hammingDistance(photo.phash, other.phash) > DUPLICATE_BITS) return [];
      const ad = other.adId === null ? undefined : ads.get(other.adId);
      return countsAsElsewhere(other, ad, now) ? [elsewhereView(shown, other, ad)] : [];
    });
    return found.length > 0 ? { ...item, photosElsewhere: found } : item;
  });
}

function elsewhereView(shown: QueuePhoto, other: PhotoRow, ad: MemberAdRow): PhotoElsewhereView {
  const largest = other.removedAt === null ? other.variants.at(-1) : undefined;
  return {
    photo: {
      id: shown.id,
      position: shown.position,
      alt: shown.alt,
      width: shown.width,
      height: shown.height,
      src: shown.src,
      srcSet: shown.srcSet,
      blurred: shown.blurred,
    },
    otherAdId: ad.id,
    otherPostedOn: (ad.postedOn ?? ad.submittedAt).slice(0, 10),
    otherStanding: standingOf(ad, other),
    otherLink: linkTo(ad),
    // The same picture: kept out of sight while this ad's photo is (likely explicit, or the
    // moderator's "Show all photos blurred"), shown once the moderator shows that one.
    otherPhoto: largest
      ? {
          id: other.id,
          width: largest.width,
          height: largest.height,
          src: shown.blurred
            ? blurredPhotoApiPath(other.id)
            : photoSizeApiPath(other.id, largest.width),
          srcSet: shown.blurred
            ? ''
            : other.variants
                .map((variant) => `${photoSizeApiPath(other.id, variant.width)} ${variant.width}w`)
                .join(', '),
        }
      : null,
  };
}

function standingOf(ad: MemberAdRow, photo: PhotoRow): string {
  const day = (iso: string) => iso.slice(0, 10);
  const photoNote =
    photo.removedAt === null ? '' : `; a moderator removed this photo on ${day(photo.removedAt)}`;
  const standing =
    ad.status === 'live'
      ? 'live on the site'
      : ad.status === 'review'
        ? 'waiting in this queue'
        : `${ad.status} on ${day(ad.updatedAt)}`;
  return standing + photoNote;
}

function linkTo(ad: MemberAdRow): PhotoElsewhereView['otherLink'] {
  if (ad.status === 'live')
    return { href: adPath(ad.state, ad.city, ad.id), text: `Ad ${ad.id} on the site` };
  if (ad.status === 'review')
    return { href: `${moderatePath()}#ad-${ad.id}`, text: `Ad ${ad.id} in this queue` };
  return { href: moderationLogPath(), text: `The moderation log (ad ${ad.id})` };
}
