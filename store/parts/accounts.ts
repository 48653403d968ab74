// Accounts: who signed up, with what address, password hash and date of birth, and whether the
// address is verified or the account banned; and the addresses of banned accounts.
import { sql } from 'kysely';
import type { StoreContext } from '../store-context.ts';
import { stampOnce } from './stamp-once.ts';

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
  role: 'member' | 'moderator';
  /** When the member opened the verification link; null until then. */
  emailVerifiedAt: string | null;
  /** When a moderator banned the account (sign-in refused); null for any other. */
  bannedAt: string | null;
}

/** The lock a new account's id is taken under (server/accounts/new-account.ts). */
export const NEW_ACCOUNT_ID_LOCK = 'accounts:new-id';

export interface AccountStore {
  /**
   * The new account's id, or undefined when the email is taken (also under a race: the unique
   * index decides). The id is taken above every deleted account's too (migration 6), so ids
   * copied into the moderation log and reports never come to name someone else; two sign-ups at
   * once must not read the same highest id, so this runs in a unit of work holding
   * NEW_ACCOUNT_ID_LOCK (on SQLite the statement's write lock alone would do).
   */
  create(account: NewAccount): Promise<number | undefined>;
  findByEmail(email: string): Promise<AccountRow | undefined>;
  findById(id: number): Promise<AccountRow | undefined>;
  /** A banned account's address: it cannot sign up again (moderation, migration 4). */
  isBannedEmail(email: string): Promise<boolean>;
  /** Marks the address verified, unless it was already (the first time is kept). */
  markVerified(id: number, now: string): Promise<void>;
  setPasswordHash(id: number, passwordHash: string): Promise<void>;
}

export function accountStore({ db }: StoreContext): AccountStore {
  const find = () =>
    db
      .selectFrom('accounts')
      .select([
        'id',
        'email',
        'password_hash as passwordHash',
        'role',
        'email_verified_at as emailVerifiedAt',
        'banned_at as bannedAt',
      ]);
  return {
    async create(account) {
      // One statement reading both highest ids (each an index look-up, not a scan).
      const nextId = sql<number>`coalesce((
        select max(taken.id) from (
          select max(id) as id from accounts
          union all
          select max(id) as id from deleted_accounts
        ) as taken), 0) + 1`;
      const row = await db
        .insertInto('accounts')
        .values({
          id: nextId,
          email: account.email,
          password_hash: account.passwordHash,
          date_of_birth: account.dateOfBirth,
          terms_accepted_at: account.termsAcceptedAt,
          created_at: account.createdAt,
        })
        .onConflict((oc) => oc.column('email').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row?.id;
    },
    findByEmail: (email) => find().where('email', '=', email).executeTakeFirst(),
    findById: (id) => find().where('id', '=', id).executeTakeFirst(),
    async isBannedEmail(email) {
      const row = await db
        .selectFrom('banned_emails')
        .select('email')
        .where('email', '=', email)
        .executeTakeFirst();
      return row !== undefined;
    },
    async markVerified(id, now) {
      await stampOnce(db.updateTable('accounts'), 'email_verified_at', id, now).execute();
    },
    async setPasswordHash(id, passwordHash) {
      await db
        .updateTable('accounts')
        .set({ password_hash: passwordHash })
        .where('id', '=', id)
        .execute();
    },
  };
}
