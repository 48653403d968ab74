// What the moderators read about reports (core/views/reports.ts), from the store: the open
// reports grouped by ad and by conversation on /moderate/reports, urgent ones first, each with
// the ad as its first reporter saw it and as it is now, and the member reported with the scam
// shield's record of their messages; and the queue's line about them.
import type { ModerationReportsView, ReportGroup } from '../../core/views/reports.ts';
import type { ReportsSummary } from '../../core/views/moderation.ts';
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import { URGENT_REPORT_REASON } from '../../core/schemas/report-reasons.ts';
import { memberAdAsCompiled } from '../posting/ad-view.ts';
import type { AdCopy, ReportRow } from '../../store/parts/reports.ts';
import type { Store } from '../../store/store.ts';
import { changedSince } from './filing.ts';
import { groupKeyOf } from './groups.ts';
import { memberAdCopy } from './targets.ts';
import { scamRecordOf } from '../moderation/scam-records.ts';

/** Open reports read for the page: enough for any day's work, bounded. */
const GROUPS_READ = 2000;

/** The /moderate queue's line about reports. */
export const reportsSummary = (store: Store): Promise<ReportsSummary> =>
  store.reports.openCounts(URGENT_REPORT_REASON);

/** The open reports, grouped; `query` holds what the last action did (after its redirect). */
export async function reportsView(
  store: Store,
  query: Record<string, string>,
): Promise<Omit<ModerationReportsView, 'banConfirm'>> {
  const rows = await store.reports.open(GROUPS_READ);
  const byKey = new Map<string, ReportRow[]>();
  for (const row of rows) {
    const key = groupKeyOf(row);
    const group = byKey.get(key);
    if (group) group.push(row);
    else byKey.set(key, [row]);
  }
  const groups: ReportGroup[] = [];
  for (const [key, reports] of byKey) groups.push(await groupView(store, key, reports));
  // Urgent ones first, and of those, the ones reports did not hide, which may still be public
  // until a moderator looks (a doubted reporter's, a conversation); then hidden ones; then the
  // rest; oldest first.
  const rank = (group: ReportGroup) =>
    group.reports.some((report) => report.reason === URGENT_REPORT_REASON)
      ? group.hidden
        ? 1
        : 0
      : group.hidden
        ? 2
        : 3;
  groups.sort((a, b) => rank(a) - rank(b) || a.reports[0]!.id - b.reports[0]!.id);
  return { groups, open: await store.reports.openCount(), ...noticeOf(query) };
}

function compiledFrom(copy: AdCopy): CompiledAd {
  // An editor's ad may be a sample: the copy says so, and the page shows it.
  return {
    ...memberAdAsCompiled(copy, { postedAt: copy.postedAt, expiresAt: copy.postedAt }),
    sample: copy.sample,
  };
}

async function groupView(store: Store, key: string, rows: ReportRow[]): Promise<ReportGroup> {
  const first = rows[0]!;
  const newest = rows.at(-1)!;
  const copy = first.adCopy;
  const kind = first.conversationId === null ? 'ad' : 'conversation';
  const member =
    copy.kind === 'member' && first.adId ? await store.memberAds.find(first.adId) : undefined;
  const current = member && {
    status: member.status,
    ad: compiledFrom(memberAdCopy(member)),
    changed: changedSince(copy, memberAdCopy(member)),
  };
  const reportedId =
    kind === 'ad' ? (member?.accountId ?? first.reportedAccountId) : first.reportedAccountId;
  const account = reportedId ? await store.moderation.account(reportedId) : undefined;
  const hidden = kind === 'ad' ? (await store.hiddenAds.find(first.adId))?.why : undefined;
  const reports = rows.map((row) => ({
    id: row.id,
    reason: row.reason,
    note: row.note,
    at: row.createdAt,
    by: row.byMember ? ('a member' as const) : ('a visitor' as const),
    reporterDismissed: row.reason === URGENT_REPORT_REASON ? row.reporterDismissed : 0,
  }));
  return {
    key,
    kind,
    adId: first.adId,
    adKind: copy.kind,
    ad: compiledFrom(copy),
    ...(current ? { current } : {}),
    ...(hidden ? { hidden } : {}),
    urgent:
      hidden !== undefined || reports.some((report) => report.reason === URGENT_REPORT_REASON),
    ...(account
      ? {
          reportedAccount: {
            accountId: account.accountId,
            email: account.email,
            banned: account.bannedAt !== null,
            scamRecord: await scamRecordOf(store, account.accountId),
          },
        }
      : {}),
    reports,
    seen: newest.id,
    ...(newest.thread ? { thread: newest.thread } : {}),
    ...(first.conversationId !== null ? { conversationId: first.conversationId } : {}),
    canRemove: kind === 'ad' && hidden !== 'removed',
    canBan:
      account !== undefined &&
      account.bannedAt === null &&
      account.role !== 'moderator' &&
      (kind === 'conversation' || copy.kind === 'member'),
  };
}

const digits = (text: string | undefined) =>
  text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;

/** The line the page shows after an action's redirect. */
function noticeOf(query: Record<string, string>): Pick<ModerationReportsView, 'notice'> {
  const count = digits(query.count) ?? 0;
  const reports = count === 1 ? '1 report' : `${count} reports`;
  const ad = digits(query.ad);
  const about = ad ? ` about ad ${ad}` : '';
  const notices: Record<string, string> = {
    dismissed: `${reports}${about} dismissed.${query.back ? ' The ad goes back on the site within a minute.' : ''}`,
    removed: `Ad ${ad ?? ''} removed and ${reports} closed. ${query.editor ? 'It stays off the site: delete its row from content/ads/ too.' : 'The member has been emailed the reason.'}`,
    banned: query.already
      ? `The account was already banned; ${reports} closed.`
      : `The account is banned: signed out everywhere, its ads removed, and its address cannot sign up again. ${reports} closed.`,
  };
  const notice = query.done ? notices[query.done] : undefined;
  return notice ? { notice } : {};
}
