// The member's data tests: conversations, messages, blocks and reports written straight into the
// store (migration 5), as the messages and reports code stores them, so the data file and the
// account deletion can be tested apart from those routes. Written through the test's store (either
// engine), or an end-to-end server's (its `sql`).
import type { TestApp } from './api.ts';

type Rows = Pick<TestApp, 'sql'>;

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

export interface NewConversation {
  adId: number;
  adTitle: string;
  posterId: number;
  replierId: number;
}

const CONVERSATION = `INSERT INTO conversations (ad_id, ad_title, poster_id, replier_id, started_at,
  last_message_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`;
const conversationValues = (thread: NewConversation) =>
  [thread.adId, thread.adTitle, thread.posterId, thread.replierId, at(60), at(1)] as const;

const MESSAGE =
  'INSERT INTO messages (conversation_id, sender_id, body, sent_at) VALUES (?, ?, ?, ?) RETURNING id';

/** A conversation about a member ad between its poster and a replier; its id. */
export async function addConversation(t: Rows, thread: NewConversation): Promise<number> {
  const row = await t.sql.get<{ id: number }>(CONVERSATION, ...conversationValues(thread));
  return row!.id;
}

/** A message in a conversation, `minutesAgo` before now; its id. */
export async function addMessage(
  t: Rows,
  conversationId: number,
  senderId: number,
  body: string,
  minutesAgo = 30,
): Promise<number> {
  const row = await t.sql.get<{ id: number }>(
    MESSAGE,
    conversationId,
    senderId,
    body,
    at(minutesAgo),
  );
  return row!.id;
}

export async function addBlock(t: Rows, blockerId: number, blockedId: number): Promise<void> {
  await t.sql.run(
    'INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)',
    blockerId,
    blockedId,
    at(5),
  );
}

/** A member's report of an ad (or of a conversation about it); its id. */
export async function addReport(
  t: Rows,
  report: {
    adId: number;
    reporterId: number;
    reportedAccountId?: number;
    conversationId?: number;
    reason: string;
    note?: string;
    thread?: string;
  },
): Promise<number> {
  const row = await t.sql.get<{ id: number }>(
    `INSERT INTO reports (ad_id, conversation_id, reported_account_id, reporter_key,
       reporter_account_id, reason, note, ad_copy, thread, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
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
  );
  return row!.id;
}

/** How many rows a table holds, optionally where a column has a value. */
export async function countRows(
  t: Rows,
  table: string,
  where?: { column: string; value: unknown },
): Promise<number> {
  const text = `SELECT COUNT(*) AS n FROM ${table}${where ? ` WHERE ${where.column} = ?` : ''}`;
  const row = await t.sql.get<{ n: number }>(text, ...(where ? [where.value] : []));
  return Number(row!.n);
}
