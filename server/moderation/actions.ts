// A moderator's actions from the queue (docs/product.md sections 6 and 10), whole: approve, reject
// or remove an ad, ban an account, remove a photo. Each is its decision (ads.ts, accounts.ts,
// photos.ts: one unit of work, refused with a thrown Refusal when it changed nothing), then what
// follows it once that unit of work is over: the bytes of the photo sizes it deleted go from the
// photo storage, the member is mailed, the site is published when it changed. The answers (the
// queue's notice, the JSON) are the route's (server/http/routes/moderation.ts).
import {
  MODERATION_REASONS,
  type ModerationReason,
} from '../../core/schemas/moderation-reasons.ts';
import type { BanAccountInput, RejectAdInput } from '../../core/schemas/moderation.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import {
  adApprovedMail,
  adRejectedMail,
  adRemovedMail,
  photoRemovedMail,
} from '../mail/moderation-messages.ts';
import type { AppPhotos } from '../photos/app-photos.ts';
import { deleteBytesOf } from '../photos/ad-photo-lifecycle.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import type { Store } from '../../store/store.ts';
import { banAccount, banRefusal } from './accounts.ts';
import { mailFraudNoticesOf } from './fraud-notices.ts';
import {
  adConflictRefusal,
  approveAd,
  rejectAd,
  removeAd,
  type AdDecision,
  type Moderator,
  type PhotoBytesToDelete,
  type Why,
} from './ads.ts';
import type { NamedId } from './named-id.ts';
import { photoRemovalRefusal, reasonLabelOf, removePhoto } from './photos.ts';
import { statementMail } from './statement-links.ts';
import { accountBannedMail } from '../mail/appeal-messages.ts';

/** What the moderators' actions work with, built once in `createApp`. */
export interface ModerationDeps {
  store: Store;
  mailer: Mailer;
  mailSite: () => MailSite;
  /** Asked to publish when the site changes (approve, remove, a ban that removed live ads). */
  publisher?: Publisher | undefined;
  /** Photo storage: the bytes of the photo sizes a decision deleted go after it. */
  photos?: AppPhotos | undefined;
  /** The clock (createApp's): when a decision is made, and what its statement says of time. */
  now: () => Date;
}

/** An action on an ad done: the queue's notice of it (`?done=…`), and what a script is told. */
export interface AdActionDone {
  done: 'approved' | 'approved-edit' | 'rejected' | 'rejected-edit' | 'removed';
  outcome: { adId: number; status: 'live' | 'rejected' | 'removed'; edit?: boolean };
}

/** Why, as the member is told it: the reason's label from the list, and the note if any. */
export const whyGiven = (input: { reason: ModerationReason; note?: string | undefined }): Why => ({
  reason: MODERATION_REASONS[input.reason],
  ...(input.note ? { note: input.note } : {}),
});

/**
 * After a ban or a removal for scam or fraud committed: the mails of the notices it wrote
 * (`count`), claimed now and sent in the background. A failure here is the hourly sweep's to
 * mend, never the moderator's error: the ban is done.
 */
export async function mailNewFraudNotices(deps: ModerationDeps, accountId: number, count: number) {
  if (count === 0) return;
  await mailFraudNoticesOf(
    { store: deps.store, mailer: deps.mailer, site: deps.mailSite() },
    accountId,
    deps.now(),
  ).catch((error: unknown) =>
    console.error(
      `The fraud notices about account ${accountId} were not mailed now (the sweep will): ${(error as Error).message}`,
    ),
  );
}

/** The banned member's mail: the statement of reasons, and the link to appeal it. */
export async function mailBan(deps: ModerationDeps, email: string, statementId: number) {
  const statement = await statementMail(deps, statementId, deps.now());
  if (statement)
    deps.mailer.send(accountBannedMail(deps.mailSite(), email, statement.view, statement.link));
}

/**
 * An ad's decision as stored: refused when the ad is unknown, the moderator's own, or changed
 * since they saw it; once done, the bytes of the photo sizes it left unused go.
 */
async function doneOnAd<Done extends PhotoBytesToDelete>(
  deps: ModerationDeps,
  ad: NamedId,
  decision: Promise<AdDecision<Done>>,
): Promise<Done> {
  const result = await decision;
  if (result.kind !== 'done') throw adConflictRefusal(result, ad.raw);
  await deleteBytesOf(deps.photos?.storage, result.unusedKeys, `ad ${ad.id}`);
  return result;
}

/** A moderator's no to an ad (reject, remove), stored as they gave it, at the revision they saw. */
type NoToAd<Done> = (
  store: Store,
  moderator: Moderator,
  adId: number,
  revision: number,
  why: Why,
  now: Date,
) => Promise<AdDecision<Done>>;

/**
 * A rejection or a removal as stored, with why as its member is told it and the statement of
 * reasons their mail carries.
 */
