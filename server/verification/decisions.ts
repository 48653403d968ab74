// A moderator's decision on a verification selfie, and the member withdrawing theirs (docs/product.md
// section 6, "Verified members"). Approving needs every item of the checklist; the moderator ticks
// which of the member's ad photos show the same person: none gives Real person, one or more
// Photos verified on those. Refusing takes one reason of a fixed list and writes a statement of
// reasons the member can appeal (decided by another moderator, server/moderation/appeals.ts).
// A moderator never decides their own verification. The selfie's bytes go as soon as it is
// approved; a refused one is kept for its appeal (retention.ts). Either way the member is mailed
// the decision (server/mail/verification-messages.ts), once its unit of work is over.
import { z } from 'zod';
import {
  CHECKLIST,
  isVerificationRefusal,
  VERIFICATION_REFUSALS,
  type ChecklistKey,
} from '../../core/schemas/verification.ts';
import { RULE_CLAUSES } from '../../core/schemas/terms-clauses.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import {
  verificationApprovedMail,
  verificationRefusedMail,
} from '../mail/verification-messages.ts';
import { statementMail } from '../moderation/statement-links.ts';
import type { SessionAccount as Member } from '../../store/parts/sessions.ts';
import type { AppPhotos } from '../photos/app-photos.ts';
import { appealDeadline } from '../moderation/statements.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import { Refusal } from '../../core/refusal.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import type { PhotoRow } from '../../store/parts/photos.ts';
import type { Store } from '../../store/store.ts';
import { forgetSelfie } from './retention.ts';

export const CHECKLIST_INCOMPLETE =
  'Tick every item of the checklist to approve; if one does not hold, refuse with its reason.';
export const ALREADY_DECIDED =
  'This verification was already decided, or withdrawn. Nothing was changed.';
export const OWN_VERIFICATION = 'You cannot decide your own verification: another moderator must.';
export const CHOOSE_A_REASON = 'Choose the reason for refusing.';
export const NOTHING_TO_WITHDRAW = 'You have no verification to withdraw.';

export interface VerificationDeps {
  store: Store;
  photos: Pick<AppPhotos, 'storage'>;
  publisher?: Publisher;
  mailer: Mailer;
  mailSite: () => MailSite;
  now: () => Date;
}

/**
 * The moderator's form, as posted: `check-{item}` for each item of the checklist ticked,
 * `photo-{id}` for each photo that shows the same person (a form sends each box under its own
 * name; JSON sends the same names).
 */
export type ApprovalFields = Readonly<Record<string, unknown>>;

const ticked = (value: unknown) => value !== undefined && value !== '' && value !== false;

export const refusalSchema = z.object({
  reason: z.string().optional(),
  note: z.string().max(500, { error: 'The note must be at most 500 characters.' }).optional(),
});

/** Any id not a verification's. */
export const verificationNotFound = () =>
  new Refusal('not-found', 'There is no such verification.');

/** The member's photos a moderator compares the selfie with: on their ads live or in review. */
export async function photosToCompare(
  store: Store,
  accountId: number,
  _now: Date,
): Promise<{ photo: PhotoRow; ad: MemberAdRow }[]> {
  const photos = (await store.photos.listOwned(accountId)).filter(
    (photo) => photo.removedAt === null && photo.adId !== null && photo.variants.length > 0,
  );
  const found = [];
  for (const photo of photos) {
    const ad = await store.memberAds.find(photo.adId!);
    if (ad && ad.accountId === accountId && (ad.status === 'live' || ad.status === 'review'))
      found.push({ photo, ad });
  }
  return found;
}

async function submittedFor(tx: Store, moderator: Member, id: number) {
  const row = await tx.verifications.find(id);
  if (!row) throw verificationNotFound();
  await tx.lock(`verification:${row.accountId}`);
  if (row.accountId === moderator.accountId) throw new Refusal('forbidden', OWN_VERIFICATION);
  const now = await tx.verifications.find(id);
  if (now?.status !== 'submitted') throw new Refusal('conflict', ALREADY_DECIDED);
  return now;
}

