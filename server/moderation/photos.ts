// Moderators and the photos of members' ads (docs/product.md section 10): one photo removed with a
// reason the member sees (its perceptual hash blocked, the ad's lists without it, its sizes kept
// for moderators' eyes only while the removal can be appealed: the sweeps delete them after,
// server/photos/sweeps.ts), and put back when an appeal reverses the removal; the photos of an ad
// removed for a blocking reason blocked with it, and the photos a decision leaves on no list
// deleted. A removal holds the member's lock, then the ad's (`account:{id}` → `ad:{id}`), as the
// member's own changes do. The storage's bytes of deleted sizes are the caller's to delete once
// the unit of work is over (`unusedKeys`): a key is only deleted after no row names it.
import {
  MODERATION_REASONS,
  type ModerationReason,
} from '../../core/schemas/moderation-reasons.ts';
import { MAX_PHOTOS, type AdPhotoRef } from '../../core/schemas/photos.ts';
import { Refusal } from '../../core/refusal.ts';
import { BLOCKING_REASONS } from '../photos/known-photos.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import type { Moderator } from '../../store/parts/moderation-log.ts';
import type { Why } from '../../store/parts/moderation.ts';
import type { Store } from '../../store/store.ts';
import { shownId } from './named-id.ts';
import { OWN_REVIEW, recordPhotoStatement } from './statements.ts';

/** The reason's key (what photos and blocked_photos store) of a label (what Why carries). */
export function reasonKeyOf(label: string): ModerationReason | undefined {
  const entry = Object.entries(MODERATION_REASONS).find(([, each]) => each === label);
  return entry?.[0] as ModerationReason | undefined;
}

/** The label of a stored reason key (what the member is shown); an unknown key as it is. */
export const reasonLabelOf = (key: string): string =>
  (MODERATION_REASONS as Record<string, string>)[key] ?? key;

/** Whether removing an ad for `why` blocks every photo of it. */
export const blocksPhotos = (why: Why) => {
  const key = reasonKeyOf(why.reason);
  return key !== undefined && BLOCKING_REASONS.includes(key);
};

/**
 * Blocks the hashes of the ad's photos (those not removed already: their hashes are blocked) when
 * `why` is a blocking reason; how many.
 */
export async function blockPhotosOfAd(
  tx: Store,
  adId: number,
  why: Why,
  at: string,
  only?: readonly number[],
): Promise<number> {
  const reason = reasonKeyOf(why.reason);
  if (!reason || !BLOCKING_REASONS.includes(reason)) return 0;
  const photos = (await tx.photos.listForAd(adId)).filter(
    (photo) => photo.removedAt === null && (!only || only.includes(photo.id)),
  );
  for (const photo of photos)
    await tx.photos.block({ phash: photo.phash, reason, photoId: photo.id, adId, blockedAt: at });
  return photos.length;
}

const idsOf = (list: readonly AdPhotoRef[] | null) => (list ?? []).map((ref) => ref.id);

/** Photos of `from` that are not in `kept`. */
export const photosLeaving = (from: readonly AdPhotoRef[] | null, kept: readonly AdPhotoRef[]) => {
  const keptIds = new Set(idsOf(kept));
  return idsOf(from).filter((id) => !keptIds.has(id));
};

/** Photos only a live ad's pending edit had (it is going): deleted; their sizes' unused keys. */
export function deletePendingOnlyPhotos(tx: Store, ad: MemberAdRow): Promise<string[]> {
  return tx.photos.delete(photosLeaving(ad.pendingPhotos, ad.photos));
}

export type PhotoRemovalResult =
  | {
      kind: 'done';
      /** The ad it was on, as it is now (undefined: an upload on no ad). */
      ad?: MemberAdRow;
      statementId: number;
    }
  | { kind: 'unknown' }
  | { kind: 'own' }
  | { kind: 'conflict'; message: string };

export const OWN_PHOTO = 'This is a photo of your own: another moderator must review it.';

export const noSuchPhoto = (raw: string | undefined) =>
  new Refusal('not-found', `There is no photo ${shownId(raw)}.`);

export function photoRemovalRefusal(
  result: Exclude<PhotoRemovalResult, { kind: 'done' }>,
  rawId: string | undefined,
): Refusal {
  if (result.kind === 'unknown') return noSuchPhoto(rawId);
  if (result.kind === 'own') return new Refusal('forbidden', OWN_PHOTO);
  return new Refusal('conflict', result.message);
}

/** `2026-11-24 01:15` of an ISO time. */
const minuteOf = (at: string) => at.slice(0, 16).replace('T', ' ');

/**
 * A moderator removes one photo: marked removed with the reason (its key) and note the member is
 * shown, taken off the ad's photos and its pending edit's (its places in them kept in the
 * statement, for a reversal), its hash blocked, and a row in the moderation log. Its sizes stay,
 * out of public reach, while the removal can be appealed.
 */
