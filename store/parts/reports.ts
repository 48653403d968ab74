// Reports (table reports; docs/product.md section 8): what is stored and read. Whether a report may
// be sent, whether it hides its ad, and how a moderator's decision closes a group are
// server/reports/'s rules, which run these reads and writes in one unit of work under the lock of
// the ad (or conversation) reported.
//
// - A report is about an ad (conversationId null) or a conversation about one (adId is then the
//   conversation's ad, 0 once it is gone). The unique indexes keep one report per reporter per ad
//   and round (reporter_round), and per reporter per conversation: `insert` answers undefined for
//   a report they refuse.
// - The reporter is a key (`account:{id}`, or `address:{keyed hash}`), never shown: a moderator
//   reads only whether a member or a visitor sent it.
// - The ad as the reporter saw it (adCopy) and the thread of a reported conversation are kept as
//   JSON, so that the moderator reads what was reported after it changed or left the site.
// - Reports are grouped for the moderators: an ad's, or a conversation's about one member
//   (ReportGroupKey); a moderator's decision closes a group's open reports at once.
import { sql, type ExpressionBuilder } from 'kysely';
import type { AdKind, ThreadLine } from '../../core/schemas/report-records.ts';
import type { ReportReason } from '../../core/schemas/report-reasons.ts';
import { isStorableId } from '../ids.ts';
import type { StoreContext } from '../store-context.ts';
import type { MemberAdText } from './ad-text.ts';
import type { Tables } from '../tables.ts';
import { rowsChanged, rowCount } from './row-count.ts';

/** The ad as the reporter saw it (reports.ad_copy). */
export interface AdCopy extends MemberAdText {
  kind: AdKind;
  postedAt: string;
  sample: boolean;
}

export type Resolution = 'dismissed' | 'removed' | 'banned';

export interface NewReportRow {
  adId: number;
  /** Set for a conversation report. */
  conversationId: number | null;
  reportedAccountId: number | null;
  /** `account:{id}` or `address:{keyed hash}`. */
  reporterKey: string;
  reporterAccountId: number | null;
  reason: ReportReason;
  note: string;
  adCopy: AdCopy;
  thread: ThreadLine[] | null;
  createdAt: string;
  /** The reporter's how-many-th report of the ad (1 for a conversation's). */
  round: number;
  /** The reporter's "under 18" reports dismissed lately, as the report found them. */
  reporterDismissed: number;
}

/** A report as the moderators read it. */
export interface ReportRow {
  id: number;
  adId: number;
  conversationId: number | null;
  reportedAccountId: number | null;
  /** Sent by a signed-in member (else by a visitor). */
  byMember: boolean;
  reason: ReportReason;
  note: string;
  adCopy: AdCopy;
  thread: ThreadLine[] | null;
  createdAt: string;
  reporterDismissed: number;
}

/** The reporter's last report of an ad (not of a conversation about it). */
export interface LastReport {
  round: number;
  /** No moderator decided it yet. */
  open: boolean;
  adCopy: AdCopy;
}

/** The reports a moderator decides on at once: an ad's, or a conversation's about one member. */
export type ReportGroupKey =
  | { kind: 'ad'; adId: number }
  /** `reportedAccountId` 0: the reported member's account is gone. */
  | { kind: 'conversation'; conversationId: number; reportedAccountId: number };

/** How a group was last decided. */
export interface GroupResolution {
  resolution: Resolution;
  resolvedAt: string;
  /** The moderator's email; null once their account is gone. */
  moderator: string | null;
}

/** A GroupResolution's columns (the moderator from the accounts joined by resolved_by). */
const RESOLUTION_COLUMNS = [
  'reports.resolution as resolution',
  'reports.resolved_at as resolvedAt',
  'accounts.email as moderator',
] as const;

/** Counts of the open reports, for the moderation queue's line about them. */
export interface OpenReportCounts {
  open: number;
  /** Ads hidden by reports (or "under 18") that have open reports. */
  hiddenAds: number;
  /** Of those, the hidden as "under 18" or with an open report of `urgentReason`. */
  urgentAds: number;
  /** Ads with an open report of `urgentReason` that are not hidden. */
  urgentOnSite: number;
}

