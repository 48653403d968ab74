// Statements of reasons (docs/product.md section 6): every restriction a moderator or a
// rule makes — an ad rejected, removed or hidden by reports, an edit rejected, a photo removed, an
// account banned — is written with its statement, in the decision's own unit of work, keyed to
// its moderation log row: what was restricted, the clause of the terms it applies
// (core/schemas/terms-clauses.ts), the facts (the words or photo, the report reasons and their
// count, never who reported), what triggered it and whether automatic means detected or decided
// it, and until when it can be appealed. The words the member reads are statement-view.ts's.
import { REPORT_REASONS, type ReportReason } from '../../core/schemas/report-reasons.ts';
import { REASON_CLAUSES, RULE_CLAUSES } from '../../core/schemas/terms-clauses.ts';
import {
  MODERATION_REASONS,
  type ModerationReason,
} from '../../core/schemas/moderation-reasons.ts';
import { SCAM_FAMILY_NAMES } from '../../core/policy/scam-signals.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import type { Moderator } from '../../store/parts/moderation-log.ts';
import type { Why } from '../../store/parts/moderation.ts';
import type {
  StatementFacts,
  StatementKind,
  StatementTrigger,
} from '../../store/parts/statements.ts';
import type { Store } from '../../store/store.ts';
import { parseMarks } from './review.ts';

/** How long a member has to appeal a decision. */
export const APPEAL_MONTHS = 6;

/** The last moment a decision made `at` can be appealed. */
export function appealDeadline(at: string): string {
  const date = new Date(at);
  date.setUTCMonth(date.getUTCMonth() + APPEAL_MONTHS);
  return date.toISOString();
}

/** What prompted a decision: a moderator's own review (the queue), or reports. */
export type DecisionSource =
  { trigger: 'moderator' } | { trigger: 'report'; reports: { reason: string; count: number }[] };

export const OWN_REVIEW: DecisionSource = { trigger: 'moderator' };

