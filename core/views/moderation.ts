// What the server hands the moderation pages (/moderate, /moderate/log) in their request: read
// from the database by server/moderation/queue-view.ts and log-view.ts (for each page's
// server/http/page-reads/), shown by src/pages/moderate/ and src/pages/moderation-log/, with the
// page sizes both count by. In the kernel: the server builds it, the pages show it.
import type { CompiledAd } from '../schemas/compiled-content.ts';
import type { LogRecord } from '../schemas/moderation-log.ts';
import type { ScamFamily } from '../policy/scam-signals.ts';
import type { VerificationLevel } from '../schemas/verification.ts';

/**
 * A word the policy scanner found ambiguous, or a scam signal (`family`; `term` is then the
 * family's name, "money request"): offsets into the title's or description's text.
 */
export interface PolicyMark {
  field: 'title' | 'description';
  term: string;
  family?: ScamFamily;
  start: number;
  end: number;
}

/** The poster, as the moderator needs to judge them. Counts come from their ads' rows. */
export interface PosterSummary {
  accountId: number;
  email: string;
  /** When the account was created (ISO time). */
  joinedAt: string;
  /** Whole days since then. */
  daysSinceJoining: number;
  /** Ads of this account ever approved, rejected, removed by a moderator. */
  approved: number;
  rejected: number;
  removed: number;
  /** Reports ever sent about this account's ads and messages. */
  reports: number;
  /** The scam shield's refusals and warnings of their messages. */
  scamRecord: ScamRecordView;
  /** Their verification: Real person or Photos verified (how many photos); absent: none. */
  verified?: { level: VerificationLevel; photos: number };
  /** Their age check, in the one sentence moderators see ("age checked (digital licence, …)"). */
  ageCheck?: string;
}

/** A count of one family on a sender's record: "off-site contact", 2. */
export interface FamilyCount {
  /** The family as moderators read it (SCAM_FAMILY_NAMES). */
  name: string;
  count: number;
}

/**
 * The scam shield's record of an account (docs/product.md section 7): its messages refused and
 * warned, most frequent family first.
 */
export interface ScamRecordView {
  refused: FamilyCount[];
  warned: FamilyCount[];
}

/** An account a repeated-message flag names. */
export interface FlaggedAccount {
  accountId: number;
  email: string;
  joinedAt: string;
  daysSinceJoining: number;
  banned: boolean;
  scamRecord: ScamRecordView;
}

/** The same first message from several new accounts (`/moderate` announces it until dismissed). */
export interface RepeatedMessageFlag {
  id: number;
  /** One of the messages, as sent. */
  sample: string;
  flaggedAt: string;
  accounts: FlaggedAccount[];
}

export type EditedField = 'age' | 'seeks' | 'title' | 'description' | 'photos';

/** One photo of an ad in the queue, at a size large enough to judge (through the server). */
export interface QueuePhoto {
  id: number;
  /** 1-based, in the list it is shown in. */
  position: number;
  /** The alt text as the site will show it: the member's own, or "Photo 2 of 3: {title}". */
  alt: string;
  /** Whether the member wrote the alt text (else it is the default). */
  ownAlt: boolean;
  /** The largest size's (at most 1280 px wide). */
  width: number;
  height: number;
  /** The largest size, and every size for srcset (`/api/photos/{id}/{width} {width}w`). */
  src: string;
  srcSet: string;
  /** Why the moderator should look ("Looks like a photo removed on … (…)"), if anything. */
  flag: string | null;
  /** In an edit's photos: not among the live ad's. In the live ad's: the edit takes it out. */
  change?: 'added' | 'taken-out';
  /**
   * Blurred until this moderator chooses to see it (likely explicit, or their "Show all photos
   * blurred"): `src` is then the blurred rendering (`/api/photos/{id}/blurred`), `srcSet` empty.
   */
  blurred: boolean;
  /** Its explicit score is at or over the app's threshold (isLikelyExplicit). */
  likelyExplicit: boolean;
  /** "Likely explicit (score 0.87)", "Not scored", or nothing to say. */
  scoreLabel: string | null;
}

