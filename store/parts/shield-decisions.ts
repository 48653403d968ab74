// The moderators' review of the scam shield (tables shield_decisions and shield_label_candidates;
// docs/product.md section 7): each first message the shield refused or delivered with a warning,
// kept 30 days for the moderators' list, marked mistaken once; and the texts waiting for an
// editor to label them into the shield's corpus (`npm run shield:labels`). What is recorded, the
// 30 days and the texts moderators read are server/moderation/shield-review.ts's; this stores.
import { isStorableId } from '../ids.ts';
import { changedOne, rowsChanged } from './row-count.ts';
import type { ShieldCandidateReason, ShieldLabel } from '../shield-tables.ts';
import type { StoreContext } from '../store-context.ts';

/** A decision of the shield as the message flow records it, in the unit of work of the message. */
export interface NewShieldDecision {
  senderId: number;
  recipientId: number | null;
  /** The message as sent. */
  text: string;
  outcome: 'refused' | 'warned';
  /** What decided it: the editable scam signals, or the learned model. */
  by: 'signal' | 'model';
  families: string[];
  /** The model's probability of a scam, 0–1. */
  probability: number;
  /** The same after the sender's behaviour. */
  adjusted: number;
  /** The sender's behaviour that counted, each reason in words. */
  behaviour: string[];
  at: string;
}

/** A decision as the moderators' list reads it. */
export interface ShieldDecisionRow extends Omit<NewShieldDecision, 'senderId'> {
  id: number;
  /** Null once the account is deleted. */
  senderId: number | null;
  markedMistakenAt: string | null;
  markedBy: number | null;
}

/** A text to label, as a decision or a ban leaves it. */
export interface NewLabelCandidate {
  label: ShieldLabel;
  text: string;
  reason: ShieldCandidateReason;
}

export interface LabelCandidateRow extends NewLabelCandidate {
  id: number;
  createdAt: string;
}

export interface ShieldDecisionStore {
  /** Records a refusal or a warning of the shield; its id. */
  record(decision: NewShieldDecision): Promise<number>;
  find(id: number): Promise<ShieldDecisionRow | undefined>;
  /** Up to `limit` decisions, newest first; those before the decision `before` (an id) if given. */
  recent(limit: number, before?: number): Promise<ShieldDecisionRow[]>;
  /** The decisions on the member's own messages still kept, oldest first (Download my data). */
  ofSender(accountId: number): Promise<ShieldDecisionRow[]>;
  /** Marks a decision mistaken; false when there is none with this id, or it is marked already. */
  markMistaken(id: number, moderatorId: number, at: string): Promise<boolean>;
  /** Deletes the decisions made before `before`; how many. */
  forgetBefore(before: string): Promise<number>;
  /** Stores texts to label; how many. */
  addCandidates(candidates: readonly NewLabelCandidate[], at: string): Promise<number>;
  /** The texts no export has written yet, oldest first. */
  unexportedCandidates(): Promise<LabelCandidateRow[]>;
  /** Marks these candidates exported (those not exported yet); how many. */
  markExported(ids: readonly number[], at: string): Promise<number>;
  /** Deletes the candidates exported before `before`; how many. */
  forgetExportedBefore(before: string): Promise<number>;
  /**
   * The texts of the account's first messages (sent in a conversation before the other side had
   * written after its first message there: conversations.answered), each text once, in the order
   * first sent, at most `limit`.
   */
  firstMessagesOf(accountId: number, limit: number): Promise<string[]>;
}

/** Ids in one statement (well under either engine's limit of parameters). */
const BATCH = 500;

const FAMILY_SEPARATOR = ',';
const REASON_SEPARATOR = '; ';
const listOf = (joined: string, separator: string) =>
  joined === '' ? [] : joined.split(separator);