/** The reports behind a decision, as a statement tells them: each reason and how many. */
export function reportSource(reports: readonly { reason: ReportReason }[]): DecisionSource {
  const counts = new Map<string, number>();
  for (const { reason } of reports) {
    const label = REPORT_REASONS[reason] ?? reason;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return { trigger: 'report', reports: [...counts].map(([reason, count]) => ({ reason, count })) };
}

/** What the policy scanner flagged in a text (its words, and scam signals by family). */
function flagsOf(marksJson: string | null): string[] {
  const flags = new Set<string>();
  for (const mark of parseMarks(marksJson))
    flags.add(mark.family ? `scam signal: ${SCAM_FAMILY_NAMES[mark.family]}` : `“${mark.term}”`);
  return [...flags];
}

interface Decided {
  logId: number;
  moderator: Moderator;
  why: Why;
  at: string;
  source: DecisionSource;
}

/** The reason's key of the label a Why carries ('other' for a label the list does not have). */
const reasonKeyOf = (label: string) =>
  ((Object.keys(MODERATION_REASONS) as ModerationReason[]).find(
    (key) => MODERATION_REASONS[key] === label,
  ) ?? 'other') as ModerationReason;

const clauseOfReason = (why: Why) => {
  const key = reasonKeyOf(why.reason);
  return { reasonKey: key, clause: REASON_CLAUSES[key].number };
};

function common(decided: Decided, flags: string[]) {
  const { source } = decided;
  return {
    logId: decided.logId,
    ...clauseOfReason(decided.why),
    trigger: source.trigger as StatementTrigger,
    automatedDetection: flags.length > 0,
    automatedDecision: false,
    decidedBy: decided.moderator.accountId,
    decidedAt: decided.at,
    appealUntil: appealDeadline(decided.at),
  };
}

const whyFacts = (decided: Decided): Pick<StatementFacts, 'reason' | 'note' | 'reports'> => ({
  reason: decided.why.reason,
  ...(decided.why.note ? { note: decided.why.note } : {}),
  ...(decided.source.trigger === 'report' ? { reports: decided.source.reports } : {}),
});

/** The statement of a decision on an ad: rejected, its edit rejected, or removed. */
export async function recordAdStatement(
  tx: Store,
  kind: Extract<StatementKind, 'ad-rejected' | 'edit-rejected' | 'ad-removed'>,
  ad: MemberAdRow,
  decided: Decided,
): Promise<number> {
  const edit = kind === 'edit-rejected';
  const flags = flagsOf(edit ? (ad.pendingMarks ?? ad.marks) : ad.marks);
  const title = (edit ? ad.pendingTitle : null) ?? ad.title;
  const description = (edit ? ad.pendingDescription : null) ?? ad.description;
  return tx.statements.insert({
    ...common(decided, flags),
    accountId: ad.accountId,
    kind,
    adId: ad.id,
    facts: {
      ...whyFacts(decided),
      title,
      description,
      ...(edit
        ? {
            edit: {
              title,
              description,
              age: ad.pendingAge ?? ad.age,
              seeks: ad.pendingSeeks ?? ad.seeks,
            },
          }
        : {}),
      ...(flags.length > 0 ? { flags } : {}),
    },
    contentAt: ad.submittedAt,
  });
}

/** The statement of a ban, with the ads it removed. */
export async function recordBanStatement(
  tx: Store,
  account: { accountId: number; createdAt?: string },
  removedAds: { id: number; status: 'review' | 'live' }[],
  decided: Decided,
): Promise<number> {
  return tx.statements.insert({
    ...common(decided, []),
    accountId: account.accountId,
    kind: 'account-banned',
    facts: { ...whyFacts(decided), removedAds },
    contentAt: account.createdAt ?? null,
  });
}

/** The statement of a photo's removal. */
export async function recordPhotoStatement(
  tx: Store,
  photo: {
    id: number;
    accountId: number;
    adId: number | null;
    createdAt: string;
    alt: string;
    at?: number;
    pendingAt?: number;
  },
  decided: Decided,
): Promise<number> {
  const place = {
    ...(photo.at !== undefined ? { at: photo.at } : {}),
    ...(photo.pendingAt !== undefined ? { pendingAt: photo.pendingAt } : {}),
  };
  return tx.statements.insert({
    ...common(decided, []),
    accountId: photo.accountId,
    kind: 'photo-removed',
    adId: photo.adId,
    photoId: photo.id,
    facts: { ...whyFacts(decided), photo: { id: photo.id, alt: photo.alt, ...place } },
    contentAt: photo.createdAt,
  });
}

/** The statement of an ad the reports rule hid: no person decided, and reports prompted it. */
export async function recordHiddenStatement(
  tx: Store,
  hidden: {
    logId: number;
    ad: MemberAdRow;
    why: 'reports' | 'under-18';
    reports: { reason: ReportReason }[];
    at: string;
  },
): Promise<number> {
  const source = reportSource(hidden.reports);
  return tx.statements.insert({
    logId: hidden.logId,
    accountId: hidden.ad.accountId,
    kind: 'ad-hidden',
    adId: hidden.ad.id,
    reasonKey: hidden.why === 'under-18' ? 'under-18-report' : 'reports',
    clause: RULE_CLAUSES.hiddenByReports.number,
    facts: {
      reason:
        hidden.why === 'under-18'
          ? 'Reported as possibly involving someone under 18'
          : 'Reported by several people',
      title: hidden.ad.title,
      description: hidden.ad.description,
      ...(source.trigger === 'report' ? { reports: source.reports } : {}),
    },
    trigger: 'automatic',
    automatedDetection: false,
    automatedDecision: true,
    decidedBy: null,
    decidedAt: hidden.at,
    contentAt: hidden.ad.submittedAt,
    appealUntil: appealDeadline(hidden.at),
  });
}
