// Posting and the member's own ads (docs/product.md section 6): the limits of posting (3 ads in
// review or live at once, 1 new ad a city in 24 hours), edits (a live ad's waits for a moderator;
// an expired ad is renewed first), deletion and renewal, with the refusals the member reads.
//
// Each is one unit of work holding the member's lock (`account:{id}`), which a ban holds too
// (server/moderation/accounts.ts): posting counts before it inserts, so two posts racing on two
// instances are taken one after the other and the second counts the first. A change of an ad
// holds the ad's lock (`ad:{id}`) next, as the moderators' actions do (server/moderation/ads.ts),
// so the revision it read is the one it changes. Locks are taken account first, then ad.
//
// A refusal is thrown from inside the unit of work, which rolls it back: nothing is written before
// any step that may say no, so there is nothing to keep (unlike a message's refusals, which the
// sender's record keeps: server/messages/).
import { addDays, utcDay } from '../../core/days.ts';
import {
  AD_LIVE_DAYS,
  CITY_WINDOW_HOURS,
  MAX_ACTIVE_ADS,
  RENEW_AFTER_DAYS,
  RENEW_BEFORE_DAYS,
} from '../../core/schemas/ad-limits.ts';
import { renewBeforeEditing } from '../../core/schemas/member-ad-view.ts';
import type { AdPhotoRef } from '../../core/schemas/photos.ts';
import { Refusal } from '../../core/refusal.ts';
import type { AdContent, MemberAdRow, NewMemberAd } from '../../store/parts/member-ads.ts';
import type { Store } from '../../store/store.ts';
import { canRenew, expiryFrom, isExpired, isLive } from './lifetime.ts';

export const NOT_VERIFIED =
  'Verify your email address before posting: open the link we emailed you, or ask for a new one on your account page.';
export const AD_NOT_FOUND = "We couldn't find that ad among yours.";
export const ACTIVE_LIMIT = `You already have ${MAX_ACTIVE_ADS} ads in review or live, the most one member can have at once. Delete one, or wait until one expires, to post another.`;
export const BANNED = 'This account cannot post ads.';
export const NOT_EDITABLE = 'A moderator removed this ad, so it can no longer be edited.';
export const PHOTOS_GONE =
  'One of your photos is no longer available (removed meanwhile). Choose your photos again.';

const HOUR_MS = 3_600_000;

const cityLimit = (city: string, nextAt: string) =>
  `You posted an ad in ${city} in the last ${CITY_WINDOW_HOURS} hours. You can post another ad there from ${nextAt.slice(0, 16).replace('T', ' ')} UTC.`;

/** Any id not the member's ad: the two are never told apart. */
export const adNotFound = () => new Refusal('not-found', AD_NOT_FOUND);

/** A new ad, in review, unless the account is banned or a limit says no. */
export async function postAd(
  store: Store,
  accountId: number,
  ad: NewMemberAd,
  marks: string,
  now: Date,
): Promise<{ id: number }> {
  return store.unitOfWork(async (tx) => {
    await tx.lock(`account:${accountId}`);
    const account = await tx.moderation.account(accountId);
    if (!account || account.bannedAt) throw new Refusal('forbidden', BANNED);
    if ((await tx.memberAds.countInReviewOrLive(accountId, utcDay(now))) >= MAX_ACTIVE_ADS)
      throw new Refusal('conflict', ACTIVE_LIMIT);
    const windowStart = new Date(now.getTime() - CITY_WINDOW_HOURS * HOUR_MS).toISOString();
    const last = await tx.memberAds.lastPostedInCity(accountId, ad, windowStart);
    if (last) {
      const nextAt = new Date(Date.parse(last) + CITY_WINDOW_HOURS * HOUR_MS).toISOString();
      const retryAfter = Math.max(1, Math.ceil((Date.parse(nextAt) - now.getTime()) / 1000));
      throw new Refusal('too-many', cityLimit(ad.city, nextAt), { retryAfter });
    }
    const photos = ad.photos ?? [];
    if (!(await photosUsable(tx, photos, accountId, undefined)))
      throw new Refusal('invalid', PHOTOS_GONE, { field: 'photos' });
    const id = await tx.memberAds.insert(accountId, ad, marks, now.toISOString());
    await attachPhotos(tx, photos, id, accountId);
    return { id };
  });
}

/**
 * Whether every photo of the list is the member's, not removed by a moderator, and on no ad or on
 * this one (the route checked already; under the member's lock nothing else attaches them).
 */
