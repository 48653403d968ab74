// The member's own data (docs/product.md section 8): everything Download my data puts in the file, and
// Delete my account. All SQL about them lives here.
//
// What a deletion does follows the ON DELETE rules of migration 5: deleting the accounts row takes
// its sessions, remembered browsers, emailed-link tokens, ads, messages and blocks with it; the
// conversations it was in stay for the other side (its side becomes NULL), and reports keep their
// copies of the ad and thread with the account set NULL. The moderation log copies ids and emails
// and is append-only: its rows stay as they are (the log page shows the account as deleted).
import type { Db } from './database.ts';

export interface DataAccountRow {
  id: number;
  email: string;
  dateOfBirth: string;
  createdAt: string;
  emailVerifiedAt: string | null;
  termsAcceptedAt: string;
  role: 'member' | 'moderator';
}

export interface DataAdRow {
  id: number;
  state: string;
  city: string;
  age: number;
  seeks: string;
  title: string;
  description: string;
  status: 'review' | 'live' | 'rejected' | 'removed' | 'deleted';
  pendingAge: number | null;
  pendingSeeks: string | null;
  pendingTitle: string | null;
  pendingDescription: string | null;
  createdAt: string;
  submittedAt: string;
  approvedAt: string | null;
  postedOn: string | null;
  expiresOn: string | null;
  rejectedReason: string | null;
  rejectedNote: string | null;
  updatedAt: string;
}

export interface DataConversationRow {
  id: number;
  adId: number | null;
  adTitle: string;
  /** The member's side: they posted the ad, or they replied to it. */
  side: 'poster' | 'replier';
  /** Whether the other side's account still exists (false: deleted). */
  otherSideExists: boolean;
  /** The other side's account id, for telling the blocks apart; never put in the file. */
  otherSideId: number | null;
  startedAt: string;
  lastMessageAt: string;
}

export interface DataMessageRow {
  conversationId: number;
  /** Sent by the member (else by the other side). */
  mine: boolean;
  body: string;
  sentAt: string;
  readAt: string | null;
}

export interface DataBlockRow {
  blockedId: number;
  createdAt: string;
}

export interface DataReportRow {
  id: number;
  adId: number;
  conversationId: number | null;
  reason: string;
  note: string;
  createdAt: string;
  resolution: string | null;
  resolvedAt: string | null;
}

export interface MemberDataRows {
  account: DataAccountRow;
  ads: DataAdRow[];
  conversations: DataConversationRow[];
  messages: DataMessageRow[];
  blocks: DataBlockRow[];
  reports: DataReportRow[];
}

export type AccountDeletion =
  | { kind: 'deleted'; email: string; liveAdIds: number[] }
  | { kind: 'gone' }
  | { kind: 'moderator' };

