// A moderator's decisions on an ad (docs/product.md section 6): approve (a new ad goes live for
// AD_LIVE_DAYS; an edit replaces the live text), reject (an edit's rejection leaves the live ad
// as it was), remove a live ad; and the refusals. Each is one unit of work holding the ad's lock
// (`ad:{id}`), as the member's own changes do, at the revision the moderator saw: of two
// moderators acting on one ad at once, on one instance or two, exactly one changes it and writes
// its log row and statement of reasons (statements.ts); the other is told who handled it.
import { utcDay } from '../../core/days.ts';
import { Refusal } from '../../core/refusal.ts';
import { expiryFrom } from '../posting/lifetime.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import type { Moderator } from '../../store/parts/moderation-log.ts';
import type { Why } from '../../store/parts/moderation.ts';
import type { Store } from '../../store/store.ts';
import { alreadyHandled } from './log.ts';
import { isFraud, recordFraudNotices } from './fraud-notices.ts';
import { blockPhotosOfAd, deletePendingOnlyPhotos, photosLeaving } from './photos.ts';
import { isAwaitingReview } from './review.ts';
import { shownId } from './named-id.ts';
import { OWN_REVIEW, recordAdStatement, type DecisionSource } from './statements.ts';

export type { Moderator, Why };

/** Why an action on an ad changed nothing. */
export type AdConflict =
  { kind: 'unknown' } | { kind: 'own' } | { kind: 'conflict'; message: string };

export type AdDecision<T> = ({ kind: 'done' } & T) | AdConflict;

/**
 * What a decision leaves for after its unit of work: the keys of photo sizes it deleted, whose
 * bytes the photo storage is to delete (store/photo-storage/photo-storage.ts).
 */
export interface PhotoBytesToDelete {
  unusedKeys: string[];
}

export const OWN_AD = 'This is your own ad: another moderator must review it.';

export const noSuchAd = (raw: string | undefined) =>
  new Refusal('not-found', `There is no member ad ${shownId(raw)}.`);

/** The refusal of an action on an ad (`rawId` as the request named it). */
export function adConflictRefusal(conflict: AdConflict, rawId: string | undefined): Refusal {
  if (conflict.kind === 'unknown') return noSuchAd(rawId);
  if (conflict.kind === 'own') return new Refusal('forbidden', OWN_AD);
  return new Refusal('conflict', conflict.message);
}

/**
 * Why an ad the moderator saw can no longer be acted on, when the ad itself tells; undefined when
 * only the log can (someone decided on it first).
 */
export function changedAdMessage(ad: MemberAdRow): string | undefined {
  if (ad.status === 'deleted') return 'The member deleted this ad: there is nothing to do.';
  // Still waiting, at another revision: the member changed it since (any decision in the log was
  // about an earlier version).
  if (isAwaitingReview(ad))
    return `Ad ${ad.id} changed since you opened the queue (the member edited it). Look at it again below.`;
  return undefined;
}

/** The conflict of an ad the moderator can no longer act on; `last`: its last log row. */
export const adConflictOf = (
  ad: MemberAdRow,
  last: Parameters<typeof alreadyHandled>[0] | undefined,
): AdConflict => ({
  kind: 'conflict',
  message:
    changedAdMessage(ad) ??
    (last ? alreadyHandled(last) : `Ad ${ad.id} is not waiting for review.`),
});

async function conflictOf(tx: Store, ad: MemberAdRow): Promise<AdConflict> {
  return adConflictOf(
    ad,
    changedAdMessage(ad) === undefined ? await tx.moderationLog.lastForAd(ad.id) : undefined,
  );
}

/**
 * Runs `decide` on the ad in one unit of work holding its lock, if the moderator may act on it
 * at the revision they saw (`acts` says in which state).
 */
function decideOn<T extends object>(
  store: Store,
  moderator: Moderator,
  adId: number,
  revision: number,
  acts: (ad: MemberAdRow) => boolean,
  decide: (tx: Store, ad: MemberAdRow) => Promise<T | undefined>,
): Promise<AdDecision<T & { ad: MemberAdRow }>> {
  return store.unitOfWork(async (tx) => {
    await tx.lock(`ad:${adId}`);
    const ad = await tx.memberAds.find(adId);
    if (!ad) return { kind: 'unknown' };
    if (ad.accountId === moderator.accountId) return { kind: 'own' };
    if (ad.revision !== revision || !acts(ad)) return conflictOf(tx, ad);
    const done = await decide(tx, ad);
    if (!done) return conflictOf(tx, ad);
    return { kind: 'done', ...done, ad: (await tx.memberAds.find(adId))! };
  });
}

