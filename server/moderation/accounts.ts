// A moderator's and the operator's decisions on an account (docs/product.md section 6): the ban
// (sign-in refused, signed out everywhere, the address kept so that it cannot sign up again, every
// ad in review or live removed) and the moderator role (`npm run moderator`, logged as the
// operator); and their refusals. Each holds the account's lock (`account:{id}`), which the
// member's own posting holds too, so a ban and a post racing on two instances never leave a new
// ad in review on a banned account, and of two bans one bans and the other is told. A ban for scam
// or fraud also tells who answered the account (fraud-notices.ts) and keeps its first messages'
// texts for the scam shield's corpus (shield-review.ts).
import { Refusal } from '../../core/refusal.ts';
import type { Moderator } from '../../store/parts/moderation-log.ts';
import type { Why } from '../../store/parts/moderation.ts';
import type { Store } from '../../store/store.ts';
import { shownId } from './named-id.ts';
import { alreadyBanned, OPERATOR } from './log.ts';
import { isFraud, recordFraudNotices } from './fraud-notices.ts';
import { blockPhotosOfAd, deletePendingOnlyPhotos } from './photos.ts';
import { labelFirstMessagesOfFraud } from './shield-review.ts';
import { OWN_REVIEW, recordBanStatement, type DecisionSource } from './statements.ts';

export type BanResult =
  | {
      kind: 'done';
      email: string;
      removedLive: number[];
      removedInReview: number[];
      /** The keys of photo sizes deleted, for the photo storage to delete after the unit of work. */
      unusedKeys: string[];
      /** Members newly to be told (banned for scam or fraud): their mails go after the unit of work. */
      fraudNotices: number;
      /** The ban's statement of reasons. */
      statementId: number;
    }
  | { kind: 'unknown' }
  | { kind: 'moderator'; email: string }
  | { kind: 'conflict'; message: string };

export const noSuchAccount = (raw: string | undefined) =>
  new Refusal('not-found', `There is no account ${shownId(raw)}.`);

/** A moderator cannot be banned: the operator takes the role away first. */
export const moderatorNotBanned = (email: string) =>
  `${email} is a moderator. An operator must take the role away first (npm run moderator -- remove ${email}).`;

/** The refusal of a ban that banned nothing (`rawId` as the request named the account). */
export function banRefusal(
  result: Exclude<BanResult, { kind: 'done' }>,
  rawId: string | undefined,
): Refusal {
  if (result.kind === 'unknown') return noSuchAccount(rawId);
  if (result.kind === 'moderator')
    return new Refusal('forbidden', moderatorNotBanned(result.email));
  return new Refusal('conflict', result.message);
}

/** Bans an account and removes its ads in review or live, each removal in the log. */
export function banAccount(
  store: Store,
  moderator: Moderator,
  accountId: number,
  why: Why,
  now: Date,
  source: DecisionSource = OWN_REVIEW,
): Promise<BanResult> {
  return store.unitOfWork(async (tx): Promise<BanResult> => {
    await tx.lock(`account:${accountId}`);
    const account = await tx.moderation.account(accountId);
    if (!account) return { kind: 'unknown' };
    if (account.role === 'moderator') return { kind: 'moderator', email: account.email };
    const at = now.toISOString();
    if (account.bannedAt || !(await tx.moderation.ban(accountId, account.email, at)))
      return {
        kind: 'conflict',
        message: alreadyBanned(await tx.moderationLog.lastForAccount(accountId, 'ban')),
      };
    await tx.sessions.revokeAll(accountId);
    const ads = await tx.moderation.adsInReviewOrLiveOf(accountId);
    // The photos only pending edits had go with the edits; as "under 18" or "someone else's
    // photos", every photo of the ads removed is blocked.
    const unusedKeys: string[] = [];
    for (const { id } of ads) {
      await blockPhotosOfAd(tx, id, why, at);
      const ad = await tx.memberAds.find(id);
      if (ad) unusedKeys.push(...(await deletePendingOnlyPhotos(tx, ad)));
    }
    await tx.moderation.removeAllOf(accountId, why, at);
    const fraudNotices = isFraud(why) ? await recordFraudNotices(tx, accountId, 'banned', at) : 0;
    // Its first messages, for the scam shield's corpus: taken now, before anything deletes them.
    if (isFraud(why)) await labelFirstMessagesOfFraud(tx, accountId, at);
    const base = { at, by: moderator, accountId, accountEmail: account.email };
    const logId = await tx.moderationLog.append({
      ...base,
      action: 'ban',
      reason: why.reason,
      note: why.note,
    });
    const statementId = await recordBanStatement(tx, account, ads, {
      logId,
      moderator,
      why,
      at,
      source,
    });
    // Its ads hidden by reports: those hides are replaced by the ban (statements.ts).
    for (const ad of ads) await tx.statements.liftHides(ad.id, at, statementId);
    for (const ad of ads)
      await tx.moderationLog.append({
        ...base,
        action: 'remove',
        adId: ad.id,
        reason: why.reason,
        note: 'Removed with the ban of its account.',
      });
    return {
      kind: 'done',
      email: account.email,
      removedLive: ads.filter((ad) => ad.status === 'live').map((ad) => ad.id),
      removedInReview: ads.filter((ad) => ad.status === 'review').map((ad) => ad.id),
      unusedKeys,
      fraudNotices,
      statementId,
    };
  });
}

export type RoleChange = 'done' | 'unchanged' | 'unknown' | 'banned';

/** The operator's command: gives or takes the moderator role, logged as `operator`. */
export function setModeratorRole(
  store: Store,
  email: string,
  role: 'moderator' | 'member',
  now: Date,
): Promise<RoleChange> {
  return store.unitOfWork(async (tx): Promise<RoleChange> => {
    const found = await tx.moderation.accountByEmail(email);
    if (!found) return 'unknown';
    await tx.lock(`account:${found.accountId}`);
    // Read again under the lock: a ban may have come in between.
    const account = await tx.moderation.account(found.accountId);
    if (!account) return 'unknown';
    if (account.role === role) return 'unchanged';
    if (role === 'moderator' && account.bannedAt) return 'banned';
    await tx.moderation.setRole(account.accountId, role);
    await tx.moderationLog.append({
      at: now.toISOString(),
      by: { name: OPERATOR },
      action: role === 'moderator' ? 'grant-role' : 'revoke-role',
      accountId: account.accountId,
      accountEmail: account.email,
    });
    return 'done';
  });
}