/** Approves the selfie: Real person, and Photos verified on the photos ticked. */
export async function approveVerification(
  deps: VerificationDeps,
  moderator: Member,
  id: number,
  fields: ApprovalFields,
): Promise<void> {
  if (!(Object.keys(CHECKLIST) as ChecklistKey[]).every((key) => ticked(fields[`check-${key}`])))
    throw new Refusal('invalid', CHECKLIST_INCOMPLETE);
  const sameFace = new Set(
    Object.keys(fields)
      .filter((name) => /^photo-\d{1,15}$/.test(name) && ticked(fields[name]))
      .map((name) => Number(name.slice('photo-'.length))),
  );
  const now = deps.now();
  const at = now.toISOString();
  const { row, level, photoIds, email } = await deps.store.unitOfWork(async (tx) => {
    const row = await submittedFor(tx, moderator, id);
    const photoIds = (await photosToCompare(tx, row.accountId, now))
      .map(({ photo }) => photo.id)
      .filter((photoId) => sameFace.has(photoId));
    const level = photoIds.length > 0 ? ('photos' as const) : ('person' as const);
    const email = (await tx.moderation.account(row.accountId))?.email ?? null;
    await tx.verifications.approve(id, { level, photoIds, moderatorId: moderator.accountId, at });
    await tx.moderationLog.append({
      at,
      by: { accountId: moderator.accountId, email: moderator.email },
      action: 'approve-verification',
      accountId: row.accountId,
      accountEmail: email,
      note: `${level === 'photos' ? `Photos verified (${photoIds.length})` : 'Real person'}, verification ${id}`,
    });
    return { row, level, photoIds, email };
  });
  await forgetSelfie(deps.store, deps.photos, row, now);
  if (email)
    deps.mailer.send(verificationApprovedMail(deps.mailSite(), email, level, photoIds.length));
  publishSoon(deps.publisher, `verification ${id} approved`);
}

/** Refuses the selfie for a reason of the fixed list, with its statement of reasons. */
export async function refuseVerification(
  deps: VerificationDeps,
  moderator: Member,
  id: number,
  input: z.infer<typeof refusalSchema>,
): Promise<void> {
  const reason = input.reason ?? '';
  if (!isVerificationRefusal(reason))
    throw new Refusal('invalid', CHOOSE_A_REASON, { field: 'reason' });
  const note = input.note?.trim() || undefined;
  const now = deps.now();
  const at = now.toISOString();
  const { statementId, email } = await deps.store.unitOfWork(async (tx) => {
    const row = await submittedFor(tx, moderator, id);
    const email = (await tx.moderation.account(row.accountId))?.email ?? null;
    const logId = await tx.moderationLog.append({
      at,
      by: { accountId: moderator.accountId, email: moderator.email },
      action: 'refuse-verification',
      accountId: row.accountId,
      accountEmail: email,
      reason: VERIFICATION_REFUSALS[reason],
      note: note ?? null,
    });
    const statementId = await tx.statements.insert({
      logId,
      accountId: row.accountId,
      kind: 'verification-refused',
      reasonKey: reason,
      clause: RULE_CLAUSES.verificationRefused.number,
      facts: { reason: VERIFICATION_REFUSALS[reason], ...(note ? { note } : {}) },
      trigger: 'moderator',
      automatedDetection: false,
      automatedDecision: false,
      decidedBy: moderator.accountId,
      decidedAt: at,
      contentAt: null,
      appealUntil: appealDeadline(at),
    });
    await tx.verifications.refuse(id, {
      reason,
      moderatorId: moderator.accountId,
      at,
      statementId,
    });
    return { statementId, email };
  });
  const statement = email ? await statementMail(deps, statementId, now) : undefined;
  if (email && statement)
    deps.mailer.send(verificationRefusedMail(deps.mailSite(), email, statement.lines));
}

/** The member withdraws their verification: no badge from now on (the next publish). */
export async function withdrawVerification(deps: VerificationDeps, member: Member): Promise<void> {
  const withdrawn = await deps.store.verifications.withdraw(
    member.accountId,
    deps.now().toISOString(),
  );
  if (withdrawn === 0) throw new Refusal('conflict', NOTHING_TO_WITHDRAW);
  publishSoon(deps.publisher, `verification of account ${member.accountId} withdrawn`);
}
