// A moderator's decision on a group of reports (docs/product.md section 8): dismiss them (an ad
// they hid goes back on the site), remove the ad, or ban the member; and the refusals. It is made
// against what the moderator saw (`seen`: the group's newest report on their page): reports that
// arrived since stop it, so nobody decides on reports they have not read. One unit of work holds
// the lock of what the group is about (`ad:{id}` or `conversation:{id}`; a ban takes the member's
// `account:{id}` first, as every change of their account and ads does): of two moderators deciding
// on one group at once, on one instance or two, exactly one changes it, and the other is told who
// did. Removing and banning are the moderators' own decisions (server/moderation/), run in the
// same unit of work, which writes every row of the moderation log through its one writer. A
// decision that changes nothing is refused with a thrown Refusal (the unit of work, which wrote
// nothing, is rolled back). `decideOnReports` is the whole action: the decision, then the photo
// bytes it freed deleted, the member of a removed ad mailed, the site published when it changed.
import type { ReportAction, ResolveReportsInput } from '../../core/schemas/report.ts';
import { adBackAfterReportsMail, adRemovedMail } from '../mail/moderation-messages.ts';
import { Refusal } from '../../core/refusal.ts';
import { banAccount, moderatorNotBanned } from '../moderation/accounts.ts';
import {
  mailBan,
  mailNewFraudNotices,
  whyGiven,
  type ModerationDeps,
} from '../moderation/actions.ts';
import { statementMail } from '../moderation/statement-links.ts';
import { removeAd, type Moderator, type Why } from '../moderation/ads.ts';
import { reportSource, type DecisionSource } from '../moderation/statements.ts';
import { deleteBytesOf } from '../photos/ad-photo-lifecycle.ts';
import { publishSoon } from '../publishing/publisher.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import type { ReportGroupKey, Resolution } from '../../store/parts/reports.ts';
import type { Store } from '../../store/store.ts';
import { lockOf, parseGroupKey } from './groups.ts';
import {
  AD_CHANGED,
  alreadyHandled,
  EDITOR_AD_NOT_BANNED,
  NEW_REPORTS_SINCE,
  NO_SUCH_REPORTS,
  NOBODY_TO_BAN,
  OWN_ACCOUNT_NOT_BANNED,
  OWN_AD_REPORTED,
  REMOVE_IS_FOR_ADS,
} from './texts.ts';

export interface ResolveResult {
  action: ReportAction;
  resolved: number;
  /** Why the site must be published again, when it must. */
  publish?: string;
  /** A member's ad the removal took off the site (its member is mailed). */
  removedAd?: MemberAdRow;
  /** A member's ad reports had hidden, back on the site after a dismissal (its member is mailed). */
  backAd?: MemberAdRow;
  /** The member's appeal of that hide, open until the dismissal lifted it (the mail says so). */
  backAppealClosed?: boolean;
  /** An editor's ad removed: off the site for good, content/ads/ should lose it too. */
  editorAdRemoved?: boolean;
  banned?: { accountId: number; email: string; removedAds: number; already: boolean };
  /** The account whose new fraud notices (a removal or ban for scam or fraud) are to be mailed. */
  fraudNotices?: { accountId: number; count: number };
  /**
   * Keys of photo sizes the removal or ban deleted (a pending edit's photos): the photo
   * storage's bytes to delete after the unit of work.
   */
  unusedKeys?: string[];
  /** The statement of reasons of the removal or ban, for its mail. */
  statementId?: number;
}

const RESOLUTION: Record<ReportAction, Resolution> = {
  dismiss: 'dismissed',
  remove: 'removed',
  ban: 'banned',
};

/**
 * A moderator's decision on a group as the reports page posts it (checked by its schema): made,
 * then the photo bytes it freed deleted, the member of a removed ad mailed, the site published.
 */
