// Sessions: stored by the hash of their token, so a leaked database holds no usable token.
import type { StoreContext } from '../store-context.ts';
import { rowsChanged } from './row-count.ts';

export interface SessionAccount {
  /** The session's row (push_subscriptions.session_id): never its token. */
  sessionId: number;
  accountId: number;
  email: string;
  emailVerified: boolean;
  role: 'member' | 'moderator';
  /** YYYY-MM-DD, as entered at sign-up (the posting form's default age). */
  dateOfBirth: string;
}

/** A SessionAccount's columns, as read (the verification still a time). */
const ACCOUNT_COLUMNS = [
  'accounts.id as accountId',
  'accounts.email as email',
  'accounts.email_verified_at as emailVerifiedAt',
  'accounts.role as role',
  'accounts.date_of_birth as dateOfBirth',
] as const;

export interface SessionStore {
  create(tokenHash: Buffer, accountId: number, createdAt: string, expiresAt: string): Promise<void>;
  /** The signed-in account of an unexpired session, unless the account is banned. */
  findValid(tokenHash: Buffer, now: string): Promise<SessionAccount | undefined>;
  /** Revokes one session (sign out); the devices it turned notifications on for go with it. */
  revoke(tokenHash: Buffer): Promise<void>;
  /**
   * Revokes every session of an account (password reset, ban): signed out everywhere, and the
   * devices those sessions turned notifications on for go with them.
   */
  revokeAll(accountId: number): Promise<number>;
  /** Deletes the expired sessions (and their devices' notifications); how many. */
  removeExpired(now: string): Promise<number>;
}

export function sessionStore({ db }: StoreContext): SessionStore {
  return {
    async create(tokenHash, accountId, createdAt, expiresAt) {
      await db
        .insertInto('sessions')
        .values({
          token_hash: tokenHash,
          account_id: accountId,
          created_at: createdAt,
          expires_at: expiresAt,
        })
        .execute();
    },
    async findValid(tokenHash, now) {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
        .select(['sessions.id as sessionId', ...ACCOUNT_COLUMNS])
        .where('sessions.token_hash', '=', tokenHash)
        .where('sessions.expires_at', '>', now)
        .where('accounts.banned_at', 'is', null)
        .executeTakeFirst();
      if (!row) return undefined;
      const { emailVerifiedAt, ...account } = row;
      return { ...account, emailVerified: emailVerifiedAt !== null };
    },
    async revoke(tokenHash) {
      await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    },
    async revokeAll(accountId) {
      return rowsChanged(db.deleteFrom('sessions').where('account_id', '=', accountId));
    },
    async removeExpired(now) {
      return rowsChanged(db.deleteFrom('sessions').where('expires_at', '<=', now));
    },
  };
}
