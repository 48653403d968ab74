// Verified members (table verifications, and accounts.verified_first_only; docs/product.md
// section 6, "Verified members"): each challenge a member asked for and what became of it, the
// selfie's place in the photo storage until its bytes go, the moderator's decision, and the
// member's setting for first messages. The rules (limits, who decides, what is kept how long) are
// server/verification/'s; this part stores and reads. A decision changes a row only from the
// status it expects, so of two moderators deciding at once exactly one does.
import { sql } from 'kysely';
import { accountFlag } from './account-flag.ts';
import { idsFromJson, isStorableId } from '../ids.ts';
import { changedOne, rowCount, rowsChanged } from './row-count.ts';
import type { StoreContext } from '../store-context.ts';
import type { Selectable, Updateable } from 'kysely';
import type { VerificationsTable } from '../tables.ts';

export type VerificationStatus = VerificationsTable['status'];

export interface VerificationRow {
  id: number;
  accountId: number;
  status: VerificationStatus;
  /** In clear until decided. */
  code: string | null;
  codeHash: string;
  pose: string;
  createdAt: string;
  expiresAt: string;
  uploads: number;
  submittedAt: string | null;
  selfieKey: string | null;
  selfieWidth: number | null;
  selfieHeight: number | null;
  selfiePhash: string | null;
  selfieDeletedAt: string | null;
  level: 'person' | 'photos' | null;
  photoIds: number[];
  decidedAt: string | null;
  decidedBy: number | null;
  refusalReason: string | null;
  statementId: number | null;
  withdrawnAt: string | null;
}

export interface NewChallenge {
  accountId: number;
  code: string;
  codeHash: string;
  pose: string;
  at: string;
  expiresAt: string;
}

export interface StoredSelfie {
  key: string;
  width: number;
  height: number;
  phash: string;
  at: string;
}

/** A member's current verification: the newest approved one not withdrawn. */
export interface CurrentVerification {
  verificationId: number;
  level: 'person' | 'photos';
  photoIds: number[];
  decidedAt: string;
}

export interface VerificationStore {
  open(challenge: NewChallenge): Promise<number>;
  find(id: number): Promise<VerificationRow | undefined>;
  /** The member's verifications, newest first. */
  listForAccount(accountId: number): Promise<VerificationRow[]>;
  /** Challenges the member asked for since `since`. */
  countSince(accountId: number, since: string): Promise<number>;
  /** The member's open challenges past their expiry become expired. */
  expireOpen(accountId: number, now: string): Promise<void>;
  /** One more selfie sent for the challenge. */
  countUpload(id: number): Promise<void>;
  /** The selfie answers the open challenge (false: it is no longer open). */
  submit(id: number, selfie: StoredSelfie): Promise<boolean>;
  /** Selfies waiting for a moderator, oldest first. */
  inReview(limit: number): Promise<VerificationRow[]>;
  countInReview(): Promise<number>;
  approve(
    id: number,
    decision: { level: 'person' | 'photos'; photoIds: number[]; moderatorId: number; at: string },
  ): Promise<boolean>;
  refuse(
    id: number,
    decision: { reason: string; moderatorId: number; at: string; statementId: number },
  ): Promise<boolean>;
  /** A refusal reversed on appeal: approved as Real person (its selfie already gone or going). */
  approveOnAppeal(statementId: number, at: string): Promise<number | undefined>;
  /** The member's approved verifications become withdrawn; how many. */
  withdraw(accountId: number, at: string): Promise<number>;
  /** The selfie's bytes are deleted: its key forgotten. */
  forgetSelfie(id: number, at: string): Promise<void>;
  /** Every selfie's hash kept (to refuse reuse). */
  selfieHashes(): Promise<{ id: number; accountId: number; phash: string }[]>;
  /** The member's selfies whose bytes are kept. */
  selfiesOf(accountId: number): Promise<{ id: number; key: string }[]>;
  /**
   * Selfies still kept that are due to go: refused before `before` with no appeal of the refusal
   * open, or approved (on appeal) or withdrawn since.
   */
  selfiesDue(before: string): Promise<{ id: number; key: string }[]>;
  /** Of `keys`, those a kept selfie uses. */
  selfieKeysIn(keys: readonly string[]): Promise<Set<string>>;
  /** The current verification of each of these members that has one. */
  currentFor(accountIds: readonly number[]): Promise<Map<number, CurrentVerification>>;
  /** Whether the member accepts first messages only from verified members. */
  verifiedFirstOnly(accountId: number): Promise<boolean>;
  setVerifiedFirstOnly(accountId: number, on: boolean): Promise<void>;
}

