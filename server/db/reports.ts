// Reports (docs/product.md section 8; table reports of migrations 5 and 7): storing one, and deciding
// in the same BEGIN IMMEDIATE transaction whether it is one the reporter may send (one per ad, and
// again only once a moderator decided their last one and the ad has changed since) and whether it
// hides its ad (3 different open reporters, or one "May involve someone under 18" from a reporter
// with fewer than 2 such reports dismissed in 90 days), so that of any number of reports arriving
// at once exactly one hides the ad and asks for a publish; reading the open ones for the
// moderators; and resolving a group of them (dismiss, remove, ban) against what the moderator saw:
// of two moderators acting on one group, exactly one changes it. All SQL about reports lives here.
import type { AdKind, HiddenWhy, ThreadLine } from '../../src/pages/report-view.ts';
import type { ReportAction } from '../../src/schemas/report.ts';
import {
  DOUBTED_AFTER_DISMISSED,
  DOUBTED_WITHIN_DAYS,
  HIDE_AFTER_REPORTERS,
  REPORT_REASONS,
  URGENT_REPORT_REASON,
  type ReportReason,
} from '../../src/schemas/report-reasons.ts';
import { conversationStore } from './conversations.ts';
import type { Db } from './database.ts';
import { memberAdStore } from './member-ads.ts';
import { hiddenAdStore } from './hidden-ads.ts';
import { moderationStore, type MemberAdRow, type Moderator } from './moderation.ts';

/** The ad as the reporter saw it (reports.ad_copy). */
export interface AdCopy {
  kind: AdKind;
  id: number;
  state: string;
  city: string;
  age: number;
  seeks: string;
  title: string;
  description: string;
  postedAt: string;
  sample: boolean;
}

export interface NewReport {
  adId: number;
  /** Set for a conversation report. */
  conversationId?: number;
  reportedAccountId: number | null;
  /** `account:{id}` or `address:{keyed hash}`. */
  reporterKey: string;
  reporterAccountId: number | null;
  reason: ReportReason;
  note: string;
  adCopy: AdCopy;
  thread?: ThreadLine[];
}

export type FileResult =
  | {
      kind: 'stored';
      id: number;
      hidden?: 'reports' | 'under-18';
      /** "Under 18" from a reporter with DOUBTED_AFTER_DISMISSED such reports dismissed lately. */
      doubted?: boolean;
    }
  /**
   * Reported already: the reporter's report is open, or (`decided`) a moderator decided it and
   * the ad has not changed since.
   */
  | { kind: 'duplicate'; decided: boolean };

export interface OpenReportRow {
  id: number;
  adId: number;
  conversationId: number | null;
  reportedAccountId: number | null;
  byMember: 0 | 1;
  reason: ReportReason;
  note: string;
  adCopy: string;
  thread: string | null;
  createdAt: string;
  /** The reporter's "under 18" reports dismissed in the DOUBTED_WITHIN_DAYS before this one. */
  reporterDismissed: number;
}

export type ResolveResult =
  | {
      kind: 'done';
      action: ReportAction;
      resolved: number;
      /** Why the site must be published again, when it must. */
      publish?: string;
      /** A member's ad the removal took off the site (its member is mailed). */
      removedAd?: MemberAdRow;
      banned?: { accountId: number; email: string; removedAds: number; already: boolean };
    }
  | { kind: 'unknown' }
  | { kind: 'refused'; status: 400 | 403 | 404 | 409; message: string };

const RESOLUTION: Record<ReportAction, 'dismissed' | 'removed' | 'banned'> = {
  dismiss: 'dismissed',
  remove: 'removed',
  ban: 'banned',
};
const DONE_WORDS: Record<string, string> = {
  dismissed: 'dismissed them',
  removed: 'removed the ad',
  banned: 'banned the account',
};

/** `ad:{id}` or `conversation:{id}:{reported account id, 0 for none}`. */
export type GroupKey =
  | { kind: 'ad'; adId: number }
  | { kind: 'conversation'; conversationId: number; reportedAccountId: number };

export function parseGroupKey(key: string): GroupKey | undefined {
  const ad = /^ad:(\d{1,15})$/.exec(key);
  if (ad) return { kind: 'ad', adId: Number(ad[1]) };
  const conversation = /^conversation:(\d{1,15}):(\d{1,15})$/.exec(key);
  if (conversation)
    return {
      kind: 'conversation',
      conversationId: Number(conversation[1]),
      reportedAccountId: Number(conversation[2]),
    };
  return undefined;
}

