// The member's data tests: conversations, messages, blocks and reports written straight into the
// database (migration 5), as the messages and reports code stores them, so the data file and the
// account deletion can be tested apart from those routes.
import type { Db } from '../../server/db/database.ts';

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

/** A conversation about a member ad between its poster and a replier; its id. */
export function insertConversation(
  db: Db,
  thread: { adId: number; adTitle: string; posterId: number; replierId: number },
): number {
  return Number(
    db
      .prepare(
        `INSERT INTO conversations (ad_id, ad_title, poster_id, replier_id, started_at,
           last_message_at) VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(thread.adId, thread.adTitle, thread.posterId, thread.replierId, at(60), at(1))
      .lastInsertRowid,
  );
}

/** A message in a conversation, `minutesAgo` before now; its id. */
export function insertMessage(
  db: Db,
  conversationId: number,
  senderId: number,
  body: string,
  minutesAgo = 30,
): number {
  return Number(
    db
      .prepare(
        'INSERT INTO messages (conversation_id, sender_id, body, sent_at) VALUES (?, ?, ?, ?)',
      )
      .run(conversationId, senderId, body, at(minutesAgo)).lastInsertRowid,
  );
}

export function insertBlock(db: Db, blockerId: number, blockedId: number): void {
  db.prepare('INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)').run(
    blockerId,
    blockedId,
    at(5),
  );
}

/** A member's report of an ad (or of a conversation about it); its id. */
export function insertReport(
  db: Db,
  report: {
    adId: number;
    reporterId: number;
    reportedAccountId?: number;
    conversationId?: number;
    reason: string;
    note?: string;
    thread?: string;
  },
): number {
  return Number(
    db
      .prepare(
        `INSERT INTO reports (ad_id, conversation_id, reported_account_id, reporter_key,
           reporter_account_id, reason, note, ad_copy, thread, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        report.adId,
        report.conversationId ?? null,
        report.reportedAccountId ?? null,
        `account:${report.reporterId}`,
        report.reporterId,
        report.reason,
        report.note ?? '',
        JSON.stringify({ title: 'As reported', description: 'The ad as the reporter saw it.' }),
        report.thread ?? null,
        at(10),
      ).lastInsertRowid,
  );
}

/** How many rows a table holds, optionally where a column has a value. */
export function countRows(db: Db, table: string, where?: { column: string; value: unknown }) {
  const sql = `SELECT COUNT(*) AS n FROM ${table}${where ? ` WHERE ${where.column} = ?` : ''}`;
  const statement = db.prepare(sql);
  return (
    (where ? statement.get(where.value) : statement.get()) as {
      n: number;
    }
  ).n;
}
