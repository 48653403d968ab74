// What the server hands the report pages (/report, /moderate/reports) in their request: read from
// the store and the published content by server/reports/, shown by src/pages/report/
// and src/pages/moderate-reports/. Types only, in the kernel: the server builds it, the pages
// show it.
import type { CompiledAd } from '../schemas/compiled-content.ts';
import type { ReportReason } from '../schemas/report-reasons.ts';
import type { AdKind, HiddenWhy, ThreadLine } from '../schemas/report-records.ts';
import type { BanTarget, ScamRecordView } from './moderation.ts';

/** What `/report` is about; absent when the ad or conversation is unknown to this visitor. */
export type ReportTarget =
  | {
      kind: 'ad';
      ad: Pick<CompiledAd, 'id' | 'title' | 'state' | 'city' | 'sample'>;
      /** The page to go back to; absent when the ad is no longer on the site. */
      adPath?: string;
    }
  | { kind: 'conversation'; conversationId: number; adTitle: string };

/** One report as a moderator sees it: never who sent it beyond a visitor or a member. */
export interface ReportEntry {
  id: number;
  reason: ReportReason;
  note: string;
  /** ISO time. */
  at: string;
  by: 'a visitor' | 'a member';
  /**
   * The reporter's "May involve someone under 18" reports moderators had dismissed in the
   * DOUBTED_WITHIN_DAYS before this one; from DOUBTED_AFTER_DISMISSED it did not hide the ad.
   */
  reporterDismissed: number;
}

export interface ReportGroup {
  /** `ad:{id}` or `conversation:{id}:{reported account id}`: what the actions post back. */
  key: string;
  kind: 'ad' | 'conversation';
  adId: number;
  adKind: AdKind;
  /** The ad as the first reporter saw it. */
  ad: CompiledAd;
  /** A member's ad as it is now (it may have been edited, deleted or removed since). */
  current?: { status: string; ad: CompiledAd; changed: boolean };
  hidden?: HiddenWhy;
  /** Reported as "May involve someone under 18" (hidden or not), or hidden by reports. */
  urgent: boolean;
  /** The member reported (the ad's poster, or the other side of a thread). */
  reportedAccount?: {
    accountId: number;
    email: string;
    banned: boolean;
    /** The scam shield's refusals and warnings of their messages. */
    scamRecord: ScamRecordView;
  };
  reports: ReportEntry[];
  /** The newest report's id: the actions post it, so a group that changed since is not acted on. */
  seen: number;
  /** The reported thread (the newest copy), for conversation reports. */
  thread?: ThreadLine[];
  conversationId?: number;
  canRemove: boolean;
  canBan: boolean;
}

/** The ban's confirmation step for one group's member (`?ban={group key}&seen={id}`). */
export interface ReportBanConfirm {
  /** The group's key and the newest report the moderator saw: the ban posts them. */
  group: string;
  seen: number;
  /** The anchor of the group on the page (Cancel goes back to it). */
  anchor: string;
  /** "ad 100000123 in Fresno, California", "the conversation about “…”" */
  about: string;
  /** Its open reports, which the ban closes. */
  reports: number;
  target: BanTarget;
}

export interface ModerationReportsView {
  groups: ReportGroup[];
  /** Open reports in all. */
  open: number;
  /** What the last action did, after its redirect (`?done=…`). */
  notice?: string;
  /** Asked for with Ban the account…, or shown again when the ban's form was refused. */
  banConfirm?: ReportBanConfirm;
}
