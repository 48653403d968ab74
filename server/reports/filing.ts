// Filing a report (docs/product.md section 8), in one unit of work holding the lock of what it is
// about (`ad:{id}`; a conversation's: `conversation:{id}`), so that what it reads still holds when
// it writes, on any number of instances:
//
// - One report per reporter per ad, and again only once a moderator decided their last one and the
//   ad has changed since (its text differs from that report's copy): the next round. One report per
//   reporter per conversation. Of one reporter's reports sent at once, one is stored and the others
//   are told they reported it already; the unique indexes stay the last word.
// - Whether it hides its ad: HIDE_AFTER_REPORTERS different reporters with open reports, or one
//   URGENT_REPORT_REASON report from a reporter with fewer than DOUBTED_AFTER_DISMISSED such
//   reports dismissed in DOUBTED_WITHIN_DAYS. Of any number of reports arriving at once, exactly
//   one hides the ad, writes it in the moderation log and asks for a publish.
// - A conversation report is about what someone wrote, not about the ad: it never hides it.
//
// The reporter is `account:{id}` for a signed-in member and, for a visitor, the HMAC of their
// address with a key made once per database (the store's secrets), the same on every instance:
// the address itself is never stored.
import { createHmac } from 'node:crypto';
import {
  DOUBTED_AFTER_DISMISSED,
  DOUBTED_WITHIN_DAYS,
  HIDE_AFTER_REPORTERS,
  REPORT_REASONS,
  URGENT_REPORT_REASON,
} from '../../core/schemas/report-reasons.ts';
import { Refusal } from '../../core/refusal.ts';
import type { AdCopy, NewReportRow } from '../../store/parts/reports.ts';
import type { Store } from '../../store/store.ts';
import { ALREADY_DECIDED, ALREADY_REPORTED, REPORTS_MODERATOR } from './texts.ts';
import { DAY_MS } from '../../core/days.ts';
import { recordHiddenStatement } from '../moderation/statements.ts';

export type { AdCopy };

/**
 * A report as its reporter files it: the row it becomes (the reporter's key from reporterOf), but
 * for what filing adds (when, which round, the reporter's dismissed reports) and with a
 * conversation and its thread optional.
 */
export type NewReport = Pick<
  NewReportRow,
  'adId' | 'reportedAccountId' | 'reporterKey' | 'reporterAccountId' | 'reason' | 'note' | 'adCopy'
> & {
  /** Set for a conversation report. */
  conversationId?: number;
  thread?: NewReportRow['thread'];
};

export type FileResult =
  | {
      kind: 'stored';
      id: number;
      /** Why the report hid its ad, when it did: the site must be published again. */
      hidden?: 'reports' | 'under-18';
      /** A member's ad hidden: its statement of reasons, for the member's mail. */
      statementId?: number;
      /** "Under 18" from a reporter with DOUBTED_AFTER_DISMISSED such reports dismissed lately. */
      doubted?: boolean;
    }
  /**
   * Reported already: the reporter's report is open, or (`decided`) a moderator decided it and
   * the ad has not changed since.
   */
  | { kind: 'duplicate'; decided: boolean };

const REPORTER_SECRET = 'reporter-key';

/** Who is reporting: a member by their account, a visitor by a keyed hash of their address. */
export function reporterKeys(store: Store) {
  let secret: Promise<Buffer> | undefined;
  return async (
    member: { accountId: number } | undefined,
    address: string,
  ): Promise<{ key: string; accountId: number | null }> => {
    if (member) return { key: `account:${member.accountId}`, accountId: member.accountId };
    // Read once per instance; asked again after a failure (the database was unreachable).
    secret ??= store.secrets.get(REPORTER_SECRET).catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    const hash = createHmac('sha256', await secret)
      .update(address)
      .digest('hex');
    return { key: `address:${hash}`, accountId: null };
  };
}