export function shieldDecisionStore({ db }: StoreContext): ShieldDecisionStore {
  const decisions = () =>
    db
      .selectFrom('shield_decisions')
      .select([
        'id',
        'sender_id as senderId',
        'recipient_id as recipientId',
        'text',
        'outcome',
        'decided_by as by',
        'families',
        'probability',
        'adjusted',
        'behaviour',
        'created_at as at',
        'marked_mistaken_at as markedMistakenAt',
        'marked_by as markedBy',
      ]);
  type Selected = Awaited<ReturnType<ReturnType<typeof decisions>['execute']>>[number];
  const rowOf = (row: Selected): ShieldDecisionRow => ({
    ...row,
    families: listOf(row.families, FAMILY_SEPARATOR),
    behaviour: listOf(row.behaviour, REASON_SEPARATOR),
  });

  return {
    async record(decision) {
      const { id } = await db
        .insertInto('shield_decisions')
        .values({
          sender_id: decision.senderId,
          recipient_id: decision.recipientId,
          text: decision.text,
          outcome: decision.outcome,
          decided_by: decision.by,
          families: decision.families.join(FAMILY_SEPARATOR),
          probability: decision.probability,
          adjusted: decision.adjusted,
          behaviour: decision.behaviour.join(REASON_SEPARATOR),
          created_at: decision.at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    async find(id) {
      if (!isStorableId(id)) return undefined;
      const row = await decisions().where('id', '=', id).executeTakeFirst();
      return row && rowOf(row);
    },

    async recent(limit, before) {
      let query = decisions().orderBy('id', 'desc').limit(limit);
      if (before !== undefined)
        query = query.where('id', '<', Math.min(before, Number.MAX_SAFE_INTEGER));
      return (await query.execute()).map(rowOf);
    },

    async ofSender(accountId) {
      const rows = await decisions().where('sender_id', '=', accountId).orderBy('id').execute();
      return rows.map(rowOf);
    },

    async markMistaken(id, moderatorId, at) {
      if (!isStorableId(id)) return false;
      return changedOne(
        db
          .updateTable('shield_decisions')
          .set({ marked_mistaken_at: at, marked_by: moderatorId })
          .where('id', '=', id)
          .where('marked_mistaken_at', 'is', null),
      );
    },

    forgetBefore: (before) =>
      rowsChanged(db.deleteFrom('shield_decisions').where('created_at', '<', before)),

    async addCandidates(candidates, at) {
      if (candidates.length === 0) return 0;
      return rowsChanged(
        db
          .insertInto('shield_label_candidates')
          .values(
            candidates.map(({ label, text, reason }) => ({ label, text, reason, created_at: at })),
          ),
      );
    },

    async unexportedCandidates() {
      return db
        .selectFrom('shield_label_candidates')
        .select(['id', 'label', 'text', 'reason', 'created_at as createdAt'])
        .where('exported_at', 'is', null)
        .orderBy('id')
        .execute();
    },

    async markExported(ids, at) {
      let marked = 0;
      for (let start = 0; start < ids.length; start += BATCH)
        marked += await rowsChanged(
          db
            .updateTable('shield_label_candidates')
            .set({ exported_at: at })
            .where('id', 'in', ids.slice(start, start + BATCH).filter(isStorableId))
            .where('exported_at', 'is', null),
        );
      return marked;
    },

    forgetExportedBefore: (before) =>
      rowsChanged(
        db
          .deleteFrom('shield_label_candidates')
          .where('exported_at', 'is not', null)
          .where('exported_at', '<', before),
      ),

    async firstMessagesOf(accountId, limit) {
      if (!isStorableId(accountId)) return [];
      const rows = await db
        .selectFrom('messages as m')
        .select('m.body')
        .where('m.sender_id', '=', accountId)
        // Nothing from the other side between the account's first message there and this one.
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('messages as reply')
                .select('reply.id')
                .whereRef('reply.conversation_id', '=', 'm.conversation_id')
                .where('reply.sender_id', '!=', accountId)
                .whereRef('reply.id', '<', 'm.id')
                .where('reply.id', '>', (eb) =>
                  eb
                    .selectFrom('messages as earliest')
                    .select((inner) => inner.fn.min('earliest.id').as('id'))
                    .whereRef('earliest.conversation_id', '=', 'm.conversation_id')
                    .where('earliest.sender_id', '=', accountId),
                ),
            ),
          ),
        )
        .groupBy('m.body')
        .orderBy((eb) => eb.fn.min('m.id'))
        .limit(limit)
        .execute();
      return rows.map((row) => row.body);
    },
  };
}
