// The tokens of emailed links (verification, password reset): stored by their hash, so a leaked
// database holds no usable link; single use (used_at) and valid until expires_at.
import type { StoreContext } from '../store-context.ts';
import { changedOne, rowsChanged } from './row-count.ts';
import { stampOnce } from './stamp-once.ts';

export type EmailTokenPurpose = 'verify' | 'reset';

/** What a link's token is now: usable, past its time, already used, or not ours at all. */
export type TokenState = 'valid' | 'expired' | 'used' | 'unknown';

export interface EmailToken {
  id: number;
  accountId: number;
  state: TokenState;
}

export interface EmailTokenStore {
  create(
    tokenHash: Buffer,
    accountId: number,
    purpose: EmailTokenPurpose,
    now: Date,
    validMs: number,
  ): Promise<void>;
  /** The token and its state at `now`, without using it. */
  find(tokenHash: Buffer, purpose: EmailTokenPurpose, now: string): Promise<EmailToken | undefined>;
  /** Uses a valid token; false when another request used it first or it just expired. */
  use(id: number, now: string): Promise<boolean>;
  /** Uses up every unused token of an account for one purpose (the others of a reset). */
  useAll(accountId: number, purpose: EmailTokenPurpose, now: string): Promise<void>;
  /** Tokens expired before `cutoff` (kept a while, to say "expired" rather than "not valid"). */
  removeExpiredBefore(cutoff: string): Promise<number>;
}

export function emailTokenStore({ db }: StoreContext): EmailTokenStore {
  return {
    async create(tokenHash, accountId, purpose, now, validMs) {
      await db
        .insertInto('email_tokens')
        .values({
          token_hash: tokenHash,
          account_id: accountId,
          purpose,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + validMs).toISOString(),
        })
        .execute();
    },
    async find(tokenHash, purpose, now) {
      const row = await db
        .selectFrom('email_tokens')
        .select(['id', 'account_id as accountId', 'expires_at as expiresAt', 'used_at as usedAt'])
        .where('token_hash', '=', tokenHash)
        .where('purpose', '=', purpose)
        .executeTakeFirst();
      if (!row) return undefined;
      const state: TokenState = row.usedAt ? 'used' : row.expiresAt <= now ? 'expired' : 'valid';
      return { id: row.id, accountId: row.accountId, state };
    },
    async use(id, now) {
      // Only one request can use a token: the one whose UPDATE changes the row.
      return changedOne(
        stampOnce(db.updateTable('email_tokens'), 'used_at', id, now).where('expires_at', '>', now),
      );
    },
    async useAll(accountId, purpose, now) {
      await db
        .updateTable('email_tokens')
        .set({ used_at: now })
        .where('account_id', '=', accountId)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .execute();
    },
    async removeExpiredBefore(cutoff) {
      return rowsChanged(db.deleteFrom('email_tokens').where('expires_at', '<=', cutoff));
    },
  };
}