/** Approves a new ad (live from today) or a live ad's pending edit. */
export function approveAd(
  store: Store,
  moderator: Moderator,
  adId: number,
  revision: number,
  now: Date,
): Promise<AdDecision<{ ad: MemberAdRow; edit: boolean } & PhotoBytesToDelete>> {
  return decideOn(store, moderator, adId, revision, isAwaitingReview, async (tx, ad) => {
    const at = now.toISOString();
    const today = utcDay(now);
    const edit = ad.status === 'live';
    const changed = edit
      ? await tx.moderation.approveEdit(adId, revision, at)
      : await tx.moderation.approveNew(adId, revision, at, {
          postedOn: today,
          expiresOn: expiryFrom(today),
        });
    if (!changed) return undefined;
    await tx.moderationLog.append({
      at,
      by: moderator,
      action: edit ? 'approve-edit' : 'approve',
      adId,
      accountId: ad.accountId,
      accountEmail: ad.accountEmail,
    });
    // The live photos the approved edit no longer has are gone.
    const unusedKeys =
      edit && ad.pendingPhotos !== null
        ? await tx.photos.delete(photosLeaving(ad.photos, ad.pendingPhotos))
        : [];
    return { edit, unusedKeys };
  });
}

/** Rejects a new ad, or a live ad's pending edit (the live ad stays as it was). */
export function rejectAd(
  store: Store,
  moderator: Moderator,
  adId: number,
  revision: number,
  why: Why,
  now: Date,
): Promise<
  AdDecision<{ ad: MemberAdRow; edit: boolean; statementId: number } & PhotoBytesToDelete>
> {
  return decideOn(store, moderator, adId, revision, isAwaitingReview, async (tx, ad) => {
    const at = now.toISOString();
    const edit = ad.status === 'live';
    const changed = edit
      ? await tx.moderation.rejectEdit(adId, revision, why, at)
      : await tx.moderation.rejectNew(adId, revision, why, at);
    if (!changed) return undefined;
    const logId = await tx.moderationLog.append({
      at,
      by: moderator,
      action: edit ? 'reject-edit' : 'reject',
      adId,
      accountId: ad.accountId,
      accountEmail: ad.accountEmail,
      reason: why.reason,
      note: why.note,
    });
    const statementId = await recordAdStatement(tx, edit ? 'edit-rejected' : 'ad-rejected', ad, {
      logId,
      moderator,
      why,
      at,
      source: OWN_REVIEW,
    });
    // Rejected as "under 18" or "someone else's photos": the photos judged are blocked (an edit's:
    // the photos it would have shown). Then those only the edit had are gone.
    const judged = edit ? (ad.pendingPhotos ?? ad.photos) : ad.photos;
    await blockPhotosOfAd(
      tx,
      adId,
      why,
      at,
      judged.map((ref) => ref.id),
    );
    const unusedKeys = edit ? await deletePendingOnlyPhotos(tx, ad) : [];
    return { edit, unusedKeys, statementId };
  });
}

/** Takes a live ad off the site (with any edit waiting for it). */
export function removeAd(
  store: Store,
  moderator: Moderator,
  adId: number,
  revision: number,
  why: Why,
  now: Date,
  source: DecisionSource = OWN_REVIEW,
): Promise<
  AdDecision<{ ad: MemberAdRow; fraudNotices: number; statementId: number } & PhotoBytesToDelete>
> {
  return decideOn(
    store,
    moderator,
    adId,
    revision,
    (ad) => ad.status === 'live',
    async (tx, ad) => {
      const at = now.toISOString();
      if (!(await tx.moderation.removeLive(adId, revision, why, at))) return undefined;
      const logId = await tx.moderationLog.append({
        at,
        by: moderator,
        action: 'remove',
        adId,
        accountId: ad.accountId,
        accountEmail: ad.accountEmail,
        reason: why.reason,
        note: why.note,
      });
      const statementId = await recordAdStatement(tx, 'ad-removed', ad, {
        logId,
        moderator,
        why,
        at,
        source,
      });
      // Hidden by reports meanwhile: that hide is replaced by this decision (statements.ts).
      await tx.statements.liftHides(adId, at, statementId);
      // Removed as "under 18" or "someone else's photos": every photo of it is blocked. The
      // photos only its pending edit had are gone with the edit.
      await blockPhotosOfAd(tx, adId, why, at);
      // Removed for scam or fraud: the members who answered its account are told.
      const fraudNotices = isFraud(why)
        ? await recordFraudNotices(tx, ad.accountId, 'ad-removed', at)
        : 0;
      return { unusedKeys: await deletePendingOnlyPhotos(tx, ad), fraudNotices, statementId };
    },
  );
}
