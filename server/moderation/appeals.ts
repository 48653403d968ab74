// Appeals (docs/product.md section 6): one per decision, within 6 months of it, by the
// member concerned (anyone else is answered as if it did not exist), decided by a moderator other
// than the one who made the decision. An appeal is decided in one unit of work holding its lock
// (`appeal:{id}`, then what the decision was about), so of two moderators deciding at once
// exactly one does; the other is told. A reversal undoes the decision at once: the ad live again
// (or back in the queue when it expired meanwhile), an edit applied, an account unbanned with its
// address free again, a removed photo back on its ad (photos.ts); then the member is mailed and
// the site published.
import { utcDay } from '../../core/days.ts';
import type { AppealInput, DecideAppealInput } from '../../core/schemas/appeal.ts';
import { appealDecidedMail } from '../mail/appeal-messages.ts';
import { expiryFrom } from '../posting/lifetime.ts';
import { publishSoon } from '../publishing/publisher.ts';
import { Refusal } from '../../core/refusal.ts';
import type { Moderator } from '../../store/parts/moderation-log.ts';
import type { StatementRow } from '../../store/parts/statements.ts';
import type { Store } from '../../store/store.ts';
import type { ModerationDeps } from './actions.ts';
import { mailLink, sameKey, statementKey } from './statement-links.ts';
import { restoreRemovedPhoto } from './photos.ts';
import { statementView } from './statement-view.ts';

export const NO_SUCH_DECISION = 'There is no such decision.';
export const APPEALED_ALREADY =
  'You have appealed this decision already: each decision can be appealed once.';
export const APPEAL_TOO_LATE =
  'This decision can no longer be appealed: appeals are open for 6 months.';
export const OWN_DECISION = 'You made this decision: another moderator must decide its appeal.';
export const NO_SUCH_APPEAL = 'There is no such appeal.';
export const LIFTED_NOTHING_TO_APPEAL =
  'This restriction was lifted or replaced by another decision, so there is nothing to appeal here.';
export const LIFTED_APPEAL_CLOSED =
  'The restriction was lifted before this appeal was decided: the appeal is closed. Nothing was changed.';
const DECIDED_ALREADY = 'This appeal was already decided. Nothing was changed.';

/** Who asks for a statement: the signed-in member, and the key their mail's link carries. */
export interface StatementReader {
  accountId?: number | undefined;
  key?: string | undefined;
}

/** The statement, if `reader` is its member; undefined to anyone else. */
export async function statementFor(
  store: Store,
  id: number,
  reader: StatementReader,
): Promise<StatementRow | undefined> {
  const row = Number.isSafeInteger(id) ? await store.statements.find(id) : undefined;
  if (!row || row.accountId === null) return undefined;
  if (reader.accountId !== undefined && reader.accountId === row.accountId) return row;
  if (reader.key && sameKey(reader.key, await statementKey(store, row.id))) return row;
  return undefined;
}

/** The member's appeal of one decision: filed once, within its deadline. */
export async function fileAppeal(
  store: Store,
  reader: StatementReader,
  statementId: number,
  input: AppealInput,
  now: Date,
): Promise<StatementRow> {
  const row = await statementFor(store, statementId, reader);
  if (!row) throw new Refusal('not-found', NO_SUCH_DECISION);
  if (row.appeal) throw new Refusal('conflict', APPEALED_ALREADY);
  if (row.liftedAt !== null) throw new Refusal('conflict', LIFTED_NOTHING_TO_APPEAL);
  if (now.toISOString() >= row.appealUntil) throw new Refusal('conflict', APPEAL_TOO_LATE);
  const id = await store.statements.fileAppeal({
    statementId: row.id,
    accountId: row.accountId!,
    text: input.text,
    filedAt: now.toISOString(),
  });
  if (id === undefined) throw new Refusal('conflict', APPEALED_ALREADY);
  return row;
}

/** What deciding an appeal did, for the mail and the publish after its unit of work. */
interface AppealDecided {
  row: StatementRow;
  email: string | undefined;
  publish?: string;
}