export const groupKeyOf = (
  row: Pick<OpenReportRow, 'adId' | 'conversationId' | 'reportedAccountId'>,
) =>
  row.conversationId === null
    ? `ad:${row.adId}`
    : `conversation:${row.conversationId}:${row.reportedAccountId ?? 0}`;

const REPORT_COLUMNS = `id, ad_id AS adId, conversation_id AS conversationId,
  reported_account_id AS reportedAccountId,
  (reporter_key LIKE 'account:%') AS byMember, reason, note, ad_copy AS adCopy, thread,
  created_at AS createdAt, reporter_dismissed AS reporterDismissed FROM reports`;
const IN_GROUP = `((@conversationId IS NULL AND conversation_id IS NULL AND ad_id = @adId)
  OR (@conversationId IS NOT NULL AND conversation_id = @conversationId
      AND COALESCE(reported_account_id, 0) = @reportedAccountId))`;

export function reportStore(db: Db) {
  const memberAds = memberAdStore(db);
  const conversations = conversationStore(db);
  const hidden = hiddenAdStore(db);
  const moderation = moderationStore(db);
  const insert = db.prepare(
    `INSERT INTO reports (ad_id, conversation_id, reported_account_id, reporter_key,
       reporter_account_id, reason, note, ad_copy, thread, created_at, reporter_round,
       reporter_dismissed)
     VALUES (@adId, @conversationId, @reportedAccountId, @reporterKey, @reporterAccountId,
       @reason, @note, @adCopy, @thread, @createdAt, @round, @dismissed)
     ON CONFLICT DO NOTHING`,
  );
  // The reporter's last report of an ad (not of a conversation about it): open, or decided.
  const lastOfReporter = db.prepare(
    `SELECT reporter_round AS round, resolved_at IS NULL AS open, ad_copy AS adCopy FROM reports
     WHERE ad_id = ? AND reporter_key = ? AND conversation_id IS NULL
     ORDER BY reporter_round DESC LIMIT 1`,
  );
  const dismissedOfReporter = db.prepare(
    `SELECT COUNT(*) AS n FROM reports
     WHERE reporter_key = ? AND reason = '${URGENT_REPORT_REASON}' AND resolution = 'dismissed'
       AND resolved_at >= ?`,
  );
  const openReporters = db.prepare(
    `SELECT COUNT(DISTINCT reporter_key) AS n FROM reports
     WHERE ad_id = ? AND conversation_id IS NULL AND resolved_at IS NULL`,
  );
  const open = db.prepare(`SELECT ${REPORT_COLUMNS} WHERE resolved_at IS NULL ORDER BY id LIMIT ?`);
  const openCount = db.prepare('SELECT COUNT(*) AS n FROM reports WHERE resolved_at IS NULL');
  // Ads with open reports as possibly under 18 that reports did not hide (their reporters were
  // doubted).
  const urgentOnSite = db.prepare(
    `SELECT COUNT(DISTINCT ad_id) AS n FROM reports
     WHERE resolved_at IS NULL AND conversation_id IS NULL AND reason = '${URGENT_REPORT_REASON}'
       AND ad_id NOT IN (SELECT ad_id FROM hidden_ads)`,
  );
  const hiddenWithOpen = db.prepare(
    `SELECT COUNT(*) AS hiddenAds,
       COUNT(CASE WHEN why = 'under-18' OR EXISTS (SELECT 1 FROM reports
         WHERE reports.ad_id = hidden_ads.ad_id AND reports.resolved_at IS NULL
           AND reports.reason = '${URGENT_REPORT_REASON}') THEN 1 END) AS urgentAds
     FROM hidden_ads WHERE why IN ('reports', 'under-18')
       AND EXISTS (SELECT 1 FROM reports WHERE reports.ad_id = hidden_ads.ad_id
         AND reports.conversation_id IS NULL AND reports.resolved_at IS NULL)`,
  );
  const openInGroup = db.prepare(
    `SELECT ${REPORT_COLUMNS} WHERE resolved_at IS NULL AND ${IN_GROUP} ORDER BY id`,
  );
  const lastResolvedInGroup = db.prepare(
    `SELECT resolution, resolved_at AS resolvedAt, accounts.email AS moderator
     FROM reports LEFT JOIN accounts ON accounts.id = reports.resolved_by
     WHERE resolved_at IS NOT NULL AND ${IN_GROUP} ORDER BY resolved_at DESC, reports.id DESC
     LIMIT 1`,
  );
  const resolveGroup = db.prepare(
    `UPDATE reports SET resolved_at = @at, resolution = @resolution, resolved_by = @moderatorId
     WHERE resolved_at IS NULL AND id <= @seen AND ${IN_GROUP}`,
  );
  const account = db.prepare(
    'SELECT id, email, role, banned_at AS bannedAt FROM accounts WHERE id = ?',
  );
  const insertLog = db.prepare(
    `INSERT INTO moderation_log (at, moderator_id, moderator_email, action, ad_id, account_id,
       account_email, reason, note)
     VALUES (@at, @moderatorId, @moderatorEmail, @action, @adId, @accountId, @accountEmail,
       @reason, @note)`,
  );

  const file = db.transaction((report: NewReport, at: string): FileResult => {
    let round = 1;
    if (report.conversationId === undefined) {
      const last = lastOfReporter.get(report.adId, report.reporterKey) as
        { round: number; open: 0 | 1; adCopy: string } | undefined;
      if (last?.open) return { kind: 'duplicate', decided: false };
      if (last && !changedSince(JSON.parse(last.adCopy) as AdCopy, report.adCopy))
        return { kind: 'duplicate', decided: true };
      round = (last?.round ?? 0) + 1;
    }
    const since = new Date(Date.parse(at) - DOUBTED_WITHIN_DAYS * DAY_MS).toISOString();
    const dismissed = (dismissedOfReporter.get(report.reporterKey, since) as { n: number }).n;
    const stored = insert.run({
      adId: report.adId,
      conversationId: report.conversationId ?? null,
      reportedAccountId: report.reportedAccountId,
      reporterKey: report.reporterKey,
      reporterAccountId: report.reporterAccountId,
      reason: report.reason,
      note: report.note,
      adCopy: JSON.stringify(report.adCopy),
      thread: report.thread ? JSON.stringify(report.thread) : null,
      createdAt: at,
      round,
      dismissed,
    });
    if (stored.changes !== 1) return { kind: 'duplicate', decided: false };
    const id = Number(stored.lastInsertRowid);
    // A conversation report is about what someone wrote, not about the ad: it never hides it.
    if (report.conversationId !== undefined) return { kind: 'stored', id };
    const reporters = (openReporters.get(report.adId) as { n: number }).n;
    const urgent = report.reason === URGENT_REPORT_REASON;
    // A reporter whose "under 18" reports moderators keep dismissing no longer hides an ad alone.
    const doubted = urgent && dismissed >= DOUBTED_AFTER_DISMISSED;
    const filed = { kind: 'stored' as const, id, ...(doubted ? { doubted } : {}) };
    const why =
      urgent && !doubted
        ? ('under-18' as const)
        : reporters >= HIDE_AFTER_REPORTERS
          ? ('reports' as const)
          : undefined;
    if (!why) return filed;
    const hid = hidden.hideByReports(
      {
        adId: report.adId,
        kind: report.adCopy.kind,
        why,
        accountId: report.reportedAccountId,
      },
      why === 'under-18' ? REPORT_REASONS['under-18'] : 'Reported by several people',
      why === 'under-18'
        ? 'Hidden at once: reported as possibly involving someone under 18.'
        : `Hidden at once: reported by ${reporters} different people.`,
      at,
    );
    return hid ? { ...filed, hidden: why } : filed;
  });

  function log(entry: {
    at: string;
    moderator: Moderator;
    action: string;
    adId: number | null;
    accountId: number | null;
    accountEmail: string | null;
    reason?: string;
    note?: string;
  }) {
    insertLog.run({
      at: entry.at,
      moderatorId: entry.moderator.accountId,
      moderatorEmail: entry.moderator.email,
      action: entry.action,
      adId: entry.adId,
      accountId: entry.accountId,
      accountEmail: entry.accountEmail,
      reason: entry.reason ?? null,
      note: entry.note ?? null,
    });
  }

  const emailOf = (accountId: number | null) =>
    accountId === null
      ? null
      : ((account.get(accountId) as { email: string } | undefined)?.email ?? null);

  const resolve = db.transaction(
    (
      key: GroupKey,
      seen: number,
      action: ReportAction,
      moderator: Moderator,
      why: { reason: string; note?: string } | undefined,
      at: string,
    ): ResolveResult => {
      const params =
        key.kind === 'ad'
          ? { adId: key.adId, conversationId: null, reportedAccountId: 0 }
          : { adId: 0, ...key };
      const reports = openInGroup.all(params) as OpenReportRow[];
      if (reports.length === 0) {
        const last = lastResolvedInGroup.get(params) as
          { resolution: string; resolvedAt: string; moderator: string | null } | undefined;
        if (!last) return { kind: 'unknown' };
        return {
          kind: 'refused',
          status: 409,
          message: `These reports were already handled by ${last.moderator ?? 'another moderator'}, who ${DONE_WORDS[last.resolution] ?? 'closed them'} (${last.resolvedAt.slice(0, 16).replace('T', ' ')} UTC). Nothing was changed.`,
        };
      }
      if (reports.at(-1)!.id !== seen)
        return {
          kind: 'refused',
          status: 409,
          message:
            'New reports arrived since you opened the page, so nothing was changed. Read them below and decide again.',
        };
      const first = reports[0]!;
      const adId = first.adId;
      const adKind = (JSON.parse(first.adCopy) as AdCopy).kind;
      const reportedId = first.reportedAccountId;
      const result: Extract<ResolveResult, { kind: 'done' }> = {
        kind: 'done',
        action,
        resolved: reports.length,
      };
      const base = { at, moderator, adId: adId || null };

      if (action === 'dismiss') {
        const wasHidden = hidden.find(adId);
        const back =
          key.kind === 'ad' && wasHidden !== undefined && wasHidden.why !== 'removed'
            ? hidden.unhide(adId)
            : false;
        if (back) result.publish = `dismissed the reports of ad ${adId}`;
        log({
          ...base,
          action: 'dismiss',
          accountId: reportedId,
          accountEmail: emailOf(reportedId),
          note: [
            `${reports.length === 1 ? '1 report' : `${reports.length} reports`} dismissed${back ? '; the ad goes back on the site' : ''}.`,
            why?.note,
          ]
            .filter(Boolean)
            .join(' '),
        });
      }

      if (action === 'remove') {
        if (key.kind !== 'ad')
          return {
            kind: 'refused',
            status: 400,
            message:
              'Remove applies to an ad. For a conversation, dismiss the reports or ban the member.',
          };
        const wasHidden = hidden.find(adId);
        if (adKind === 'editor') {
          hidden.removeForGood(adId, 'editor', at);
          if (!wasHidden) result.publish = `removed editor's ad ${adId}`;
          log({
            ...base,
            action: 'remove',
            accountId: null,
            accountEmail: null,
            reason: why!.reason,
            note: [
              why!.note,
              "An editor's ad: it stays off the site; delete its row from content/ads/ too.",
            ]
              .filter(Boolean)
              .join(' '),
          });
        } else {
          const ad = moderation.findAd(adId);
          if (ad && ad.accountId === moderator.accountId)
            return {
              kind: 'refused',
              status: 403,
              message: 'This is your own ad: another moderator must decide on its reports.',
            };
          if (ad?.status === 'live') {
            const removed = moderation.remove(adId, ad.revision, moderator, why!, new Date(at));
            if (removed.kind !== 'done')
              return {
                kind: 'refused',
                status: 409,
                message:
                  removed.kind === 'conflict' ? removed.message : 'The ad changed; look again.',
              };
            result.removedAd = removed.ad;
            if (!wasHidden) result.publish = `removed ad ${adId} after reports`;
          } else {
            log({
              ...base,
              action: 'remove',
              accountId: ad?.accountId ?? reportedId,
              accountEmail: ad?.accountEmail ?? emailOf(reportedId),
              reason: why!.reason,
              note: `The ad was already off the site (${ad ? ad.status : 'its account is gone'}); the reports are closed.`,
            });
          }
          hidden.unhide(adId);
        }
      }

      if (action === 'ban') {
        if (key.kind === 'ad' && adKind === 'editor')
          return {
            kind: 'refused',
            status: 400,
            message: "An editor's ad has no member account to ban. Remove the ad instead.",
          };
        const target =
          key.kind === 'ad' ? (moderation.findAd(adId)?.accountId ?? reportedId) : reportedId;
        if (target === null || target === 0)
          return {
            kind: 'refused',
            status: 404,
            message: "The member's account no longer exists: there is nobody to ban.",
          };
        if (target === moderator.accountId)
          return { kind: 'refused', status: 403, message: 'You cannot ban your own account.' };
        const banned = moderation.ban(target, moderator, why!, new Date(at));
        if (banned.kind === 'unknown')
          return {
            kind: 'refused',
            status: 404,
            message: "The member's account no longer exists: there is nobody to ban.",
          };
        if (banned.kind === 'moderator')
          return {
            kind: 'refused',
            status: 403,
            message: `${banned.email} is a moderator. An operator must take the role away first (npm run moderator -- remove ${banned.email}).`,
          };
        if (banned.kind === 'conflict') {
          // Banned already (from the queue, say): the reports are closed with it.
          result.banned = {
            accountId: target,
            email: emailOf(target) ?? '',
            removedAds: 0,
            already: true,
          };
        } else {
          result.banned = {
            accountId: target,
            email: banned.email,
            removedAds: banned.removedLive.length + banned.removedInReview.length,
            already: false,
          };
          if (banned.removedLive.length > 0)
            result.publish = `banned account ${target}: removed ads ${banned.removedLive.join(', ')}`;
        }
        if (key.kind === 'ad') hidden.unhide(adId);
      }

      resolveGroup.run({
        ...params,
        at,
        seen,
        resolution: RESOLUTION[action],
        moderatorId: moderator.accountId,
      });
      return result;
    },
  );

  return {
    /** Stores a report and hides its ad when it must, in one immediate transaction. */
    file(report: NewReport, now = new Date()): FileResult {
      return file.immediate(report, now.toISOString());
    },
    /** A member's ad by id, whatever its status (the route decides whether it is published). */
    memberAd: (adId: number) => memberAds.find(adId),
    /** The conversation, if `memberId` is one of its two sides; undefined for anyone else. */
    conversationOf: (conversationId: number, memberId: number) =>
      conversations.find(conversationId, memberId),
    /** The thread as the reporter sees it now: who wrote each message, when, and what. */
    threadOf(conversationId: number, reporterId: number): ThreadLine[] {
      return conversations.messages(conversationId).map((row) => ({
        from: row.senderId === reporterId ? 'reporter' : 'reported',
        at: row.sentAt,
        body: row.body,
      }));
    },
    open(limit: number): OpenReportRow[] {
      return open.all(limit) as OpenReportRow[];
    },
    openCount(): number {
      return (openCount.get() as { n: number }).n;
    },
    summary(): { open: number; hiddenAds: number; urgentAds: number; urgentOnSite: number } {
      const hiddenCounts = hiddenWithOpen.get() as { hiddenAds: number; urgentAds: number };
      const onSite = (urgentOnSite.get() as { n: number }).n;
      return { open: this.openCount(), ...hiddenCounts, urgentOnSite: onSite };
    },
    hidden(adId: number): HiddenWhy | undefined {
      return hidden.find(adId)?.why;
    },
    account(accountId: number) {
      return account.get(accountId) as
        { id: number; email: string; role: string; bannedAt: string | null } | undefined;
    },
    /** Resolves every open report of a group, if its newest is the one the moderator saw. */
    resolve(
      key: GroupKey,
      seen: number,
      action: ReportAction,
      moderator: Moderator,
      why: { reason: string; note?: string } | undefined,
      now = new Date(),
    ): ResolveResult {
      return resolve.immediate(key, seen, action, moderator, why, now.toISOString());
    },
  };
}

export type ReportStore = ReturnType<typeof reportStore>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether the ad reads otherwise than in an earlier report's copy: it was edited since. */
function changedSince(earlier: AdCopy, now: AdCopy): boolean {
  return (
    earlier.title !== now.title ||
    earlier.description !== now.description ||
    earlier.age !== now.age ||
    earlier.seeks !== now.seeks
  );
}
