// The moderation log as moderators read it (/moderate/log; docs/product.md section 6), and how an
// earlier decision is told to a moderator who came second. Rows are written by the moderationLog
// part of the store (store/parts/moderation-log.ts), the one way to append to it.
import type { LogAction } from '../../core/schemas/moderation-log.ts';
import type { LogEntry } from '../../core/views/moderation.ts';
import type { LogRow } from '../../store/parts/moderation-log.ts';
import type { Store } from '../../store/store.ts';

/** The operator's command line, in the log's moderator column. */
export const OPERATOR = 'operator';

/** How the log shows an account (or moderator) that was deleted since. */
export const DELETED_ACCOUNT = 'deleted account';

/** What each action did, as "… who {done}". */
const ACTION_DONE: Record<LogAction, string> = {
  approve: 'approved it',
  'approve-edit': 'approved the edit',
  reject: 'rejected it',
  'reject-edit': 'rejected the edit',
  remove: 'removed it',
  ban: 'banned the account',
  'grant-role': 'made it a moderator',
  'revoke-role': 'took the moderator role away',
  hide: 'hid it after reports',
  dismiss: 'dismissed its reports',
  'remove-photo': 'removed a photo of it',
  'uphold-appeal': 'upheld the decision on appeal',
  'reverse-appeal': 'reversed the decision on appeal',
  'approve-verification': 'approved its verification',
  'refuse-verification': 'refused its verification',
  'view-selfie': 'looked at its verification selfie',
};

/** `2026-11-24 01:15` of an ISO time. */
const minuteOf = (at: string) => at.slice(0, 16).replace('T', ' ');

/** The refusal of an action on an ad someone handled first. */
export const alreadyHandled = (last: Pick<LogRow, 'moderator' | 'action' | 'at'>) =>
  `This ad was already handled by ${last.moderator}, who ${ACTION_DONE[last.action]} (${minuteOf(last.at)} UTC). Nothing was changed.`;

/** The refusal of a ban of an account banned already. */
export const alreadyBanned = (last: Pick<LogRow, 'moderator'> | undefined) =>
  `This account was already banned${last ? ` by ${last.moderator}` : ''}. Nothing was changed.`;

/** A row as the log page shows it: an account deleted since is named as such. */
export const logEntryOf = ({
  moderatorGone,
  accountGone,
  moderatorId: _moderatorId,
  ...row
}: LogRow): LogEntry => ({
  ...row,
  ...(accountGone ? { accountEmail: null, accountDeleted: true } : {}),
  ...(moderatorGone ? { moderator: DELETED_ACCOUNT, moderatorDeleted: true } : {}),
});

/**
 * The page of the log asked for (from 1; past the last page, the last), newest first, with how
 * many rows and pages it has in all.
 */
export async function logPage(
  store: Store,
  requested: number,
  pageSize: number,
): Promise<{ entries: LogEntry[]; total: number; page: number; pageCount: number }> {
  const total = await store.moderationLog.count();
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, requested), pageCount);
  const rows = await store.moderationLog.newest(pageSize, (page - 1) * pageSize);
  return { entries: rows.map(logEntryOf), total, page, pageCount };
}
