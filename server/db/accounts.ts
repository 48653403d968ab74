// Accounts: all SQL about them lives here.
import type { Db } from './database.ts';

export interface NewAccount {
  email: string;
  passwordHash: string;
  dateOfBirth: string;
  termsAcceptedAt: string;
  createdAt: string;
}

export interface AccountRow {
  id: number;
  email: string;
  passwordHash: string;
  /** When the member opened the verification link; null until then. */
  emailVerifiedAt: string | null;
  /** When a moderator banned the account (sign-in refused); null for any other. */
  bannedAt: string | null;
}

export function accountStore(db: Db) {
  // The id is taken above every deleted account's too (migration 6), so ids copied into the
  // moderation log and reports never come to name someone else. One statement: SQLite takes the
  // write lock before it reads, so two sign-ups cannot pick the same id.
  const insert = db.prepare(
    `INSERT INTO accounts (id, email, password_hash, date_of_birth, terms_accepted_at, created_at)
     VALUES (
       1 + MAX(COALESCE((SELECT MAX(id) FROM accounts), 0),
               COALESCE((SELECT MAX(id) FROM deleted_accounts), 0)),
       @email, @passwordHash, @dateOfBirth, @termsAcceptedAt, @createdAt)
     ON CONFLICT (email) DO NOTHING`,
  );
  const columns =
    'id, email, password_hash AS passwordHash, email_verified_at AS emailVerifiedAt, banned_at AS bannedAt FROM accounts';
  const byEmail = db.prepare(`SELECT ${columns} WHERE email = ?`);
  const byId = db.prepare(`SELECT ${columns} WHERE id = ?`);
  const verify = db.prepare(
    'UPDATE accounts SET email_verified_at = ? WHERE id = ? AND email_verified_at IS NULL',
  );
  const setPassword = db.prepare('UPDATE accounts SET password_hash = ? WHERE id = ?');
  const bannedEmail = db.prepare('SELECT 1 FROM banned_emails WHERE email = ?');
  return {
    /** The new account's id, or undefined when the email is taken (also under a race). */
    create(account: NewAccount): number | undefined {
      const result = insert.run(account);
      return result.changes === 1 ? Number(result.lastInsertRowid) : undefined;
    },
    findByEmail(email: string): AccountRow | undefined {
      return byEmail.get(email) as AccountRow | undefined;
    },
    findById(id: number): AccountRow | undefined {
      return byId.get(id) as AccountRow | undefined;
    },
    /** A banned account's address: it cannot sign up again (moderation, migration 4). */
    isBannedEmail(email: string): boolean {
      return bannedEmail.get(email) !== undefined;
    },
    markVerified(id: number, now: string): void {
      verify.run(now, id);
    },
    setPasswordHash(id: number, passwordHash: string): void {
      setPassword.run(passwordHash, id);
    },
  };
}
