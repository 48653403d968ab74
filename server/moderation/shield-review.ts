// The moderators' review of the scam shield (docs/product.md section 7, issue 51 item 4): what
// moderators decide becomes labelled texts an editor reviews into the shield's corpus.
//
// - The message flow records each refusal and warning of a first message (store.shieldDecisions
//   .record, in the message's unit of work); /moderate/shield lists them, newest first, without
//   who sent or received them, and they are deleted SHIELD_DECISION_DAYS after they were made.
// - A moderator marks one mistaken, once: its text waits as an 'ordinary' text to label.
// - A ban for "Scam or fraud" takes, in the ban's unit of work, the texts of the account's first
//   messages (those it sent before the other side answered, as the shield counts them) as 'scam'
//   texts to label, so that deleting the account or its messages later loses none of them.
// - Texts to label hold the text, the label and why: no account, no message, no moderator.
//   `npm run shield:labels` writes them for an editor (shield-labels.ts); exported ones are
//   deleted SHIELD_DECISION_DAYS after the export.
import { DAY_MS } from '../../core/days.ts';
import { formatDate } from '../../core/format.ts';
import { SCAM_FAMILY_NAMES, type ScamFamily } from '../../core/policy/index.ts';
import { Refusal } from '../../core/refusal.ts';
import type { ModerateShieldView, ShieldDecisionItem } from '../../core/views/shield-review.ts';
import type { ShieldDecisionRow } from '../../store/parts/shield-decisions.ts';
import type { Store } from '../../store/store.ts';

/** A decision is kept this many days for the moderators (and an exported text as long). */
export const SHIELD_DECISION_DAYS = 30;
/** Decisions a page of /moderate/shield lists. */
export const SHIELD_PAGE_SIZE = 50;
/**
 * The banned account's first messages taken, each text once (the oldest): a scammer sending
 * one text to hundreds of members is one text, and an editor reads no more of one account.
 */
export const SCAM_TEXTS_PER_BAN = 50;

export const NO_SUCH_DECISION =
  'There is no such decision of the scam shield: decisions are deleted after 30 days.';

export const alreadyMarked = (at: string) =>
  `This decision was marked mistaken already, by a moderator on ${formatDate(at.slice(0, 10))}.`;

/** A family as moderators read it: the signals' names, else the family's own key in words. */
const familyInWords = (family: string) =>
  family in SCAM_FAMILY_NAMES
    ? SCAM_FAMILY_NAMES[family as ScamFamily]
    : family.replaceAll('-', ' ');

const percentOf = (probability: number) => Math.round(probability * 100);

function itemOf(row: ShieldDecisionRow): ShieldDecisionItem {
  return {
    id: row.id,
    text: row.text,
    outcome: row.outcome,
    decidedBy: row.by,
    families: row.families.map(familyInWords),
    percent: percentOf(row.probability),
    adjustedPercent: percentOf(row.adjusted),
    behaviour: row.behaviour,
    at: row.at,
    ...(row.markedMistakenAt ? { markedMistakenAt: row.markedMistakenAt } : {}),
  };
}

/** /moderate/shield: a page of decisions, newest first (before the decision `before`, if any). */
export async function shieldReviewView(store: Store, before?: number): Promise<ModerateShieldView> {
  const rows = await store.shieldDecisions.recent(SHIELD_PAGE_SIZE + 1, before);
  const shown = rows.slice(0, SHIELD_PAGE_SIZE);
  return {
    decisions: shown.map(itemOf),
    ...(before !== undefined ? { before } : {}),
    ...(rows.length > SHIELD_PAGE_SIZE ? { older: shown.at(-1)!.id } : {}),
  };
}

/** A moderator marks a refusal or a warning mistaken: its text waits to be labelled 'ordinary'. */
export function markShieldDecisionMistaken(
  store: Store,
  moderatorId: number,
  decisionId: number,
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  return store.unitOfWork(async (tx) => {
    const decision = await tx.shieldDecisions.find(decisionId);
    if (!decision) throw new Refusal('not-found', NO_SUCH_DECISION);
    if (decision.markedMistakenAt)
      throw new Refusal('conflict', alreadyMarked(decision.markedMistakenAt));
    if (!(await tx.shieldDecisions.markMistaken(decisionId, moderatorId, at))) {
      // Another moderator, at this very moment: theirs is the mark.
      const marked = await tx.shieldDecisions.find(decisionId);
      throw marked?.markedMistakenAt
        ? new Refusal('conflict', alreadyMarked(marked.markedMistakenAt))
        : new Refusal('not-found', NO_SUCH_DECISION);
    }
    await tx.shieldDecisions.addCandidates(
      [{ label: 'ordinary', text: decision.text, reason: 'marked-mistaken' }],
      at,
    );
  });
}

/**
 * In the unit of work of a ban for scam or fraud: the account's first messages become 'scam'
 * texts to label; how many.
 */
export async function labelFirstMessagesOfFraud(
  tx: Store,
  accountId: number,
  at: string,
): Promise<number> {
  const texts = await tx.shieldDecisions.firstMessagesOf(accountId, SCAM_TEXTS_PER_BAN);
  return tx.shieldDecisions.addCandidates(
    texts.map((text) => ({ label: 'scam', text, reason: 'banned-for-fraud' })),
    at,
  );
}

/**
 * Decisions older than SHIELD_DECISION_DAYS, and texts exported longer ago, deleted (every hour,
 * server/index.ts); how many of each.
 */
export async function forgetOldShieldDecisions(
  store: Store,
  now: Date,
): Promise<{ decisions: number; exported: number }> {
  const before = new Date(now.getTime() - SHIELD_DECISION_DAYS * DAY_MS).toISOString();
  return {
    decisions: await store.shieldDecisions.forgetBefore(before),
    exported: await store.shieldDecisions.forgetExportedBefore(before),
  };
}
