// The tokens of emailed links (verification, password reset): stored by their hash, so a leaked
// database holds no usable link; single use (used_at) and valid until expires_at.
import type { Db } from './database.ts';

export type EmailTokenPurpose = 'verify' | 'reset';

/** What a link's token is now: usable, past its time, already used, or not ours at all. */
export type TokenState = 'valid' | 'expired' | 'used' | 'unknown';

export interface EmailToken {
  id: number;
  accountId: number;
  state: TokenState;
}

export function emailTokenStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO email_tokens (token_hash, account_id, purpose, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const find = db.prepare(
    `SELECT id, account_id AS accountId, expires_at AS expiresAt, used_at AS usedAt
     FROM email_tokens WHERE token_hash = ? AND purpose = ?`,
  );
  // Only one request can use a token: the one whose UPDATE changes the row.
  const use = db.prepare(
    'UPDATE email_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL AND expires_at > ?',
  );
  const useAll = db.prepare(
    `UPDATE email_tokens SET used_at = ? WHERE account_id = ? AND purpose = ? AND used_at IS NULL`,
  );
  const removeOld = db.prepare('DELETE FROM email_tokens WHERE expires_at <= ?');
  return {
    create(
      tokenHash: Buffer,
      accountId: number,
      purpose: EmailTokenPurpose,
      now: Date,
      validMs: number,
    ): void {
      const expires = new Date(now.getTime() + validMs).toISOString();
      insert.run(tokenHash, accountId, purpose, now.toISOString(), expires);
    },
    /** The token and its state at `now`, without using it. */
    find(tokenHash: Buffer, purpose: EmailTokenPurpose, now: string): EmailToken | undefined {
      const row = find.get(tokenHash, purpose) as
        { id: number; accountId: number; expiresAt: string; usedAt: string | null } | undefined;
      if (!row) return undefined;
      const state: TokenState = row.usedAt ? 'used' : row.expiresAt <= now ? 'expired' : 'valid';
      return { id: row.id, accountId: row.accountId, state };
    },
    /** Uses a valid token; false when another request used it first or it just expired. */
    use(id: number, now: string): boolean {
      return use.run(now, id, now).changes === 1;
    },
    /** Uses up every unused token of an account for one purpose (the others of a reset). */
    useAll(accountId: number, purpose: EmailTokenPurpose, now: string): void {
      useAll.run(now, accountId, purpose);
    },
    /** Tokens expired before `cutoff` (kept a while, to say "expired" rather than "not valid"). */
    removeExpiredBefore(cutoff: string): number {
      return removeOld.run(cutoff).changes;
    },
  };
}
