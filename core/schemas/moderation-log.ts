// What the moderation log records (docs/product.md section 6): the actions, by the value the
// database stores (moderation_log.action), and what a row says. Shared by the store
// (store/parts/moderation-log.ts), which keeps the rows, and the log's page
// (core/views/moderation.ts), which labels them.

/** A moderation log row's action. */
export type LogAction =
  | 'approve'
  | 'approve-edit'
  | 'reject'
  | 'reject-edit'
  | 'remove'
  | 'ban'
  | 'grant-role'
  | 'revoke-role'
  // Reports (docs/product.md section 8): hidden by reports (logged as `reports (automatic)`), and a
  // moderator dismissing a group of reports.
  | 'hide'
  | 'dismiss'
  // Photos (docs/product.md section 10): a moderator removed one photo of an ad.
  | 'remove-photo'
  // Appeals (docs/product.md section 6): a moderator upheld or reversed a decision.
  | 'uphold-appeal'
  | 'reverse-appeal'
  // Verified members (docs/product.md section 6): a verification approved or refused, a
  // moderator shown a verification selfie, a member withdrawing theirs.
  | 'approve-verification'
  | 'refuse-verification'
  | 'view-selfie';

/** What a log row says, as the store reads it and the log's page shows it. */
export interface LogRecord {
  id: number;
  at: string;
  /** The moderator's email as copied, or the actor's name (`operator`: the command line). */
  moderator: string;
  action: LogAction;
  adId: number | null;
  accountId: number | null;
  accountEmail: string | null;
  reason: string | null;
  note: string | null;
}
