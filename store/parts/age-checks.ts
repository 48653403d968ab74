// Age assurance (tables accounts.declared_state, age_checks, age_check_requests; docs/product.md
// section 6, "Age assurance"): the state a member says they live in, the outcome of their age
// check, and the requests sent to their wallet until answered. The rules (which states ask,
// what a licence must show, the texts) are server/age-assurance/'s; this part stores them.
import type { AgeCheckMethod, AgeCheckOutcome } from '../age-tables.ts';
import type { StoreContext } from '../store-context.ts';

export type { AgeCheckMethod, AgeCheckOutcome };

/** What is kept of a member's age check: nothing of the licence but its issuing state. */
export interface AgeCheckRecord {
  method: AgeCheckMethod;
  outcome: AgeCheckOutcome;
  checkedAt: string;
  issuingState: string | null;
}

/** A request sent to a member's wallet, as kept until its answer or its expiry. */
export interface AgeCheckRequestRow {
  id: string;
  accountId: number;
  /** The private scalar of the request's ephemeral P-256 reader key. */
  readerKey: Buffer;
  encryptionInfo: string;
  /** The private scalar of the request's ephemeral P-256 key for OpenID4VP (null: none). */
  openid4vpKey: Buffer | null;
  origin: string;
  createdAt: string;
  expiresAt: string;
}

export interface AgeCheckStore {
  /** The state the member says they live in (null: not said). */
  declaredState(accountId: number): Promise<string | null>;
  /** Sets (or, with null, clears) the member's state. */
  declareState(accountId: number, state: string | null): Promise<void>;
  /** Sets the member's state unless they said one already (their first ad's state). */
  declareStateIfUnset(accountId: number, state: string): Promise<void>;
  /** Keeps a request until it is taken or swept. */
  openRequest(request: AgeCheckRequestRow): Promise<void>;
  /** How many of the member's requests wait for an answer at `at` (not expired). */
  openRequestsOf(accountId: number, at: string): Promise<number>;
  /** The member's request of `id`, deleted as it is read: a request is answered once. */
  takeRequest(id: string, accountId: number): Promise<AgeCheckRequestRow | undefined>;
  /** Deletes the requests that expired before `at`; how many. */
  sweepRequests(at: string): Promise<number>;
  /** Keeps the outcome of a check; a failed one never replaces a pass. */
  record(accountId: number, check: AgeCheckRecord): Promise<void>;
  /** The kept check of each of these accounts that has one. */
  of(accountIds: readonly number[]): Promise<Map<number, AgeCheckRecord>>;
}

export function ageCheckStore({ db }: StoreContext): AgeCheckStore {
  return {
    async declaredState(accountId) {
      const row = await db
        .selectFrom('accounts')
        .select('declared_state')
        .where('id', '=', accountId)
        .executeTakeFirst();
      return row?.declared_state ?? null;
    },

    async declareState(accountId, state) {
      await db
        .updateTable('accounts')
        .set({ declared_state: state })
        .where('id', '=', accountId)
        .execute();
    },

    async declareStateIfUnset(accountId, state) {
      await db
        .updateTable('accounts')
        .set({ declared_state: state })
        .where('id', '=', accountId)
        .where('declared_state', 'is', null)
        .execute();
    },

    async openRequest(request) {
      await db
        .insertInto('age_check_requests')
        .values({
          id: request.id,
          account_id: request.accountId,
          reader_key: request.readerKey,
          encryption_info: request.encryptionInfo,
          openid4vp_key: request.openid4vpKey,
          origin: request.origin,
          created_at: request.createdAt,
          expires_at: request.expiresAt,
        })
        .execute();
    },

    async openRequestsOf(accountId, at) {
      const row = await db
        .selectFrom('age_check_requests')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('account_id', '=', accountId)
        .where('expires_at', '>', at)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async takeRequest(id, accountId) {
      const row = await db
        .deleteFrom('age_check_requests')
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      return {
        id: row.id,
        accountId: row.account_id,
        readerKey: Buffer.from(row.reader_key),
        encryptionInfo: row.encryption_info,
        openid4vpKey: row.openid4vp_key === null ? null : Buffer.from(row.openid4vp_key),
        origin: row.origin,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
      };
    },

    async sweepRequests(at) {
      const result = await db
        .deleteFrom('age_check_requests')
        .where('expires_at', '<', at)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async record(accountId, check) {
      const values = {
        method: check.method,
        outcome: check.outcome,
        checked_at: check.checkedAt,
        issuing_state: check.issuingState,
      };
      await db
        .insertInto('age_checks')
        .values({ account_id: accountId, ...values })
        .onConflict((oc) => {
          const update = oc.column('account_id').doUpdateSet(values);
          return check.outcome === 'passed'
            ? update
            : update.where('age_checks.outcome', '=', 'failed');
        })
        .execute();
    },

    async of(accountIds) {
      if (accountIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('age_checks')
        .selectAll()
        .where('account_id', 'in', [...accountIds])
        .execute();
      return new Map(
        rows.map((row) => [
          row.account_id,
          {
            method: row.method,
            outcome: row.outcome,
            checkedAt: row.checked_at,
            issuingState: row.issuing_state,
          },
        ]),
      );
    },
  };
}
