// The scam shield's data (tables scam_outcomes, repeated_message_flags and
// repeated_message_flag_accounts, and messages.print; docs/product.md section 7): the sender's
// record of refusals and warnings, who received the same first message from one account, which
// new accounts sent the same one, and the moderators' flags about those. What counts, the limits
// and the texts are server/messages/scam-shield.ts's.
import { isStorableId } from '../ids.ts';
import type { StoreContext } from '../store-context.ts';
import { changedOne, rowCount } from './row-count.ts';

export type ScamOutcome = 'refused' | 'warned';

/** One line of a sender's record: how many of their messages were refused or warned, by family. */
export interface ScamRecordRow {
  family: string;
  outcome: ScamOutcome;
  count: number;
}

/** An account a flag names, as the moderators judge it. */
export interface FlaggedAccountRow {
  accountId: number;
  email: string;
  createdAt: string;
  bannedAt: string | null;
}

/** A flag of the same first message from several new accounts, with its accounts. */
export interface RepeatedMessageFlagRow {
  id: number;
  sample: string;
  flaggedAt: string;
  /** Oldest account first. */
  accounts: FlaggedAccountRow[];
}

export interface ScamShieldStore {
  /** Counts a refusal or a warning for the sender. */
  recordOutcome(accountId: number, family: string, outcome: ScamOutcome, at: string): Promise<void>;
  /** The account's record, one row a family and outcome. */
  record(accountId: number): Promise<ScamRecordRow[]>;
  /**
   * The members who received a message with this print from the sender after `since` (the other
   * side of each conversation it is in; deleted ones left out).
   */
  printRecipients(senderId: number, print: string, since: string): Promise<number[]>;
  /** The accounts created after `joinedAfter` that sent a message with this print after `since`. */
  newSendersOfPrint(print: string, since: string, joinedAfter: string): Promise<number[]>;
  /** When a moderator last dismissed a flag of this print, if ever. */
  lastDismissal(print: string): Promise<string | undefined>;
  /**
   * The open flag of this print, made now if there is none, with these accounts added to it; its
   * id. Two units flagging one print at once make one flag (the unique index has the last word).
   */
  flagRepeated(
    print: string,
    sample: string,
    accountIds: readonly number[],
    at: string,
  ): Promise<number>;
  /** The open flags, oldest first, each with its accounts. */
  openFlags(): Promise<RepeatedMessageFlagRow[]>;
  /** Dismisses an open flag; false when there is none open with this id. */
  dismissFlag(id: number, moderatorId: number, at: string): Promise<boolean>;
}

export function scamShieldStore({ db }: StoreContext): ScamShieldStore {
  const openFlagOf = (print: string) =>
    db
      .selectFrom('repeated_message_flags')
      .select('id')
      .where('print', '=', print)
      .where('dismissed_at', 'is', null)
      .executeTakeFirst();

  return {
    async recordOutcome(accountId, family, outcome, at) {
      await db
        .insertInto('scam_outcomes')
        .values({ account_id: accountId, family, outcome, at })
        .execute();
    },

    async record(accountId) {
      if (!isStorableId(accountId)) return [];
      const rows = await db
        .selectFrom('scam_outcomes')
        .select(['family', 'outcome', rowCount.as('count')])
        .where('account_id', '=', accountId)
        .groupBy(['family', 'outcome'])
        .orderBy('outcome')
        .orderBy('count', 'desc')
        .orderBy('family')
        .execute();
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },

    async printRecipients(senderId, print, since) {
      const rows = await db
        .selectFrom('messages as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .select((eb) =>
          eb
            .case()
            .when('c.poster_id', '=', senderId)
            .then(eb.ref('c.replier_id'))
            .else(eb.ref('c.poster_id'))
            .end()
            .as('recipient'),
        )
        .distinct()
        .where('m.print', '=', print)
        .where('m.sent_at', '>', since)
        .where('m.sender_id', '=', senderId)
        .execute();
      return rows.flatMap((row) => (row.recipient === null ? [] : [Number(row.recipient)]));
    },

    async newSendersOfPrint(print, since, joinedAfter) {
      const rows = await db
        .selectFrom('messages as m')
        .innerJoin('accounts as a', 'a.id', 'm.sender_id')
        .select('m.sender_id as senderId')
        .distinct()
        .where('m.print', '=', print)
        .where('m.sent_at', '>', since)
        .where('a.created_at', '>', joinedAfter)
        .orderBy('m.sender_id')
        .execute();
      return rows.map((row) => Number(row.senderId));
    },

    async lastDismissal(print) {
      const row = await db
        .selectFrom('repeated_message_flags')
        .select((eb) => eb.fn.max('dismissed_at').as('at'))
        .where('print', '=', print)
        .executeTakeFirst();
      return row?.at ?? undefined;
    },

    async flagRepeated(print, sample, accountIds, at) {
      await db
        .insertInto('repeated_message_flags')
        .values({ print, sample, flagged_at: at })
        .onConflict((oc) => oc.column('print').where('dismissed_at', 'is', null).doNothing())
        .execute();
      const flag = await openFlagOf(print);
      if (!flag) throw new Error('a repeated message flag neither made nor found');
      if (accountIds.length > 0)
        await db
          .insertInto('repeated_message_flag_accounts')
          .values(accountIds.map((accountId) => ({ flag_id: flag.id, account_id: accountId })))
          .onConflict((oc) => oc.columns(['flag_id', 'account_id']).doNothing())
          .execute();
      return flag.id;
    },

    async openFlags() {
      const rows = await db
        .selectFrom('repeated_message_flags as f')
        .innerJoin('repeated_message_flag_accounts as fa', 'fa.flag_id', 'f.id')
        .innerJoin('accounts as a', 'a.id', 'fa.account_id')
        .select([
          'f.id',
          'f.sample',
          'f.flagged_at as flaggedAt',
          'a.id as accountId',
          'a.email',
          'a.created_at as createdAt',
          'a.banned_at as bannedAt',
        ])
        .where('f.dismissed_at', 'is', null)
        .orderBy('f.flagged_at')
        .orderBy('f.id')
        .orderBy('a.created_at')
        .orderBy('a.id')
        .execute();
      const flags = new Map<number, RepeatedMessageFlagRow>();
      for (const { id, sample, flaggedAt, ...account } of rows) {
        const flag = flags.get(id) ?? { id, sample, flaggedAt, accounts: [] };
        flag.accounts.push(account);
        flags.set(id, flag);
      }
      return [...flags.values()];
    },

    async dismissFlag(id, moderatorId, at) {
      if (!isStorableId(id)) return false;
      return changedOne(
        db
          .updateTable('repeated_message_flags')
          .set({ dismissed_at: at, dismissed_by: moderatorId })
          .where('id', '=', id)
          .where('dismissed_at', 'is', null),
      );
    },
  };
}