/** Stores a report, and hides its ad when it must. */
export function fileReport(store: Store, report: NewReport, now: Date): Promise<FileResult> {
  return store.unitOfWork(async (tx): Promise<FileResult> => {
    const conversationId = report.conversationId ?? null;
    await tx.lock(conversationId === null ? `ad:${report.adId}` : `conversation:${conversationId}`);
    const at = now.toISOString();
    let round = 1;
    if (conversationId === null) {
      const last = await tx.reports.lastOfReporter(report.adId, report.reporterKey);
      if (last?.open) return { kind: 'duplicate', decided: false };
      if (last && !changedSince(last.adCopy, report.adCopy))
        return { kind: 'duplicate', decided: true };
      round = (last?.round ?? 0) + 1;
    }
    const since = new Date(now.getTime() - DOUBTED_WITHIN_DAYS * DAY_MS).toISOString();
    const dismissed = await tx.reports.dismissedOf(report.reporterKey, URGENT_REPORT_REASON, since);
    const id = await tx.reports.insert({
      adId: report.adId,
      conversationId,
      reportedAccountId: report.reportedAccountId,
      reporterKey: report.reporterKey,
      reporterAccountId: report.reporterAccountId,
      reason: report.reason,
      note: report.note,
      adCopy: report.adCopy,
      thread: report.thread ?? null,
      createdAt: at,
      round,
      reporterDismissed: dismissed,
    });
    // Only a report that did not hold the lock could have been stored meanwhile: the unique
    // index had the last word.
    if (id === undefined) return { kind: 'duplicate', decided: false };
    if (conversationId !== null) return { kind: 'stored', id };
    const urgent = report.reason === URGENT_REPORT_REASON;
    // A reporter whose "under 18" reports moderators keep dismissing no longer hides an ad alone.
    const doubted = urgent && dismissed >= DOUBTED_AFTER_DISMISSED;
    const stored = { kind: 'stored' as const, id, ...(doubted ? { doubted } : {}) };
    const reporters = await tx.reports.openReporters(report.adId);
    const why =
      urgent && !doubted
        ? ('under-18' as const)
        : reporters >= HIDE_AFTER_REPORTERS
          ? ('reports' as const)
          : undefined;
    if (!why) return stored;
    const hid = await tx.hiddenAds.hideByReports(
      { adId: report.adId, kind: report.adCopy.kind, why },
      at,
    );
    if (!hid) return stored;
    const account =
      report.reportedAccountId === null
        ? undefined
        : await tx.moderation.account(report.reportedAccountId);
    const logId = await tx.moderationLog.append({
      at,
      by: { name: REPORTS_MODERATOR },
      action: 'hide',
      adId: report.adId,
      accountId: report.reportedAccountId,
      accountEmail: account?.email ?? null,
      reason: why === 'under-18' ? REPORT_REASONS['under-18'] : 'Reported by several people',
      note:
        why === 'under-18'
          ? 'Hidden at once: reported as possibly involving someone under 18.'
          : `Hidden at once: reported by ${reporters} different people.`,
    });
    // A member's ad: its member reads the statement of reasons of the rule that hid it.
    const ad = report.adCopy.kind === 'member' ? await tx.memberAds.find(report.adId) : undefined;
    if (!ad) return { ...stored, hidden: why };
    const reports = await tx.reports.openInGroup({ kind: 'ad', adId: report.adId });
    const statementId = await recordHiddenStatement(tx, { logId, ad, why, reports, at });
    return { ...stored, hidden: why, statementId };
  });
}

/** The answer to a report that was not stored. */
export const duplicateRefusal = (result: Extract<FileResult, { kind: 'duplicate' }>) =>
  new Refusal('conflict', result.decided ? ALREADY_DECIDED : ALREADY_REPORTED);

/** Why the site is published again after a report hid its ad. */
export const hiddenPublishReason = (adId: number, why: 'reports' | 'under-18') =>
  `hid ad ${adId} (${why === 'under-18' ? 'reported as possibly under 18' : 'reported by 3 people'})`;

/** Whether the ad reads otherwise than in an earlier report's copy: it was edited since. */
export function changedSince(earlier: AdCopy, now: AdCopy): boolean {
  return (
    earlier.title !== now.title ||
    earlier.description !== now.description ||
    earlier.age !== now.age ||
    earlier.seeks !== now.seeks
  );
}