export async function decideOnReports(
  deps: ModerationDeps,
  moderator: Moderator,
  input: ResolveReportsInput,
  now: Date,
): Promise<ResolveResult & { group: ReportGroupKey }> {
  const group = parseGroupKey(input.group)!;
  const why = input.reason
    ? whyGiven({ reason: input.reason, note: input.note })
    : input.note
      ? { reason: '', note: input.note }
      : undefined;
  const result = await resolveReports(
    deps.store,
    group,
    input.seen,
    input.action,
    moderator,
    why,
    now,
  );
  await deleteBytesOf(
    deps.photos?.storage,
    result.unusedKeys ?? [],
    `the reports of ${input.group}`,
  );
  if (result.removedAd) {
    const statement = result.statementId
      ? await statementMail(deps, result.statementId, now)
      : undefined;
    const { accountEmail } = result.removedAd;
    deps.mailer.send(
      adRemovedMail(deps.mailSite(), accountEmail, result.removedAd, why!, statement?.lines),
    );
  }
  if (result.backAd)
    deps.mailer.send(
      adBackAfterReportsMail(deps.mailSite(), result.backAd.accountEmail, result.backAd, {
        appealClosed: result.backAppealClosed === true,
      }),
    );
  if (result.banned && !result.banned.already && result.statementId)
    await mailBan(deps, result.banned.email, result.statementId);
  if (result.fraudNotices)
    await mailNewFraudNotices(deps, result.fraudNotices.accountId, result.fraudNotices.count);
  if (result.publish) publishSoon(deps.publisher, result.publish);
  return { ...result, group };
}

/**
 * Resolves every open report of a group, if its newest is the one the moderator saw. `why` is
 * required to remove or ban (the member is told it); a dismissal may carry a note.
 */
export function resolveReports(
  store: Store,
  group: ReportGroupKey,
  seen: number,
  action: ReportAction,
  moderator: Moderator,
  why: Why | undefined,
  now: Date,
): Promise<ResolveResult> {
  return store.unitOfWork(async (tx): Promise<ResolveResult> => {
    // A ban holds the member's lock before the group's, in the order posting takes them. Whose
    // it is does not change: an ad's member is its member for good, a thread's is in the key.
    const target = action === 'ban' ? await banTargetOf(tx, group) : undefined;
    if (target) await tx.lock(`account:${target}`);
    await tx.lock(lockOf(group));
    const reports = await tx.reports.openInGroup(group);
    if (reports.length === 0) {
      const last = await tx.reports.lastResolved(group);
      throw last
        ? new Refusal('conflict', alreadyHandled(last))
        : new Refusal('not-found', NO_SUCH_REPORTS);
    }
    if (reports.at(-1)!.id !== seen) throw new Refusal('conflict', NEW_REPORTS_SINCE);
    const first = reports[0]!;
    const decision: Decision = {
      tx,
      group,
      adId: first.adId,
      adKind: first.adCopy.kind,
      reportedId: first.reportedAccountId,
      count: reports.length,
      source: reportSource(reports),
      moderator,
      why,
      now,
      result: { action, resolved: reports.length },
    };
    if (action === 'dismiss') await dismiss(decision);
    else if (action === 'remove') await remove(decision);
    else await ban(decision, target);
    await tx.reports.resolveGroup(
      group,
      seen,
      RESOLUTION[action],
      moderator.accountId,
      now.toISOString(),
    );
    return decision.result;
  });
}

/** A decision in the making: what it is about, and what it did. */
interface Decision {
  tx: Store;
  group: ReportGroupKey;
  adId: number;
  adKind: 'member' | 'editor';
  reportedId: number | null;
  count: number;
  /** The reports' reasons and counts, for the statement of reasons of a removal or ban. */
  source: DecisionSource;
  moderator: Moderator;
  why: Why | undefined;
  now: Date;
  result: ResolveResult;
}

/** The member a ban of the group is about: the ad's member, or the reported side of a thread. */
async function banTargetOf(tx: Store, group: ReportGroupKey): Promise<number | undefined> {
  if (group.kind === 'conversation') return group.reportedAccountId || undefined;
  const ad = await tx.memberAds.find(group.adId);
  if (ad) return ad.accountId;
  const [first] = await tx.reports.openInGroup(group);
  return first?.reportedAccountId ?? undefined;
}

const emailOf = async (tx: Store, accountId: number | null) =>
  accountId === null ? null : ((await tx.moderation.account(accountId))?.email ?? null);

const whyOf = (decision: Decision): Why => {
  if (!decision.why) throw new Error(`a ${decision.result.action} without a reason`);
  return decision.why;
};

