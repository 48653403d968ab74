// The moderation log (moderation_log; docs/product.md section 6): every moderation action, who did
// it, when, to which ad or account, and why. Append-only: this part is the one way to write a row
// (the database refuses to change or delete one), and it copies the emails it names, so the log
// still reads after an account is deleted. How the log is shown is server/moderation/log.ts's.
import type { LogAction, LogRecord } from '../../core/schemas/moderation-log.ts';
import type { StoreContext } from '../store-context.ts';
import { rowCount } from './row-count.ts';

/** A moderator acting: their account, and their email as the log copies it. */
export interface Moderator {
  accountId: number;
  email: string;
}

/** Who a log row names: a moderator, or someone without an account (the operator, reports). */
export type LogActor = Moderator | { name: string };

export interface NewLogEntry {
  at: string;
  by: LogActor;
  action: LogAction;
  adId?: number | null;
  accountId?: number | null;
  accountEmail?: string | null;
  reason?: string | null;
  note?: string | null;
}

/** A row as stored, and whether the accounts it names still exist. */
export interface LogRow extends LogRecord {
  moderatorId: number | null;
  /** The moderator's account was deleted since. */
  moderatorGone: boolean;
  /** The account the row is about was deleted since. */
  accountGone: boolean;
}

export interface ModerationLogStore {
  /** Appends a row; its id (a statement of reasons is keyed to it). */
  append(entry: NewLogEntry): Promise<number>;
  count(): Promise<number>;
  /** Newest first: `limit` rows after skipping `offset`. */
  newest(limit: number, offset: number): Promise<LogRow[]>;
  /** The last row about the ad. */
  lastForAd(adId: number): Promise<LogRow | undefined>;
  /** The last row of this action about the account. */
  lastForAccount(accountId: number, action: LogAction): Promise<LogRow | undefined>;
}

/** A LogRow's columns, and whether its moderator's and subject's accounts were found. */
const LOG_COLUMNS = [
  'moderation_log.id as id',
  'moderation_log.at as at',
  'moderation_log.moderator_id as moderatorId',
  'moderation_log.moderator_email as moderator',
  'moderation_log.action as action',
  'moderation_log.ad_id as adId',
  'moderation_log.account_id as accountId',
  'moderation_log.account_email as accountEmail',
  'moderation_log.reason as reason',
  'moderation_log.note as note',
  'moderators.id as moderatorFound',
  'subjects.id as accountFound',
] as const;

export function moderationLogStore({ db }: StoreContext): ModerationLogStore {
  const rows = () =>
    db
      .selectFrom('moderation_log')
      .leftJoin('accounts as moderators', 'moderators.id', 'moderation_log.moderator_id')
      .leftJoin('accounts as subjects', 'subjects.id', 'moderation_log.account_id')
      .select(LOG_COLUMNS);
  type Selected = Awaited<ReturnType<ReturnType<typeof rows>['executeTakeFirstOrThrow']>>;
  const rowOf = ({ moderatorFound, accountFound, ...row }: Selected): LogRow => ({
    ...row,
    action: row.action as LogAction,
    moderatorGone: row.moderatorId !== null && moderatorFound === null,
    accountGone: row.accountId !== null && accountFound === null,
  });

  return {
    async append(entry) {
      const moderator = 'accountId' in entry.by ? entry.by : undefined;
      return db
        .insertInto('moderation_log')
        .values({
          at: entry.at,
          moderator_id: moderator?.accountId ?? null,
          moderator_email: moderator ? moderator.email : (entry.by as { name: string }).name,
          action: entry.action,
          ad_id: entry.adId ?? null,
          account_id: entry.accountId ?? null,
          account_email: entry.accountEmail ?? null,
          reason: entry.reason ?? null,
          note: entry.note ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.id));
    },
    async count() {
      const { n } = await db
        .selectFrom('moderation_log')
        .select(rowCount.as('n'))
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    async newest(limit, offset) {
      const found = await rows()
        .orderBy('moderation_log.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return found.map(rowOf);
    },
    async lastForAd(adId) {
      const row = await rows()
        .where('moderation_log.ad_id', '=', adId)
        .orderBy('moderation_log.id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && rowOf(row);
    },
    async lastForAccount(accountId, action) {
      const row = await rows()
        .where('moderation_log.account_id', '=', accountId)
        .where('moderation_log.action', '=', action)
        .orderBy('moderation_log.id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row && rowOf(row);
    },
  };
}