async function noToAd<Done extends PhotoBytesToDelete & { statementId: number }>(
  deps: ModerationDeps,
  moderator: Moderator,
  ad: NamedId,
  input: RejectAdInput,
  decide: NoToAd<Done>,
) {
  const why = whyGiven(input);
  const result = await doneOnAd(
    deps,
    ad,
    decide(deps.store, moderator, ad.id, input.revision, why, deps.now()),
  );
  const statement = await statementMail(deps, result.statementId, deps.now());
  return { ...result, why, statementLines: statement?.lines };
}

/** An action on an ad from the queue, as the routes call it. */
export type AdAction<Input> = (
  deps: ModerationDeps,
  moderator: Moderator,
  ad: NamedId,
  input: Input,
) => Promise<AdActionDone>;

/** Approves an ad in review, or a live ad's pending edit, at the revision the moderator saw. */
export const approveAdAction: AdAction<{ revision: number }> = async (
  deps,
  moderator,
  ad,
  input,
) => {
  const approval = approveAd(deps.store, moderator, ad.id, input.revision, deps.now());
  const { edit, ad: row } = await doneOnAd(deps, ad, approval);
  deps.mailer.send(
    adApprovedMail(deps.mailSite(), row.accountEmail, row, row.expiresOn ?? '', edit),
  );
  publishSoon(deps.publisher, `${edit ? 'approved the edit of' : 'approved'} ad ${ad.id}`);
  return {
    done: edit ? 'approved-edit' : 'approved',
    outcome: { adId: ad.id, status: 'live', edit },
  };
};

/** Rejects an ad in review, or a live ad's pending edit (the live ad stays as it was). */
export const rejectAdAction: AdAction<RejectAdInput> = async (deps, moderator, ad, input) => {
  const rejected = await noToAd(deps, moderator, ad, input, rejectAd);
  const { edit, ad: row, why } = rejected;
  deps.mailer.send(
    adRejectedMail(deps.mailSite(), row.accountEmail, row, why, edit, rejected.statementLines),
  );
  return {
    done: edit ? 'rejected-edit' : 'rejected',
    outcome: { adId: ad.id, status: edit ? 'live' : 'rejected', edit },
  };
};

/** Takes a live ad off the site. */
export const removeAdAction: AdAction<RejectAdInput> = async (deps, moderator, ad, input) => {
  const removed = await noToAd(deps, moderator, ad, input, removeAd);
  const { ad: row, why } = removed;
  deps.mailer.send(
    adRemovedMail(deps.mailSite(), row.accountEmail, row, why, removed.statementLines),
  );
  await mailNewFraudNotices(deps, row.accountId, removed.fraudNotices);
  publishSoon(deps.publisher, `removed ad ${ad.id}`);
  return { done: 'removed', outcome: { adId: ad.id, status: 'removed' } };
};

/** Bans an account: its ads in review or live removed (the live ones leave the site). */
export async function banAccountAction(
  deps: ModerationDeps,
  moderator: Moderator,
  account: NamedId,
  input: BanAccountInput,
) {
  const result = await banAccount(deps.store, moderator, account.id, whyGiven(input), deps.now());
  if (result.kind !== 'done') throw banRefusal(result, account.raw);
  await deleteBytesOf(deps.photos?.storage, result.unusedKeys, `banned account ${account.id}`);
  await mailBan(deps, result.email, result.statementId);
  await mailNewFraudNotices(deps, account.id, result.fraudNotices);
  if (result.removedLive.length > 0)
    publishSoon(
      deps.publisher,
      `banned account ${account.id}: removed ads ${result.removedLive.join(', ')}`,
    );
  const removedAds = [...result.removedLive, ...result.removedInReview].sort((a, b) => a - b);
  return { accountId: account.id, banned: true as const, removedAds };
}

/** Removes one photo, with the reason (and note) its member is mailed. */
export async function removePhotoAction(
  deps: ModerationDeps,
  moderator: Moderator,
  photo: NamedId,
  input: BanAccountInput,
) {
  const { reason, note } = input;
  const result = await removePhoto(deps.store, moderator, photo.id, reason, note, deps.now());
  if (result.kind !== 'done') throw photoRemovalRefusal(result, photo.raw);
  const { ad } = result;
  if (ad) {
    const statement = await statementMail(deps, result.statementId, deps.now());
    const why = {
      reason: reasonLabelOf(input.reason),
      ...(input.note ? { note: input.note } : {}),
    };
    deps.mailer.send(photoRemovedMail(deps.mailSite(), ad.accountEmail, ad, why, statement?.lines));
    if (ad.status === 'live')
      publishSoon(deps.publisher, `removed photo ${photo.id} of ad ${ad.id}`);
  }
  return { photoId: photo.id, adId: ad?.id ?? null, removed: true as const, reason: input.reason };
}