export interface ReportStore {
  /** Stores a report; its id, or undefined when a unique index refuses it (reported already). */
  insert(report: NewReportRow): Promise<number | undefined>;
  /** The reporter's report of the ad of the highest round. */
  lastOfReporter(adId: number, reporterKey: string): Promise<LastReport | undefined>;
  /** The reporter's reports of `reason` that moderators dismissed at `since` or after. */
  dismissedOf(reporterKey: string, reason: ReportReason, since: string): Promise<number>;
  /** Different reporters with an open report of the ad (not of a conversation about it). */
  openReporters(adId: number): Promise<number>;
  /** The oldest `limit` open reports, oldest first. */
  open(limit: number): Promise<ReportRow[]>;
  openCount(): Promise<number>;
  openCounts(urgentReason: ReportReason): Promise<OpenReportCounts>;
  /** The group's open reports, oldest first. */
  openInGroup(group: ReportGroupKey): Promise<ReportRow[]>;
  /** How the group's last decided report was decided; undefined when none was. */
  lastResolved(group: ReportGroupKey): Promise<GroupResolution | undefined>;
  /** A reporter's own reports, newest first, with how each was decided (for their /account). */
  ofReporter(reporterKey: string, limit: number): Promise<ReporterReportRow[]>;
  /** Closes the group's open reports up to id `upTo` (the newest the moderator saw); how many. */
  resolveGroup(
    group: ReportGroupKey,
    upTo: number,
    resolution: Resolution,
    moderatorId: number,
    at: string,
  ): Promise<number>;
}

/** A report as its reporter sees it again: what, when, and how it was decided; never whose. */
export interface ReporterReportRow {
  id: number;
  adTitle: string;
  /** A conversation was reported (else the ad). */
  aboutConversation: boolean;
  reason: ReportReason;
  createdAt: string;
  resolution: Resolution | null;
  resolvedAt: string | null;
}

type Eb = ExpressionBuilder<Tables, 'reports'>;

const inGroup = (group: ReportGroupKey) => (eb: Eb) =>
  group.kind === 'ad'
    ? eb.and([eb('reports.conversation_id', 'is', null), eb('reports.ad_id', '=', group.adId)])
    : eb.and([
        eb('reports.conversation_id', '=', group.conversationId),
        eb(eb.fn.coalesce('reports.reported_account_id', sql.lit(0)), '=', group.reportedAccountId),
      ]);

/** Whether the group's ids could name rows (an id from a URL may not). */
const storable = (group: ReportGroupKey) =>
  group.kind === 'ad'
    ? isStorableId(group.adId)
    : isStorableId(group.conversationId) &&
      (group.reportedAccountId === 0 || isStorableId(group.reportedAccountId));

