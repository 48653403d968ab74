// The transparency report's numbers (docs/product.md section 6): what the build counts of
// the moderation data (store/parts/transparency.ts, pipeline/compile/transparency-report.ts) and
// /transparency and /transparency.csv show. Counts only: never a person, an ad or a text.
import { MODERATION_REASONS } from './moderation-reasons.ts';

/** The kinds of decision the report counts (an edit rejected counts as a rejection). */
export const DECISION_KINDS = {
  rejected: 'Ads or edits rejected',
  removed: 'Ads removed',
  hidden: 'Ads hidden by reports',
  'photo-removed': 'Photos removed',
  banned: 'Accounts banned',
} as const;
export type DecisionKind = keyof typeof DECISION_KINDS;

/** What prompted a decision. */
export const DECISION_TRIGGERS = {
  report: 'Reports',
  moderator: "A moderator's own review",
  automatic: 'An automatic rule',
} as const;
export type DecisionTrigger = keyof typeof DECISION_TRIGGERS;

/** The reasons a decision gives: a moderator's, or a rule's (a hide by reports). */
export const DECISION_REASONS = {
  ...MODERATION_REASONS,
  reports: 'Reported by several people',
  'under-18-report': 'Reported as possibly involving someone under 18',
} as const;
export type DecisionReason = keyof typeof DECISION_REASONS;

/** One month's numbers, or the total's. */
export interface TransparencyPeriod {
  /** `2026-11`, or `total`. */
  period: string;
  decisions: number;
  byKind: Record<DecisionKind, number>;
  byReason: Record<DecisionReason, number>;
  byTrigger: Record<DecisionTrigger, number>;
  /** Decisions an automatic rule made (no moderator). */
  automated: number;
  reportsReceived: number;
  /** Reports a moderator resolved by removing the ad or banning the account. */
  reportsActedOn: number;
  appealsFiled: number;
  /** Appeals decided, by the month they were decided. */
  appealsReversed: number;
  appealsUpheld: number;
  /** Median hours from the content's submission to the decision (ads and photos); null: none. */
  medianHoursToDecision: number | null;
  /** Median hours from an appeal to its decision; null: none decided. */
  medianHoursToAppealDecision: number | null;
}

export interface TransparencyReport {
  /** Whether the build read a database; without one every number is zero. */
  fromDatabase: boolean;
  /** Months with any activity, newest first. */
  months: TransparencyPeriod[];
  total: TransparencyPeriod;
}

const zeros = <K extends string>(keys: Record<K, string>) =>
  Object.fromEntries(Object.keys(keys).map((key) => [key, 0])) as Record<K, number>;

/** A period with nothing in it. */
export function emptyPeriod(period: string): TransparencyPeriod {
  return {
    period,
    decisions: 0,
    byKind: zeros(DECISION_KINDS),
    byReason: zeros(DECISION_REASONS),
    byTrigger: zeros(DECISION_TRIGGERS),
    automated: 0,
    reportsReceived: 0,
    reportsActedOn: 0,
    appealsFiled: 0,
    appealsReversed: 0,
    appealsUpheld: 0,
    medianHoursToDecision: null,
    medianHoursToAppealDecision: null,
  };
}

/** The report of a build that read no database: zeros, and it says so. */
export const NO_DATABASE_REPORT: TransparencyReport = {
  fromDatabase: false,
  months: [],
  total: emptyPeriod('total'),
};