async function photosUsable(
  tx: Store,
  photos: readonly AdPhotoRef[],
  accountId: number,
  adId: number | undefined,
): Promise<boolean> {
  if (photos.length === 0) return true;
  const rows = await tx.photos.findMany(photos.map((photo) => photo.id));
  return (
    rows.length === new Set(photos.map((photo) => photo.id)).size &&
    rows.every(
      (row) =>
        row.accountId === accountId &&
        row.removedAt === null &&
        (row.adId === null || row.adId === adId),
    )
  );
}

async function attachPhotos(
  tx: Store,
  photos: readonly AdPhotoRef[],
  adId: number,
  accountId: number,
): Promise<void> {
  if (photos.length === 0) return;
  const attached = await tx.photos.attach(
    photos.map((photo) => photo.id),
    adId,
    accountId,
  );
  if (attached !== photos.length)
    throw new Error(`ad ${adId}: ${attached} of ${photos.length} photos attached`);
}

/**
 * An expired ad's edit, refused before its fields are even read: renew it first (or post it
 * again, past the renewal window). Nothing for an ad that is not expired.
 */
export function refuseEditIfExpired(ad: MemberAdRow, today: string): void {
  if (!isExpired(ad, today)) return;
  throw new Refusal(
    'conflict',
    renewBeforeEditing({ expiresOn: ad.expiresOn ?? undefined, renewable: canRenew(ad, today) }),
  );
}

/**
 * An edit: a live ad keeps its published columns and carries the edit in pending_* until a
 * moderator approves it; an ad in review or rejected takes the edit and (again) waits in review.
 * Removed ads cannot be edited. An expired ad is renewed first: an edit would wait for a moderator
 * to approve text nobody sees, and approving it would not bring the ad back.
 *
 * Photos (`content.photos`, the whole list as the member wants it; undefined: unchanged): on a
 * live ad, the photos taken away go at once, from the published list and the pending one, while
 * those added, reordered or described anew wait in pending_photos. The photos no list names any
 * more are deleted (their rows here; `deletedKeys`: the bytes to delete once the unit has ended),
 * unless a moderator removed them (the member still sees why). `lostPublished`: a live ad lost a
 * published photo (to publish soon).
 */
export async function editAd(
  store: Store,
  accountId: number,
  adId: number,
  content: AdContent,
  marks: string,
  now: Date,
): Promise<{ ad: MemberAdRow; pending: boolean; deletedKeys: string[]; lostPublished: boolean }> {
  return changeOwnAd(store, accountId, adId, async (tx, ad) => {
    refuseEditIfExpired(ad, utcDay(now));
    const at = now.toISOString();
    if (ad.status !== 'live' && ad.status !== 'review' && ad.status !== 'rejected')
      throw new Refusal('conflict', NOT_EDITABLE);
    const wanted = content.photos;
    if (wanted && !(await photosUsable(tx, wanted, accountId, ad.id)))
      throw new Refusal('invalid', PHOTOS_GONE, { field: 'photos' });
    if (wanted) await attachPhotos(tx, wanted, ad.id, accountId);
    const keep = new Set((wanted ?? [...ad.photos, ...(ad.pendingPhotos ?? [])]).map((p) => p.id));
    const gone = [...ad.photos, ...(ad.pendingPhotos ?? [])]
      .map((photo) => photo.id)
      .filter((id, at, all) => !keep.has(id) && all.indexOf(id) === at);
    const deletedKeys = await deletePhotos(tx, ad.id, gone);
    const text: AdContent = {
      age: content.age,
      seeks: content.seeks,
      title: content.title,
      description: content.description,
    };
    if (ad.status !== 'live')
      return {
        changed: await tx.memberAds.resubmit(ad.id, ad.revision, content, marks, at),
        pending: false,
        deletedKeys,
        lostPublished: false,
      };
    if (!wanted)
      return {
        changed: await tx.memberAds.setPendingEdit(ad.id, ad.revision, text, marks, at),
        pending: true,
        deletedKeys,
        lostPublished: false,
      };
    // Live: what is taken away goes at once; the rest of the change waits for a moderator.
    const published = ad.photos.filter((photo) => keep.has(photo.id));
    const pendingPhotos = samePhotos(wanted, published) ? null : wanted;
    const lostPublished = published.length < ad.photos.length;
    let revision = ad.revision;
    const photosChanged = lostPublished || !samePhotos(pendingPhotos ?? [], ad.pendingPhotos ?? []);
    if (photosChanged) {
      if (!(await tx.memberAds.setPhotos(ad.id, revision, published, pendingPhotos, at)))
        return { changed: false, pending: false, deletedKeys, lostPublished };
      revision += 1;
    }
    // Only photos taken away, the text as it is live: nothing for a moderator to look at.
    if (photosChanged && pendingPhotos === null && ad.pendingTitle === null && sameText(ad, text))
      return { changed: true, pending: false, deletedKeys, lostPublished };
    return {
      changed: await tx.memberAds.setPendingEdit(ad.id, revision, text, marks, at),
      pending: true,
      deletedKeys,
      lostPublished,
    };
  });
}