async function dismiss({
  tx,
  group,
  adId,
  reportedId,
  count,
  moderator,
  why,
  now,
  result,
}: Decision) {
  const wasHidden = group.kind === 'ad' ? await tx.hiddenAds.find(adId) : undefined;
  const back =
    wasHidden !== undefined && wasHidden.why !== 'removed' && (await tx.hiddenAds.unhide(adId));
  if (back) result.publish = `dismissed the reports of ad ${adId}`;
  const backAd = back && wasHidden.kind === 'member' ? await tx.memberAds.find(adId) : undefined;
  if (backAd) {
    result.backAd = backAd;
    // Its hide's statement says it was lifted; an appeal of it still open is closed.
    for (const id of await tx.statements.liftHides(adId, now.toISOString()))
      if ((await tx.statements.find(id))?.appeal?.outcome === null) result.backAppealClosed = true;
  }
  await tx.moderationLog.append({
    at: now.toISOString(),
    by: moderator,
    action: 'dismiss',
    adId: adId || null,
    accountId: reportedId,
    accountEmail: await emailOf(tx, reportedId),
    note: [
      `${count === 1 ? '1 report' : `${count} reports`} dismissed${back ? '; the ad goes back on the site' : ''}.`,
      why?.note,
    ]
      .filter(Boolean)
      .join(' '),
  });
}

async function remove(decision: Decision): Promise<void> {
  const { tx, group, adId, adKind, reportedId, moderator, now, result } = decision;
  if (group.kind !== 'ad') throw new Refusal('invalid', REMOVE_IS_FOR_ADS);
  const why = whyOf(decision);
  const at = now.toISOString();
  const wasHidden = await tx.hiddenAds.find(adId);
  if (adKind === 'editor') {
    await tx.hiddenAds.removeForGood(adId, 'editor', at);
    if (!wasHidden) result.publish = `removed editor's ad ${adId}`;
    result.editorAdRemoved = true;
    await tx.moderationLog.append({
      at,
      by: moderator,
      action: 'remove',
      adId,
      reason: why.reason,
      note: [
        why.note,
        "An editor's ad: it stays off the site; delete its row from content/ads/ too.",
      ]
        .filter(Boolean)
        .join(' '),
    });
    return;
  }
  const ad = await tx.memberAds.find(adId);
  if (ad && ad.accountId === moderator.accountId) throw new Refusal('forbidden', OWN_AD_REPORTED);
  if (ad?.status === 'live') {
    // The moderators' own removal, in this unit of work (which holds the ad's lock already).
    const removed = await removeAd(tx, moderator, adId, ad.revision, why, now, decision.source);
    if (removed.kind !== 'done')
      throw new Refusal('conflict', removed.kind === 'conflict' ? removed.message : AD_CHANGED);
    result.removedAd = removed.ad;
    result.statementId = removed.statementId;
    result.unusedKeys = removed.unusedKeys;
    result.fraudNotices = { accountId: removed.ad.accountId, count: removed.fraudNotices };
    if (!wasHidden) result.publish = `removed ad ${adId} after reports`;
  } else {
    await tx.moderationLog.append({
      at,
      by: moderator,
      action: 'remove',
      adId,
      accountId: ad?.accountId ?? reportedId,
      accountEmail: ad?.accountEmail ?? (await emailOf(tx, reportedId)),
      reason: why.reason,
      note: `The ad was already off the site (${ad ? ad.status : 'its account is gone'}); the reports are closed.`,
    });
  }
  await tx.hiddenAds.unhide(adId);
}

async function ban(decision: Decision, target: number | undefined): Promise<void> {
  const { tx, group, adId, adKind, moderator, now, result } = decision;
  if (group.kind === 'ad' && adKind === 'editor')
    throw new Refusal('invalid', EDITOR_AD_NOT_BANNED);
  if (target === undefined) throw new Refusal('not-found', NOBODY_TO_BAN);
  if (target === moderator.accountId) throw new Refusal('forbidden', OWN_ACCOUNT_NOT_BANNED);
  // The moderators' own ban, in this unit of work (which holds the member's lock already).
  const banned = await banAccount(tx, moderator, target, whyOf(decision), now, decision.source);
  if (banned.kind === 'unknown') throw new Refusal('not-found', NOBODY_TO_BAN);
  if (banned.kind === 'moderator') throw new Refusal('forbidden', moderatorNotBanned(banned.email));
  if (banned.kind === 'conflict') {
    // Banned already (from the queue, say): the reports are closed with it.
    result.banned = {
      accountId: target,
      email: (await emailOf(tx, target)) ?? '',
      removedAds: 0,
      already: true,
    };
  } else {
    result.unusedKeys = banned.unusedKeys;
    result.statementId = banned.statementId;
    result.fraudNotices = { accountId: target, count: banned.fraudNotices };
    result.banned = {
      accountId: target,
      email: banned.email,
      removedAds: banned.removedLive.length + banned.removedInReview.length,
      already: false,
    };
    if (banned.removedLive.length > 0)
      result.publish = `banned account ${target}: removed ads ${banned.removedLive.join(', ')}`;
  }
  if (group.kind === 'ad') await tx.hiddenAds.unhide(adId);
}
