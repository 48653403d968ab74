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
}

export function accountStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO accounts (email, password_hash, date_of_birth, terms_accepted_at, created_at)
     VALUES (@email, @passwordHash, @dateOfBirth, @termsAcceptedAt, @createdAt)
     ON CONFLICT (email) DO NOTHING`,
  );
  const byEmail = db.prepare(
    'SELECT id, email, password_hash AS passwordHash FROM accounts WHERE email = ?',
  );
  return {
    /** The new account's id, or undefined when the email is taken (also under a race). */
    create(account: NewAccount): number | undefined {
      const result = insert.run(account);
      return result.changes === 1 ? Number(result.lastInsertRowid) : undefined;
    },
    findByEmail(email: string): AccountRow | undefined {
      return byEmail.get(email) as AccountRow | undefined;
    },
  };
}
