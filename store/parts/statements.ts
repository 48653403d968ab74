// Statements of reasons and their appeals (tables decision_statements and appeals; docs/product.md
// section 6): one statement per restriction, written in the decision's own unit of work
// beside its moderation log row, and at most one appeal of it. What a statement says, who may
// appeal and who may decide are server/moderation/statements.ts's and appeals.ts's rules; this
// part stores and reads. An appeal is decided once: `decide` changes it only while it is open, so
// of two moderators deciding at once exactly one does.
import { isStorableId } from '../ids.ts';
import type { StoreContext } from '../store-context.ts';
import type { StatementKind } from '../tables.ts';
import { changedOne, rowCount } from './row-count.ts';

export type { StatementKind };

export type StatementTrigger = 'report' | 'moderator' | 'automatic';

/** What a decision was made on, as the member is told it (never who reported). */
export interface StatementFacts {
  /** The reason's label, and the moderator's note. */
  reason: string;
  note?: string;
  /** The ad's words concerned (an edit's: the edit's). */
  title?: string;
  description?: string;
  /** A rejected edit's other fields, so a reversal can apply it. */
  edit?: { title: string; description: string; age: number; seeks: string };
  /**
   * The photo removed, and where it was on its ad (indexes in the live photos and a pending edit's;
   * absent: not there), so a reversal puts it back in its place.
   */
  photo?: { id: number; alt: string; at?: number; pendingAt?: number };
  /** The reports that led to it: each reason and how many. */
  reports?: { reason: string; count: number }[];
  /** What automatic means flagged (the policy scanner's words, scam signal families). */
  flags?: string[];
  /** A ban: the ads it removed, and the status each had. */
  removedAds?: { id: number; status: 'review' | 'live' }[];
}

export interface NewStatement {
  logId: number;
  accountId: number | null;
  kind: StatementKind;
  adId?: number | null;
  photoId?: number | null;
  reasonKey: string;
  clause: string;
  facts: StatementFacts;
  trigger: StatementTrigger;
  automatedDetection: boolean;
  automatedDecision: boolean;
  decidedBy: number | null;
  decidedAt: string;
  contentAt: string | null;
  appealUntil: string;
}

export interface AppealRow {
  id: number;
  statementId: number;
  accountId: number;
  text: string;
  filedAt: string;
  outcome: 'upheld' | 'reversed' | null;
  reply: string | null;
  decidedBy: number | null;
  decidedAt: string | null;
}

export interface StatementRow extends Omit<NewStatement, 'adId' | 'photoId'> {
  id: number;
  adId: number | null;
  photoId: number | null;
  /** When a moderator lifted the restriction before any appeal decided it; null: not lifted. */
  liftedAt: string | null;
  /** The statement of the decision that replaced it (a removal, a ban); null: no breach found. */
  liftedFor: number | null;
  /** Its appeal, once filed. */
  appeal: AppealRow | null;
}

export interface StatementStore {
  /** Writes a statement; its id. */
  insert(statement: NewStatement): Promise<number>;
  find(id: number): Promise<StatementRow | undefined>;
  /** The member's statements, newest first. */
  listForAccount(accountId: number): Promise<StatementRow[]>;
  /** Files the statement's appeal; its id, or undefined when it has one already. */
  fileAppeal(appeal: {
    statementId: number;
    accountId: number;
    text: string;
    filedAt: string;
  }): Promise<number | undefined>;
  /**
   * Statements decided at or after `since` (an ISO date or time), by id, after `afterId`, at most
   * `limit` (the export of statements, server/moderation/dsa-export.ts, pages through them).
   */
  decidedSince(since: string, afterId: number, limit: number): Promise<StatementRow[]>;
  /**
   * Marks the ad's hides by reports lifted at `at`: a moderator dismissed the reports and the ad is
   * back, or (`replacedBy`, that decision's statement) removed the ad or banned its account
   * instead. All not lifted yet and not reversed on appeal. An appeal of one still open is closed
   * by it (no longer listed, no longer decided). Their ids.
   */
  liftHides(adId: number, at: string, replacedBy?: number): Promise<number[]>;
  /** Open appeals' statements (of restrictions not lifted), the oldest appeal first. */
  openAppeals(limit: number): Promise<StatementRow[]>;
  openAppealCount(): Promise<number>;
  /** The statement of an appeal. */
  findByAppeal(appealId: number): Promise<StatementRow | undefined>;
  /** Decides an open appeal; false when it was decided already, or its restriction lifted. */
  decideAppeal(
    appealId: number,
    decision: { outcome: 'upheld' | 'reversed'; reply: string | null; by: number; at: string },
  ): Promise<boolean>;
}