/** Decides an open appeal: upheld with a reason for the member, or reversed and undone. */
export async function decideAppeal(
  deps: ModerationDeps,
  moderator: Moderator,
  appealId: number,
  input: DecideAppealInput,
): Promise<{ appealId: number; outcome: DecideAppealInput['outcome'] }> {
  const now = deps.now();
  const decided = await deps.store.unitOfWork(async (tx): Promise<AppealDecided> => {
    await tx.lock(`appeal:${appealId}`);
    const found = await tx.statements.findByAppeal(appealId);
    if (!found?.appeal) throw new Refusal('not-found', NO_SUCH_APPEAL);
    // A hide is lifted under its ad's lock (its reports dismissed, the ad removed) or its
    // member's (a ban): read it again under both, the member's first as everywhere.
    if (found.kind === 'ad-hidden') {
      await tx.lock(`account:${found.accountId}`);
      await tx.lock(`ad:${found.adId}`);
    }
    const row = found.kind === 'ad-hidden' ? (await tx.statements.findByAppeal(appealId))! : found;
    if (row.decidedBy === moderator.accountId) throw new Refusal('forbidden', OWN_DECISION);
    if (row.appeal!.outcome !== null || row.accountId === null)
      throw new Refusal('conflict', DECIDED_ALREADY);
    if (row.liftedAt !== null) throw new Refusal('conflict', LIFTED_APPEAL_CLOSED);
    const at = now.toISOString();
    const reply = input.outcome === 'upheld' ? input.reply : null;
    if (
      !(await tx.statements.decideAppeal(appealId, {
        ...input,
        reply,
        by: moderator.accountId,
        at,
      }))
    )
      throw new Refusal('conflict', DECIDED_ALREADY);
    const account = await tx.moderation.account(row.accountId);
    const publish = input.outcome === 'reversed' ? await undo(tx, row, now) : undefined;
    await tx.moderationLog.append({
      at,
      by: moderator,
      action: input.outcome === 'reversed' ? 'reverse-appeal' : 'uphold-appeal',
      adId: row.adId,
      accountId: row.accountId,
      accountEmail: account?.email ?? null,
      reason: row.facts.reason,
      note: [`Appeal ${appealId} of decision ${row.logId} (${row.kind}).`, reply]
        .filter(Boolean)
        .join(' '),
    });
    const after = (await tx.statements.find(row.id))!;
    return { row: after, email: account?.email, ...(publish ? { publish } : {}) };
  });
  if (decided.email) {
    const site = deps.mailSite();
    const view = statementView(decided.row, now);
    deps.mailer.send(
      appealDecidedMail(site, decided.email, view, await mailLink(deps.store, decided.row), {
        verification: decided.row.kind === 'verification-refused',
      }),
    );
  }
  if (decided.publish) publishSoon(deps.publisher, decided.publish);
  return { appealId, outcome: input.outcome };
}

/**
 * Puts a removed or rejected ad back: live until its expiry, or in review when it passed; its
 * photos' hashes unblocked (a photo removed on its own keeps its block: its own decision).
 */
async function reinstate(tx: Store, adId: number, now: Date): Promise<boolean> {
  await tx.lock(`ad:${adId}`);
  const ad = await tx.memberAds.find(adId);
  if (!ad || (ad.status !== 'removed' && ad.status !== 'rejected')) return false;
  const at = now.toISOString();
  const today = utcDay(now);
  const to =
    ad.status === 'rejected'
      ? { status: 'live' as const, postedOn: today, expiresOn: expiryFrom(today) }
      : ad.expiresOn !== null && ad.expiresOn > today
        ? { status: 'live' as const, postedOn: ad.postedOn ?? today, expiresOn: ad.expiresOn }
        : { status: 'review' as const };
  await tx.hiddenAds.unhide(adId);
  // Removed for someone else's photos or under 18, its photos were blocked with it: no longer.
  for (const photo of await tx.photos.listForAd(adId))
    if (photo.removedAt === null) await tx.photos.unblock(photo);
  return (await tx.moderation.reinstateAd(adId, to, at)) && to.status === 'live';
}

/** Undoes the decision of a reversed appeal; why the site is published again, when it is. */
async function undo(tx: Store, row: StatementRow, now: Date): Promise<string | undefined> {
  const at = now.toISOString();
  switch (row.kind) {
    case 'ad-removed':
    case 'ad-rejected':
      return (await reinstate(tx, row.adId!, now))
        ? `reversed on appeal: ad ${row.adId} live again`
        : undefined;
    case 'edit-rejected': {
      const edit = row.facts.edit;
      await tx.lock(`ad:${row.adId}`);
      return edit && (await tx.moderation.applyEdit(row.adId!, edit, at))
        ? `reversed on appeal: the edit of ad ${row.adId}`
        : undefined;
    }
    case 'ad-hidden':
      await tx.lock(`ad:${row.adId}`);
      return (await tx.hiddenAds.unhide(row.adId!))
        ? `reversed on appeal: ad ${row.adId} back after reports`
        : undefined;
    case 'account-banned': {
      await tx.lock(`account:${row.accountId}`);
      const account = await tx.moderation.account(row.accountId!);
      if (account) await tx.moderation.unban(account.accountId, account.email);
      const back: number[] = [];
      for (const ad of row.facts.removedAds ?? [])
        if (await reinstate(tx, ad.id, now)) back.push(ad.id);
      return back.length > 0
        ? `reversed on appeal: account ${row.accountId} unbanned, ads ${back.join(', ')} live again`
        : undefined;
    }
    case 'verification-refused': {
      // Reversed: verified as a real person (the photo sweep deletes the selfie's bytes).
      const id = await tx.verifications.approveOnAppeal(row.id, at);
      return id === undefined ? undefined : `reversed on appeal: verification ${id} approved`;
    }
    case 'photo-removed': {
      const photo = row.facts.photo;
      if (!photo || row.photoId === null) return undefined;
      const place = { ...photo, photoId: row.photoId, accountId: row.accountId! };
      return (await restoreRemovedPhoto(tx, place, now))
        ? `reversed on appeal: photo ${row.photoId} back on ad ${row.adId}`
        : undefined;
    }
  }
}