export function verificationStore({ db }: StoreContext): VerificationStore {
  const select = () => db.selectFrom('verifications').selectAll();
  /**
   * Moves verification `id` on from status `from`, as `change` says; whether it did: the row was
   * there, still in that status (of two moderators deciding at once, exactly one does).
   */
  const moveOn = (id: number, from: VerificationStatus, change: Updateable<VerificationsTable>) =>
    changedOne(
      db.updateTable('verifications').set(change).where('id', '=', id).where('status', '=', from),
    );
  const rowOf = (row: Selectable<VerificationsTable>) =>
    ({
      id: Number(row.id),
      accountId: Number(row.account_id),
      status: row.status,
      code: row.code,
      codeHash: row.code_hash,
      pose: row.pose,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      uploads: Number(row.uploads),
      submittedAt: row.submitted_at,
      selfieKey: row.selfie_key,
      selfieWidth: row.selfie_width === null ? null : Number(row.selfie_width),
      selfieHeight: row.selfie_height === null ? null : Number(row.selfie_height),
      selfiePhash: row.selfie_phash,
      selfieDeletedAt: row.selfie_deleted_at,
      level: row.level,
      photoIds: idsFromJson(row.photo_ids),
      decidedAt: row.decided_at,
      decidedBy: row.decided_by === null ? null : Number(row.decided_by),
      refusalReason: row.refusal_reason,
      statementId: row.statement_id === null ? null : Number(row.statement_id),
      withdrawnAt: row.withdrawn_at,
    }) satisfies VerificationRow;
  return {
    async open(challenge) {
      const row = await db
        .insertInto('verifications')
        .values({
          account_id: challenge.accountId,
          status: 'open',
          code: challenge.code,
          code_hash: challenge.codeHash,
          pose: challenge.pose,
          created_at: challenge.at,
          expires_at: challenge.expiresAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return Number(row.id);
    },
    async find(id) {
      if (!isStorableId(id)) return undefined;
      const row = await select().where('id', '=', id).executeTakeFirst();
      return row && rowOf(row);
    },
    async listForAccount(accountId) {
      const rows = await select()
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(rowOf);
    },
    async countSince(accountId, since) {
      const row = await db
        .selectFrom('verifications')
        .select(rowCount.as('count'))
        .where('account_id', '=', accountId)
        .where('created_at', '>=', since)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },
    async expireOpen(accountId, now) {
      await db
        .updateTable('verifications')
        .set({ status: 'expired', code: null })
        .where('account_id', '=', accountId)
        .where('status', '=', 'open')
        .where('expires_at', '<=', now)
        .execute();
    },
    async countUpload(id) {
      await db
        .updateTable('verifications')
        .set({ uploads: sql`uploads + 1` })
        .where('id', '=', id)
        .execute();
    },
    submit: (id, selfie) =>
      moveOn(id, 'open', {
        status: 'submitted',
        submitted_at: selfie.at,
        selfie_key: selfie.key,
        selfie_width: selfie.width,
        selfie_height: selfie.height,
        selfie_phash: selfie.phash,
      }),
    async inReview(limit) {
      const rows = await select()
        .where('status', '=', 'submitted')
        .orderBy('submitted_at')
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map(rowOf);
    },
    async countInReview() {
      const row = await db
        .selectFrom('verifications')
        .select(rowCount.as('count'))
        .where('status', '=', 'submitted')
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },
    approve: (id, decision) =>
      moveOn(id, 'submitted', {
        status: 'approved',
        code: null,
        level: decision.level,
        photo_ids: JSON.stringify(decision.photoIds),
        decided_at: decision.at,
        decided_by: decision.moderatorId,
      }),
    refuse: (id, decision) =>
      moveOn(id, 'submitted', {
        status: 'refused',
        code: null,
        refusal_reason: decision.reason,
        decided_at: decision.at,
        decided_by: decision.moderatorId,
        statement_id: decision.statementId,
      }),
    async approveOnAppeal(statementId, at) {
      const row = await db
        .updateTable('verifications')
        .set({ status: 'approved', level: 'person', photo_ids: '[]', decided_at: at })
        .where('statement_id', '=', statementId)
        .where('status', '=', 'refused')
        .returning('id')
        .executeTakeFirst();
      return row ? Number(row.id) : undefined;
    },
    async withdraw(accountId, at) {
      return rowsChanged(
        db
          .updateTable('verifications')
          .set({ status: 'withdrawn', withdrawn_at: at })
          .where('account_id', '=', accountId)
          .where('status', '=', 'approved'),
      );
    },
    async forgetSelfie(id, at) {
      await db
        .updateTable('verifications')
        .set({ selfie_key: null, selfie_deleted_at: at })
        .where('id', '=', id)
        .where('selfie_key', 'is not', null)
        .execute();
    },
    async selfieHashes() {
      const rows = await db
        .selectFrom('verifications')
        .select(['id', 'account_id', 'selfie_phash'])
        .where('selfie_phash', 'is not', null)
        .execute();
      return rows.map((row) => ({
        id: Number(row.id),
        accountId: Number(row.account_id),
        phash: row.selfie_phash!,
      }));
    },
    async selfiesOf(accountId) {
      const rows = await db
        .selectFrom('verifications')
        .select(['id', 'selfie_key'])
        .where('account_id', '=', accountId)
        .where('selfie_key', 'is not', null)
        .execute();
      return rows.map((row) => ({ id: Number(row.id), key: row.selfie_key! }));
    },
    async selfiesDue(before) {
      const rows = await db
        .selectFrom('verifications as v')
        .select(['v.id', 'v.selfie_key'])
        .where('v.selfie_key', 'is not', null)
        .where(({ and, or, eb, not, exists, selectFrom }) =>
          or([
            // Approved on appeal, or withdrawn meanwhile: nothing left to decide on it.
            eb('v.status', 'in', ['approved', 'withdrawn', 'expired']),
            and([
              eb('v.status', '=', 'refused'),
              eb('v.decided_at', '<', before),
              not(
                exists(
                  selectFrom('appeals as a')
                    .select('a.id')
                    .whereRef('a.statement_id', '=', 'v.statement_id')
                    .where('a.outcome', 'is', null),
                ),
              ),
            ]),
          ]),
        )
        .execute();
      return rows.map((row) => ({ id: Number(row.id), key: row.selfie_key! }));
    },
    async selfieKeysIn(keys) {
      if (keys.length === 0) return new Set();
      const rows = await db
        .selectFrom('verifications')
        .select('selfie_key')
        .where('selfie_key', 'in', [...keys])
        .execute();
      return new Set(rows.map((row) => row.selfie_key!));
    },
    async currentFor(accountIds) {
      const ids = accountIds.filter(isStorableId);
      const current = new Map<number, CurrentVerification>();
      if (ids.length === 0) return current;
      const rows = await select()
        .where('account_id', 'in', ids)
        .where('status', '=', 'approved')
        .orderBy('decided_at')
        .orderBy('id')
        .execute();
      // The newest approved one wins (read in order, later rows replace earlier ones).
      for (const row of rows.map(rowOf))
        current.set(row.accountId, {
          verificationId: row.id,
          level: row.level ?? 'person',
          photoIds: row.photoIds,
          decidedAt: row.decidedAt ?? row.createdAt,
        });
      return current;
    },
    verifiedFirstOnly: accountFlag(
      (id) => db.selectFrom('accounts').where('id', '=', id),
      'verified_first_only',
    ),
    async setVerifiedFirstOnly(accountId, on) {
      await db
        .updateTable('accounts')
        .set({ verified_first_only: on ? 1 : 0 })
        .where('id', '=', accountId)
        .execute();
    },
  };
}