export function reportStore({ db }: StoreContext): ReportStore {
  const openCount = async () => {
    const { n } = await db
      .selectFrom('reports')
      .select(rowCount.as('n'))
      .where('resolved_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(n);
  };
  const reports = () =>
    db
      .selectFrom('reports')
      .select([
        'reports.id as id',
        'reports.ad_id as adId',
        'reports.conversation_id as conversationId',
        'reports.reported_account_id as reportedAccountId',
        'reports.reporter_key as reporterKey',
        'reports.reason as reason',
        'reports.note as note',
        'reports.ad_copy as adCopy',
        'reports.thread as thread',
        'reports.created_at as createdAt',
        'reports.reporter_dismissed as reporterDismissed',
      ]);
  type Selected = Awaited<ReturnType<ReturnType<typeof reports>['executeTakeFirstOrThrow']>>;
  const rowOf = ({ reporterKey, ...row }: Selected): ReportRow => ({
    ...row,
    byMember: reporterKey.startsWith('account:'),
    reason: row.reason as ReportReason,
    adCopy: JSON.parse(row.adCopy) as AdCopy,
    thread: row.thread === null ? null : (JSON.parse(row.thread) as ThreadLine[]),
    reporterDismissed: Number(row.reporterDismissed),
  });

  return {
    async ofReporter(reporterKey, limit) {
      const rows = await db
        .selectFrom('reports')
        .select([
          'id',
          'ad_copy',
          'conversation_id',
          'reason',
          'created_at',
          'resolution',
          'resolved_at',
        ])
        .where('reporter_key', '=', reporterKey)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        id: Number(row.id),
        adTitle: (JSON.parse(row.ad_copy) as AdCopy).title,
        aboutConversation: row.conversation_id !== null,
        reason: row.reason as ReportReason,
        createdAt: row.created_at,
        resolution: row.resolution,
        resolvedAt: row.resolved_at,
      }));
    },
    async insert(report) {
      const row = await db
        .insertInto('reports')
        .values({
          ad_id: report.adId,
          conversation_id: report.conversationId,
          reported_account_id: report.reportedAccountId,
          reporter_key: report.reporterKey,
          reporter_account_id: report.reporterAccountId,
          reason: report.reason,
          note: report.note,
          ad_copy: JSON.stringify(report.adCopy),
          thread: report.thread === null ? null : JSON.stringify(report.thread),
          created_at: report.createdAt,
          reporter_round: report.round,
          reporter_dismissed: report.reporterDismissed,
        })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },

    async lastOfReporter(adId, reporterKey) {
      if (!isStorableId(adId)) return undefined;
      const row = await db
        .selectFrom('reports')
        .select(['reporter_round as round', 'resolved_at as resolvedAt', 'ad_copy as adCopy'])
        .where('ad_id', '=', adId)
        .where('reporter_key', '=', reporterKey)
        .where('conversation_id', 'is', null)
        .orderBy('reporter_round', 'desc')
        .limit(1)
        .executeTakeFirst();
      return (
        row && {
          round: Number(row.round),
          open: row.resolvedAt === null,
          adCopy: JSON.parse(row.adCopy) as AdCopy,
        }
      );
    },

    async dismissedOf(reporterKey, reason, since) {
      const { n } = await db
        .selectFrom('reports')
        .select(rowCount.as('n'))
        .where('reporter_key', '=', reporterKey)
        .where('reason', '=', reason)
        .where('resolution', '=', 'dismissed')
        .where('resolved_at', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    async openReporters(adId) {
      const { n } = await db
        .selectFrom('reports')
        .select(sql<number>`cast(count(distinct reporter_key) as integer)`.as('n'))
        .where('ad_id', '=', adId)
        .where('conversation_id', 'is', null)
        .where('resolved_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(n);
    },

    async open(limit) {
      const rows = await reports()
        .where('reports.resolved_at', 'is', null)
        .orderBy('reports.id')
        .limit(limit)
        .execute();
      return rows.map(rowOf);
    },

    openCount,

    async openCounts(urgentReason) {
      const openOfAd = (eb: ExpressionBuilder<Tables, 'hidden_ads'>) =>
        eb
          .selectFrom('reports')
          .select('reports.id')
          .whereRef('reports.ad_id', '=', 'hidden_ads.ad_id')
          .where('reports.resolved_at', 'is', null);
      const [open, hidden, onSite] = await Promise.all([
        openCount(),
        db
          .selectFrom('hidden_ads')
          .select((eb) => [
            rowCount.as('hiddenAds'),
            sql<number>`cast(count(case when ${eb.or([
              eb('hidden_ads.why', '=', 'under-18'),
              eb.exists(openOfAd(eb).where('reports.reason', '=', urgentReason)),
            ])} then 1 end) as integer)`.as('urgentAds'),
          ])
          .where('hidden_ads.why', 'in', ['reports', 'under-18'])
          .where((eb) => eb.exists(openOfAd(eb).where('reports.conversation_id', 'is', null)))
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('reports')
          .select(sql<number>`cast(count(distinct reports.ad_id) as integer)`.as('n'))
          .where('reports.resolved_at', 'is', null)
          .where('reports.conversation_id', 'is', null)
          .where('reports.reason', '=', urgentReason)
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('hidden_ads')
                  .select('hidden_ads.ad_id')
                  .whereRef('hidden_ads.ad_id', '=', 'reports.ad_id'),
              ),
            ),
          )
          .executeTakeFirstOrThrow(),
      ]);
      return {
        open,
        hiddenAds: Number(hidden.hiddenAds),
        urgentAds: Number(hidden.urgentAds),
        urgentOnSite: Number(onSite.n),
      };
    },

    async openInGroup(group) {
      if (!storable(group)) return [];
      const rows = await reports()
        .where('reports.resolved_at', 'is', null)
        .where(inGroup(group))
        .orderBy('reports.id')
        .execute();
      return rows.map(rowOf);
    },

    async lastResolved(group) {
      if (!storable(group)) return undefined;
      const row = await db
        .selectFrom('reports')
        .leftJoin('accounts', 'accounts.id', 'reports.resolved_by')
        .select(RESOLUTION_COLUMNS)
        .where('reports.resolved_at', 'is not', null)
        .where(inGroup(group))
        .orderBy('reports.resolved_at', 'desc')
        .orderBy('reports.id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && (row as GroupResolution);
    },

    async resolveGroup(group, upTo, resolution, moderatorId, at) {
      if (!storable(group)) return 0;
      return rowsChanged(
        db
          .updateTable('reports')
          .set({ resolved_at: at, resolution, resolved_by: moderatorId })
          .where('reports.resolved_at', 'is', null)
          .where('reports.id', '<=', upTo)
          .where(inGroup(group)),
      );
    },
  };
}
