// Why someone reports an ad or a conversation (docs/product.md section 8): the seven reasons, worded as
// the specification writes them, by the value the form posts (and the database stores). Apart from
// the zod schema (report.ts) so that the pages can list them without loading zod.

export const REPORT_REASONS = {
  commercial: 'Offers or asks for money or gifts (commercial sex)',
  'under-18': 'May involve someone under 18',
  spam: 'Scam or spam',
  harassment: 'Harassment or threats',
  identity: "Uses someone else's photos or identity",
  'wrong-place': 'Wrong city or category',
  other: 'Something else',
} as const;

export type ReportReason = keyof typeof REPORT_REASONS;

export const AD_REPORT_REASONS = Object.keys(REPORT_REASONS) as ReportReason[];

/**
 * A conversation is reported for what was written in it: "Wrong city or category" is about where
 * an ad is listed, which a message does not have, so it is left out of the conversation's list.
 */
export const CONVERSATION_REPORT_REASONS: readonly ReportReason[] = AD_REPORT_REASONS.filter(
  (reason) => reason !== 'wrong-place',
);

/** The one reason that hides an ad at once, and puts it first in the moderators' list. */
export const URGENT_REPORT_REASON: ReportReason = 'under-18';

/**
 * A reporter with this many reports of the urgent reason dismissed by moderators in the last
 * DOUBTED_WITHIN_DAYS no longer hides an ad with one such report: it still comes first, urgent.
 */
export const DOUBTED_AFTER_DISMISSED = 2;
export const DOUBTED_WITHIN_DAYS = 90;

/** Different reporters whose open reports hide an ad until a moderator decides. */
export const HIDE_AFTER_REPORTERS = 3;

/** The reporter's note: at most this many characters. */
export const REPORT_NOTE_MAX = 1000;

/** Reports one reporter (an account, or a visitor's address) may send in an hour. */
export const REPORTS_PER_HOUR = 20;
