// What the server hands the report pages (/report, /moderate/reports) in their request: read from
// the database and the published content by server/routes/reports.ts, shown by src/pages/report/
// and src/pages/moderate-reports/. Types only: pages never import the server.
import type { CompiledAd } from '../schemas/compiled-content.ts';
import type { ReportReason } from '../schemas/report-reasons.ts';

/** Which source an ad's id is from: a member's (the database) or an editor's (content/ads/). */
export type AdKind = 'member' | 'editor';

/** What `/report` is about; absent when the ad or conversation is unknown to this visitor. */
export type ReportTarget =
  | {
      kind: 'ad';
      ad: Pick<CompiledAd, 'id' | 'title' | 'state' | 'city' | 'sample'>;
      /** The page to go back to; absent when the ad is no longer on the site. */
      adPath?: string;
    }
  | { kind: 'conversation'; conversationId: number; adTitle: string };

/** Why an ad is off the site while its reports wait (hidden_ads). */
export type HiddenWhy = 'reports' | 'under-18' | 'removed';

/** One report as a moderator sees it: never who sent it beyond a visitor or a member. */
export interface ReportEntry {
  id: number;
  reason: ReportReason;
  note: string;
  /** ISO time. */
  at: string;
  by: 'a visitor' | 'a member';
}

/** A message of a reported conversation, as it was when the report was sent. */
export interface ThreadLine {
  /** The reporter wrote it, or the member they reported. */
  from: 'reporter' | 'reported';
  at: string;
  body: string;
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
  /** Hidden, or reported as "May involve someone under 18". */
  urgent: boolean;
  /** The member reported (the ad's poster, or the other side of a thread). */
  reportedAccount?: { accountId: number; email: string; banned: boolean };
  reports: ReportEntry[];
  /** The newest report's id: the actions post it, so a group that changed since is not acted on. */
  seen: number;
  /** The reported thread (the newest copy), for conversation reports. */
  thread?: ThreadLine[];
  conversationId?: number;
  canRemove: boolean;
  canBan: boolean;
}

export interface ModerationReportsView {
  groups: ReportGroup[];
  /** Open reports in all. */
  open: number;
  /** What the last action did, after its redirect (`?done=…`). */
  notice?: string;
}

/** The /moderate queue's line about reports: open ones and ads hidden by them. */
export interface ReportsSummary {
  open: number;
  hiddenAds: number;
  urgentAds: number;
}