export function removePhoto(
  store: Store,
  moderator: Moderator,
  photoId: number,
  reason: ModerationReason,
  note: string | undefined,
  now: Date,
): Promise<PhotoRemovalResult> {
  return store.unitOfWork(async (tx): Promise<PhotoRemovalResult> => {
    const seen = await tx.photos.find(photoId);
    if (!seen) return { kind: 'unknown' };
    if (seen.accountId === moderator.accountId) return { kind: 'own' };
    // Whose photo it is never changes; which ad it is on is read again under the locks.
    await tx.lock(`account:${seen.accountId}`);
    if (seen.adId !== null) await tx.lock(`ad:${seen.adId}`);
    const photo = await tx.photos.find(photoId);
    if (!photo) return { kind: 'unknown' };
    if (photo.removedAt !== null)
      return {
        kind: 'conflict',
        message: `This photo was already removed (${minuteOf(photo.removedAt)} UTC, ${reasonLabelOf(photo.removedReason ?? '')}). Nothing was changed.`,
      };
    if (photo.adId !== seen.adId)
      return {
        kind: 'conflict',
        message: 'This photo changed since you opened the queue. Look at it again below.',
      };
    const at = now.toISOString();
    await tx.photos.markRemoved(photoId, {
      reason,
      note: note ?? null,
      moderatorId: moderator.accountId,
      at,
    });
    let ad = photo.adId === null ? undefined : await tx.memberAds.find(photo.adId);
    const alt = [...(ad?.photos ?? []), ...(ad?.pendingPhotos ?? [])].find(
      (ref) => ref.id === photoId,
    )?.alt;
    const places = placesOf(ad, photoId);
    if (ad) {
      const without = (list: AdPhotoRef[]) => list.filter((ref) => ref.id !== photoId);
      const onLists =
        ad.photos.some((ref) => ref.id === photoId) ||
        (ad.pendingPhotos ?? []).some((ref) => ref.id === photoId);
      if (onLists) {
        const pending = ad.pendingPhotos === null ? null : without(ad.pendingPhotos);
        if (!(await tx.memberAds.setPhotos(ad.id, ad.revision, without(ad.photos), pending, at)))
          throw new Error(`ad ${ad.id} changed under its lock`);
        ad = await tx.memberAds.find(ad.id);
      }
    }
    await tx.photos.block({
      phash: photo.phash,
      reason,
      photoId,
      adId: photo.adId,
      blockedAt: at,
    });
    const account = ad ? { email: ad.accountEmail } : await tx.moderation.account(photo.accountId);
    const logId = await tx.moderationLog.append({
      at,
      by: moderator,
      action: 'remove-photo',
      adId: photo.adId,
      accountId: photo.accountId,
      accountEmail: account?.email ?? null,
      reason: reasonLabelOf(reason),
      note: [`Photo ${photoId}.`, note].filter(Boolean).join(' '),
    });
    const statementId = await recordPhotoStatement(
      tx,
      { ...photo, alt: alt ?? '', ...places },
      {
        logId,
        moderator,
        why: { reason: reasonLabelOf(reason), ...(note ? { note } : {}) },
        at,
        source: OWN_REVIEW,
      },
    );
    return { kind: 'done', ...(ad ? { ad } : {}), statementId };
  });
}

/** Where a photo is in the ad's lists: its index in the live photos and in the pending edit's. */
function placesOf(ad: MemberAdRow | undefined, photoId: number) {
  const at = ad?.photos.findIndex((ref) => ref.id === photoId) ?? -1;
  const pendingAt = ad?.pendingPhotos?.findIndex((ref) => ref.id === photoId) ?? -1;
  return { ...(at >= 0 ? { at } : {}), ...(pendingAt >= 0 ? { pendingAt } : {}) };
}

/** `list` with `ref` at `index` (at the end when the list is shorter), unless it is there or full. */
function putBack(list: readonly AdPhotoRef[], ref: AdPhotoRef, index: number): AdPhotoRef[] {
  if (list.some((each) => each.id === ref.id) || list.length >= MAX_PHOTOS) return [...list];
  const copy = [...list];
  copy.splice(Math.min(index, copy.length), 0, ref);
  return copy;
}

/**
 * A removal reversed on appeal (appeals.ts, in its unit of work): the photo is the member's again,
 * its hash no longer blocked, and back on its ad where it was (its place in the live photos, and
 * in a pending edit's, which would otherwise drop it when approved). Answers whether the live ad
 * shows it again (then the site is to be published). A photo whose sizes are gone, or an ad full
 * meanwhile (6 photos), leaves the photo off the lists: the member can add it again.
 */
export async function restoreRemovedPhoto(
  tx: Store,
  place: { photoId: number; accountId: number; at?: number; pendingAt?: number; alt: string },
  now: Date,
): Promise<boolean> {
  await tx.lock(`account:${place.accountId}`);
  const seen = await tx.photos.find(place.photoId);
  if (!seen || seen.removedAt === null) return false;
  if (seen.adId !== null) await tx.lock(`ad:${seen.adId}`);
  await tx.photos.unmarkRemoved(seen.id);
  await tx.photos.unblock(seen);
  // Back among the photos other members' uploads are compared with (the sweep may have taken it
  // out of the duplicate index 30 days after its removal).
  await tx.photoHashes.index([{ id: seen.id, accountId: place.accountId, phash: seen.phash }]);
  const ad = seen.adId === null ? undefined : await tx.memberAds.find(seen.adId);
  if (!ad || ad.status === 'deleted' || seen.variants.length === 0) return false;
  const ref: AdPhotoRef = { id: seen.id, alt: place.alt };
  const wasLive = place.at !== undefined;
  const photos = wasLive ? putBack(ad.photos, ref, place.at!) : ad.photos;
  const pending =
    ad.pendingPhotos === null
      ? null
      : putBack(ad.pendingPhotos, ref, place.pendingAt ?? place.at ?? ad.pendingPhotos.length);
  if (!(await tx.memberAds.setPhotos(ad.id, ad.revision, photos, pending, now.toISOString())))
    throw new Error(`ad ${ad.id} changed under its lock`);
  return ad.status === 'live' && photos.some((each) => each.id === seen.id);
}
