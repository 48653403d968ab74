// A member_ads row as its member sees it on their account pages (core/schemas/member-ad-view.ts).
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import type { MemberAdView } from '../../core/schemas/member-ad-view.ts';
import { MODERATION_REASONS } from '../../core/schemas/moderation-reasons.ts';
import type { Seeks } from '../../core/schemas/seeks.ts';
import type { FormPhoto } from '../../core/schemas/ad-form.ts';
import { adTextOf, type MemberAdText } from '../../store/parts/ad-text.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import type { PhotoRow } from '../../store/parts/photos.ts';
import { formPhotoOf } from './ad-photos.ts';
import { canRenew, isExpired } from './lifetime.ts';

/** The moderator's reason as the member reads it (the forms post a code). */
export const reasonLabel = (reason: string) =>
  (MODERATION_REASONS as Record<string, string>)[reason] ?? reason;

/**
 * The ad's photos as its member edits them: a live ad's waiting list when it has one (those not
 * yet published marked pending), else its list; then those a moderator removed, with the reason.
 */
export function memberAdPhotos(ad: MemberAdRow, rows: readonly PhotoRow[]): FormPhoto[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const published = new Set(ad.photos.map((photo) => photo.id));
  const list = ad.status === 'live' && ad.pendingPhotos ? ad.pendingPhotos : ad.photos;
  const shown = list.flatMap((photo) => {
    const row = byId.get(photo.id);
    if (!row || row.removedAt !== null) return [];
    return [
      formPhotoOf(row, photo.alt, { pending: ad.status === 'live' && !published.has(row.id) }),
    ];
  });
  const removed = rows
    .filter((row) => row.adId === ad.id && row.removedAt !== null)
    .map((row) =>
      formPhotoOf(row, '', { removedReason: reasonLabel(row.removedReason ?? 'other') }),
    );
  return [...shown, ...removed];
}

export function memberAdView(
  ad: MemberAdRow,
  today: string,
  photoRows: readonly PhotoRow[] = [],
): MemberAdView {
  const status = isExpired(ad, today)
    ? 'expired'
    : ad.status === 'deleted'
      ? 'removed'
      : ad.status === 'live' && ad.hidden
        ? 'hidden'
        : ad.status;
  const hasPending =
    ad.status === 'live' &&
    ad.pendingTitle !== null &&
    ad.pendingDescription !== null &&
    ad.pendingAge !== null &&
    ad.pendingSeeks !== null;
  return {
    ...adTextOf(ad),
    status,
    createdAt: ad.createdAt,
    ...(ad.status === 'live' && ad.expiresOn ? { expiresOn: ad.expiresOn } : {}),
    ...(hasPending
      ? {
          pending: {
            age: ad.pendingAge!,
            seeks: ad.pendingSeeks!,
            title: ad.pendingTitle!,
            description: ad.pendingDescription!,
          },
        }
      : {}),
    ...(ad.rejectedReason ? { rejectedReason: reasonLabel(ad.rejectedReason) } : {}),
    ...(ad.rejectedNote ? { rejectedNote: ad.rejectedNote } : {}),
    photos: memberAdPhotos(ad, photoRows),
    renewable: canRenew(ad, today),
    // An expired ad is renewed before it is edited (server/posting/member-ads.ts, editAd).
    editable:
      status !== 'expired' &&
      (ad.status === 'live' || ad.status === 'review' || ad.status === 'rejected'),
  };
}

/**
 * A member's ad in the shape the site's ad components show (src/components/AdDetail.tsx): for the
 * moderation queue, the reports page and the reply screen. No images, never featured or a sample.
 */
export function memberAdAsCompiled(
  ad: MemberAdText,
  days: { postedAt: string; expiresAt: string },
): CompiledAd {
  return {
    id: ad.id,
    state: ad.state,
    city: ad.city,
    age: ad.age,
    seeks: ad.seeks as Seeks,
    title: ad.title,
    description: ad.description,
    images: [],
    featured: false,
    ...days,
    sample: false,
  };
}