export interface QueueItem {
  adId: number;
  /** The ad's revision now: the actions post it back, so a stale page changes nothing. */
  revision: number;
  /** `new`: an ad in review; `edit`: the pending edit of a live ad. */
  kind: 'new' | 'edit';
  /** When the ad (or the edit) was submitted (ISO time). */
  submittedAt: string;
  /** The ad as it will look on the site once approved (the edited text for an edit). */
  ad: CompiledAd;
  /** The scanner's marks in `ad`'s title and description. */
  marks: PolicyMark[];
  /** For an edit: the live ad as it is now, and what the edit changes. */
  live?: Pick<CompiledAd, 'age' | 'seeks' | 'title' | 'description' | 'expiresAt'>;
  changed?: EditedField[];
  /** The photos as the ad will show them once approved (an edit's: after the edit), in order. */
  photos: QueuePhoto[];
  /** For an edit that changes the photos: the live ad's photos now. */
  livePhotos?: QueuePhoto[];
  poster: PosterSummary;
  /** Its photos that are also on another member's ad (docs/product.md section 10); none: left out. */
  photosElsewhere?: PhotoElsewhereView[];
}

/** A photo of an ad in the queue that another member's ad has too, with that ad's. */
export interface PhotoElsewhereView {
  /** This ad's photo: its number among the ad's photos, and how it is shown. */
  photo: Pick<
    QueuePhoto,
    'id' | 'position' | 'alt' | 'width' | 'height' | 'src' | 'srcSet' | 'blurred'
  >;
  /** The other member's ad. */
  otherAdId: number;
  /** When that ad was posted (or submitted, if never live): a date. */
  otherPostedOn: string;
  /** Where that ad stands, in words ("live", "in review", "removed on 2 Nov 2026"). */
  otherStanding: string;
  /** Its page on the site (live), its entry in the queue, or the moderation log. */
  otherLink: { href: string; text: string };
  /**
   * The other photo as the queue shows photos (blurred while this ad's photo is: the same
   * picture); null when a moderator removed it (no sizes).
   */
  otherPhoto: Pick<QueuePhoto, 'id' | 'width' | 'height' | 'src' | 'srcSet'> | null;
}

/** The account a moderator is about to ban (`/moderate?ban={accountId}`). */
export interface BanTarget {
  accountId: number;
  email: string;
  joinedAt: string;
  /** Its ads in review or live: all are removed by the ban. */
  adsInReview: number;
  adsLive: number;
}

export interface ModerationQueueView {
  kind: 'queue';
  /** This moderator's own "Show all photos blurred". */
  blurAll: boolean;
  /** The oldest first, at most QUEUE_SHOWN of them. */
  items: QueueItem[];
  /** How many are waiting in all. */
  waiting: number;
  /** What the last action did, after its redirect (`?done=…`). */
  notice?: string;
  banTarget?: BanTarget;
  /** Open reports, and ads hidden by them waiting for a decision (/moderate/reports). */
  reports?: ReportsSummary;
  /** The same first message from several new accounts, until banned or dismissed. */
  repeatedMessages?: RepeatedMessageFlag[];
  /** Appeals waiting for a moderator (/moderate/appeals). */
  openAppeals?: number;
  /** Verification selfies waiting for a moderator (/moderate/verifications). */
  openVerifications?: number;
}

export interface LogEntry extends LogRecord {
  /** The account no longer exists (its member deleted it): shown as a deleted account. */
  accountDeleted?: boolean;
  /** The moderator's account no longer exists. */
  moderatorDeleted?: boolean;
}

export interface ModerationLogView {
  kind: 'log';
  entries: LogEntry[];
  /** 1-based; pages of LOG_PAGE_SIZE entries, newest first. */
  page: number;
  pageCount: number;
  total: number;
}

/** Ads shown in the queue at once, and log entries a page. */
export const QUEUE_SHOWN = 20;
export const LOG_PAGE_SIZE = 50;

/** The /moderate queue's line about reports: open ones and ads hidden by them. */
export interface ReportsSummary {
  open: number;
  hiddenAds: number;
  /** Of the hidden ads, those reported as possibly involving someone under 18. */
  urgentAds: number;
  /** Ads reported so that were not hidden (their reporters' such reports were dismissed). */
  urgentOnSite: number;
}