export function memberDataStore(db: Db) {
  const account = db.prepare(
    `SELECT id, email, date_of_birth AS dateOfBirth, created_at AS createdAt,
       email_verified_at AS emailVerifiedAt, terms_accepted_at AS termsAcceptedAt, role
     FROM accounts WHERE id = ?`,
  );
  const ads = db.prepare(
    `SELECT id, state, city, age, seeks, title, description, status, pending_age AS pendingAge,
       pending_seeks AS pendingSeeks, pending_title AS pendingTitle,
       pending_description AS pendingDescription, created_at AS createdAt,
       submitted_at AS submittedAt, approved_at AS approvedAt, posted_on AS postedOn,
       expires_on AS expiresOn, rejected_reason AS rejectedReason,
       rejected_note AS rejectedNote, updated_at AS updatedAt
     FROM member_ads WHERE account_id = ? ORDER BY created_at, id`,
  );
  // The conversations the member is in, from either side. The other side is read only to tell
  // whether it still exists and which blocks belong to which thread.
  const conversations = db.prepare(
    `SELECT id, ad_id AS adId, ad_title AS adTitle,
       CASE WHEN poster_id = @me THEN 'poster' ELSE 'replier' END AS side,
       CASE WHEN poster_id = @me THEN replier_id ELSE poster_id END AS otherSideId,
       started_at AS startedAt, last_message_at AS lastMessageAt
     FROM conversations WHERE poster_id = @me OR replier_id = @me
     ORDER BY started_at, id`,
  );
  const messages = db.prepare(
    `SELECT messages.conversation_id AS conversationId, messages.sender_id = @me AS mine,
       messages.body, messages.sent_at AS sentAt, messages.read_at AS readAt
     FROM messages JOIN conversations ON conversations.id = messages.conversation_id
     WHERE conversations.poster_id = @me OR conversations.replier_id = @me
     ORDER BY messages.conversation_id, messages.id`,
  );
  const blocks = db.prepare(
    `SELECT blocked_id AS blockedId, created_at AS createdAt FROM blocks WHERE blocker_id = ?
     ORDER BY created_at`,
  );
  const reports = db.prepare(
    `SELECT id, ad_id AS adId, conversation_id AS conversationId, reason, note,
       created_at AS createdAt, resolution, resolved_at AS resolvedAt
     FROM reports WHERE reporter_account_id = ? ORDER BY created_at, id`,
  );

  const liveAds = db.prepare(
    `SELECT id FROM member_ads WHERE account_id = ? AND status = 'live' ORDER BY id`,
  );
  const markDeleted = db.prepare('INSERT INTO deleted_accounts (id, deleted_at) VALUES (?, ?)');
  const removeAccount = db.prepare('DELETE FROM accounts WHERE id = ?');
  // A thread both of whose members have deleted their accounts is nobody's: it goes too (a
  // report's copy of it stays with the report).
  const removeOrphans = db.prepare(
    'DELETE FROM conversations WHERE poster_id IS NULL AND replier_id IS NULL',
  );

  return {
    /** Everything the data file holds, read in one transaction (one consistent snapshot). */
    rowsOf(accountId: number): MemberDataRows | undefined {
      return db.transaction(() => {
        const found = account.get(accountId) as DataAccountRow | undefined;
        if (!found) return undefined;
        const me = { me: accountId };
        const threads = (
          conversations.all(me) as (Omit<DataConversationRow, 'otherSideExists'> & {
            otherSideId: number | null;
          })[]
        ).map((row) => ({ ...row, otherSideExists: row.otherSideId !== null }));
        return {
          account: found,
          ads: ads.all(accountId) as DataAdRow[],
          conversations: threads,
          messages: (messages.all(me) as (Omit<DataMessageRow, 'mine'> & { mine: number })[]).map(
            (row) => ({ ...row, mine: row.mine === 1 }),
          ),
          blocks: blocks.all(accountId) as DataBlockRow[],
          reports: reports.all(accountId) as DataReportRow[],
        };
      })();
    },

    /**
     * Deletes the account and, through the foreign keys, what goes with it. A moderator's account
     * is refused: the role is an operator's to take away first (npm run moderator -- remove).
     * One IMMEDIATE transaction, so a moderator's action or a new message cannot slip in between
     * reading the live ads and deleting them.
     */
    deleteAccount(accountId: number, now = new Date()): AccountDeletion {
      return db
        .transaction((): AccountDeletion => {
          const found = account.get(accountId) as DataAccountRow | undefined;
          if (!found) return { kind: 'gone' };
          if (found.role === 'moderator') return { kind: 'moderator' };
          const liveAdIds = (liveAds.all(accountId) as { id: number }[]).map((ad) => ad.id);
          markDeleted.run(accountId, now.toISOString());
          removeAccount.run(accountId);
          removeOrphans.run();
          return { kind: 'deleted', email: found.email, liveAdIds };
        })
        .immediate();
    },
  };
}

export type MemberDataStore = ReturnType<typeof memberDataStore>;