const samePhotos = (a: readonly AdPhotoRef[], b: readonly AdPhotoRef[]) =>
  a.length === b.length &&
  a.every((photo, at) => photo.id === b[at]!.id && photo.alt === b[at]!.alt);

const sameText = (ad: MemberAdRow, text: AdContent) =>
  ad.age === text.age &&
  ad.seeks === text.seeks &&
  ad.title === text.title &&
  ad.description === text.description;

/**
 * Deletes the ad's photos of `ids` but those a moderator removed (kept so the member reads why);
 * answers the keys of the bytes no photo uses any more.
 */
async function deletePhotos(tx: Store, adId: number, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx.photos.findMany(ids);
  const deletable = rows
    .filter((row) => row.removedAt === null && (row.adId === adId || row.adId === null))
    .map((row) => row.id);
  return tx.photos.delete(deletable);
}

/** Deleted by its member: gone from their list, and from the site at the next publish. */
export function deleteAd(
  store: Store,
  accountId: number,
  adId: number,
  now: Date,
): Promise<{ ad: MemberAdRow; wasLive: boolean }> {
  return changeOwnAd(store, accountId, adId, async (tx, ad) => ({
    changed: await tx.memberAds.markDeleted(ad.id, ad.revision, now.toISOString()),
    wasLive: isLive(ad, utcDay(now)),
  }));
}

/** Live for another AD_LIVE_DAYS from today, within the renewal windows. */
export function renewAd(
  store: Store,
  accountId: number,
  adId: number,
  now: Date,
): Promise<{ ad: MemberAdRow }> {
  const today = utcDay(now);
  return changeOwnAd(store, accountId, adId, async (tx, ad) => {
    if (!canRenew(ad, today)) throw new Refusal('conflict', notRenewable(ad, today));
    const expiresOn = expiryFrom(today);
    return { changed: await tx.memberAds.renew(ad.id, ad.revision, expiresOn, now.toISOString()) };
  });
}

/** Why Renew does not apply to this ad today. */
function notRenewable(ad: MemberAdRow, today: string): string {
  if (ad.status !== 'live' || !ad.expiresOn)
    return `Only a live ad, or one that expired in the last ${RENEW_AFTER_DAYS} days, can be renewed.`;
  if (ad.expiresOn > today)
    return `This ad can be renewed from ${addDays(ad.expiresOn, -RENEW_BEFORE_DAYS)}, ${RENEW_BEFORE_DAYS} days before it expires.`;
  return `This ad expired more than ${RENEW_AFTER_DAYS} days ago and can no longer be renewed. Post it again as a new ad; it stays live for ${AD_LIVE_DAYS} days once approved.`;
}

/**
 * Runs `change` on the member's own ad in one unit of work holding the member's and the ad's
 * locks, and answers the ad as it is after (with what `change` adds); any other id is "not found".
 */
async function changeOwnAd<T extends object>(
  store: Store,
  accountId: number,
  adId: number,
  change: (tx: Store, ad: MemberAdRow) => Promise<T & { changed: boolean }>,
): Promise<{ ad: MemberAdRow } & T> {
  return store.unitOfWork(async (tx) => {
    await tx.lock(`account:${accountId}`);
    await tx.lock(`ad:${adId}`);
    const ad = await tx.memberAds.findOwned(adId, accountId);
    if (!ad) throw adNotFound();
    const outcome = await change(tx, ad);
    const { changed, ...extra } = outcome;
    // Every change of an ad holds its lock: another change in between is a bug of ours.
    if (!changed) throw new Error(`member ad ${adId} changed while its lock was held`);
    return { ...(extra as unknown as T), ad: (await tx.memberAds.find(adId))! };
  });
}