export function statementStore({ db }: StoreContext): StatementStore {
  const rows = () =>
    db
      .selectFrom('decision_statements as s')
      .leftJoin('appeals as a', 'a.statement_id', 's.id')
      .selectAll('s')
      .select([
        'a.id as appeal_id',
        'a.account_id as appeal_account_id',
        'a.text as appeal_text',
        'a.filed_at as appeal_filed_at',
        'a.outcome as appeal_outcome',
        'a.reply as appeal_reply',
        'a.decided_by as appeal_decided_by',
        'a.decided_at as appeal_decided_at',
      ]);
  type Selected = Awaited<ReturnType<ReturnType<typeof rows>['executeTakeFirstOrThrow']>>;
  const rowOf = (row: Selected): StatementRow => ({
    id: Number(row.id),
    logId: Number(row.log_id),
    accountId: row.account_id === null ? null : Number(row.account_id),
    kind: row.kind,
    adId: row.ad_id === null ? null : Number(row.ad_id),
    photoId: row.photo_id === null ? null : Number(row.photo_id),
    reasonKey: row.reason_key,
    clause: row.clause,
    facts: JSON.parse(row.facts) as StatementFacts,
    trigger: row.trigger,
    automatedDetection: Number(row.automated_detection) === 1,
    automatedDecision: Number(row.automated_decision) === 1,
    decidedBy: row.decided_by === null ? null : Number(row.decided_by),
    decidedAt: row.decided_at,
    contentAt: row.content_at,
    appealUntil: row.appeal_until,
    liftedAt: row.lifted_at,
    liftedFor: row.lifted_for === null ? null : Number(row.lifted_for),
    appeal:
      row.appeal_id === null
        ? null
        : {
            id: Number(row.appeal_id),
            statementId: Number(row.id),
            accountId: Number(row.appeal_account_id),
            text: row.appeal_text ?? '',
            filedAt: row.appeal_filed_at ?? '',
            outcome: row.appeal_outcome,
            reply: row.appeal_reply,
            decidedBy: row.appeal_decided_by === null ? null : Number(row.appeal_decided_by),
            decidedAt: row.appeal_decided_at,
          },
  });

  /** The statement whose id (`s.id`) or whose appeal's (`a.id`) is `id`; none for an id no row has. */
  const findWhere = async (column: 's.id' | 'a.id', id: number) => {
    if (!isStorableId(id)) return undefined;
    const row = await rows().where(column, '=', id).executeTakeFirst();
    return row && rowOf(row);
  };

  return {
    async insert(statement) {
      const { id } = await db
        .insertInto('decision_statements')
        .values({
          log_id: statement.logId,
          account_id: statement.accountId,
          kind: statement.kind,
          ad_id: statement.adId ?? null,
          photo_id: statement.photoId ?? null,
          reason_key: statement.reasonKey,
          clause: statement.clause,
          facts: JSON.stringify(statement.facts),
          trigger: statement.trigger,
          automated_detection: statement.automatedDetection ? 1 : 0,
          automated_decision: statement.automatedDecision ? 1 : 0,
          decided_by: statement.decidedBy,
          decided_at: statement.decidedAt,
          content_at: statement.contentAt,
          appeal_until: statement.appealUntil,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(id);
    },
    find: (id) => findWhere('s.id', id),
    async listForAccount(accountId) {
      const found = await rows()
        .where('s.account_id', '=', accountId)
        .orderBy('s.decided_at', 'desc')
        .orderBy('s.id', 'desc')
        .execute();
      return found.map(rowOf);
    },
    async fileAppeal(appeal) {
      const row = await db
        .insertInto('appeals')
        .values({
          statement_id: appeal.statementId,
          account_id: appeal.accountId,
          text: appeal.text,
          filed_at: appeal.filedAt,
        })
        .onConflict((oc) => oc.column('statement_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row && Number(row.id);
    },
    async decidedSince(since, afterId, limit) {
      const found = await rows()
        .where('s.decided_at', '>=', since)
        .where('s.id', '>', afterId)
        .orderBy('s.id')
        .limit(limit)
        .execute();
      return found.map(rowOf);
    },
    async liftHides(adId, at, replacedBy) {
      if (!isStorableId(adId)) return [];
      const lifted = await db
        .updateTable('decision_statements')
        .set({ lifted_at: at, lifted_for: replacedBy ?? null })
        .where('ad_id', '=', adId)
        .where('kind', '=', 'ad-hidden')
        .where('lifted_at', 'is', null)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('appeals')
                .select('appeals.id')
                .whereRef('appeals.statement_id', '=', 'decision_statements.id')
                .where('appeals.outcome', '=', 'reversed'),
            ),
          ),
        )
        .returning('id')
        .execute();
      return lifted.map((row) => Number(row.id)).sort((a, b) => a - b);
    },
    async openAppeals(limit) {
      const found = await rows()
        .where('a.id', 'is not', null)
        .where('a.outcome', 'is', null)
        .where('s.lifted_at', 'is', null)
        .orderBy('a.filed_at')
        .orderBy('a.id')
        .limit(limit)
        .execute();
      return found.map(rowOf);
    },
    async openAppealCount() {
      const { n } = await db
        .selectFrom('appeals')
        .innerJoin('decision_statements as s', 's.id', 'appeals.statement_id')
        .select(rowCount.as('n'))
        .where('appeals.outcome', 'is', null)
        .where('s.lifted_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    findByAppeal: (appealId) => findWhere('a.id', appealId),
    async decideAppeal(appealId, decision) {
      return changedOne(
        db
          .updateTable('appeals')
          .set({
            outcome: decision.outcome,
            reply: decision.reply,
            decided_by: decision.by,
            decided_at: decision.at,
          })
          .where('id', '=', appealId)
          .where('outcome', 'is', null)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('decision_statements')
                  .select('decision_statements.id')
                  .whereRef('decision_statements.id', '=', 'appeals.statement_id')
                  .where('decision_statements.lifted_at', 'is not', null),
              ),
            ),
          ),
      );
    },
  };
}
