// Sessions: stored by the hash of their token, so a leaked database holds no usable token.
import type { Db } from './database.ts';

export interface SessionAccount {
  accountId: number;
  email: string;
  emailVerified: boolean;
  role: 'member' | 'moderator';
  /** YYYY-MM-DD, as entered at sign-up (the posting form's default age). */
  dateOfBirth: string;
}

export function sessionStore(db: Db) {
  const insert = db.prepare(
    'INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
  );
  const find = db.prepare(
    `SELECT accounts.id AS accountId, accounts.email AS email,
       accounts.email_verified_at IS NOT NULL AS emailVerified, accounts.role AS role,
       accounts.date_of_birth AS dateOfBirth FROM sessions
     JOIN accounts ON accounts.id = sessions.account_id
     WHERE sessions.token_hash = ? AND sessions.expires_at > ? AND accounts.banned_at IS NULL`,
  );
  const remove = db.prepare('DELETE FROM sessions WHERE token_hash = ?');
  const removeExpired = db.prepare('DELETE FROM sessions WHERE expires_at <= ?');
  const removeAll = db.prepare('DELETE FROM sessions WHERE account_id = ?');
  return {
    create(tokenHash: Buffer, accountId: number, createdAt: string, expiresAt: string): void {
      insert.run(tokenHash, accountId, createdAt, expiresAt);
    },
    findValid(tokenHash: Buffer, now: string): SessionAccount | undefined {
      const row = find.get(tokenHash, now) as
        (Omit<SessionAccount, 'emailVerified'> & { emailVerified: number }) | undefined;
      return row && { ...row, emailVerified: row.emailVerified === 1 };
    },
    /** Revokes one session (sign out). */
    revoke(tokenHash: Buffer): void {
      remove.run(tokenHash);
    },
    /** Revokes every session of an account (password reset): signed out everywhere. */
    revokeAll(accountId: number): number {
      return removeAll.run(accountId).changes;
    },
    removeExpired(now: string): number {
      return removeExpired.run(now).changes;
    },
  };
}
