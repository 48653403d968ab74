// The member's data tests: conversations, messages, blocks and reports written through the
// store's parts (migration 5), as the messages and reports code stores them, so the data file and
// the account deletion can be tested apart from those routes. Written through the test's store
// (either engine), or an end-to-end server's; rows counted with raw SQL (`countRows`).
import type { ReportReason } from '../../core/schemas/report-reasons.ts';
import type { ThreadLine } from '../../core/schemas/report-records.ts';
import { deleteAccountApiPath } from '../../core/paths.ts';
import { cookieHeader, PASSWORD, postForm, postJson, type App, type TestApp } from './api.ts';
import { storedRow } from './stored-rows.ts';

type Parts = Pick<TestApp, 'store'>;
type Rows = Pick<TestApp, 'sql'>;

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

export interface NewConversation {
  adId: number;
  adTitle: string;
  posterId: number;
  replierId: number;
}

/** A conversation about a member ad between its poster and a replier, an hour ago; its id. */
export async function addConversation(t: Parts, thread: NewConversation): Promise<number> {
  return (await t.store.conversations.create({ ...thread, at: at(60) }))!;
}

/**
 * A conversation about the ad between its poster and a replier, with its messages in order (each
 * by the poster or the replier, so many minutes ago); its id.
 */
export async function addThread(
  t: Parts,
  ad: Pick<NewConversation, 'adId' | 'adTitle'>,
  people: Pick<NewConversation, 'posterId' | 'replierId'>,
  messages: Array<['poster' | 'replier', string, number]>,
): Promise<number> {
  const id = await addConversation(t, { ...ad, ...people });
  for (const [sender, body, minutesAgo] of messages)
    await addMessage(
      t,
      id,
      sender === 'poster' ? people.posterId : people.replierId,
      body,
      minutesAgo,
    );
  return id;
}

/** A message in a conversation, `minutesAgo` before now; its id. */
export function addMessage(
  t: Parts,
  conversationId: number,
  senderId: number,
  body: string,
  minutesAgo = 30,
): Promise<number> {
  return t.store.conversations.addMessage(conversationId, senderId, body, at(minutesAgo));
}

export async function addBlock(t: Parts, blockerId: number, blockedId: number): Promise<void> {
  await t.store.blocks.block(blockerId, blockedId, at(5));
}

/** `blockerId` blocks the poster of `adId` and reports that ad, as a member does from its page. */
export async function blockAndReport(
  t: Parts,
  blockerId: number,
  posterId: number,
  report: { adId: number; reason: string; note?: string },
): Promise<number> {
  await addBlock(t, blockerId, posterId);
  return addReport(t, { ...report, reporterId: blockerId, reportedAccountId: posterId });
}

/** A member's report of an ad (or of a conversation about it), as the reports code stores it. */
export async function addReport(
  t: Parts,
  report: {
    adId: number;
    reporterId: number;
    reportedAccountId?: number;
    conversationId?: number;
    reason: string;
    note?: string;
    thread?: ThreadLine[];
  },
): Promise<number> {
  const id = await t.store.reports.insert({
    adId: report.adId,
    conversationId: report.conversationId ?? null,
    reportedAccountId: report.reportedAccountId ?? null,
    reporterKey: `account:${report.reporterId}`,
    reporterAccountId: report.reporterId,
    reason: report.reason as ReportReason,
    note: report.note ?? '',
    adCopy: {
      id: report.adId,
      state: 'California',
      city: 'Los Angeles',
      kind: 'member',
      postedAt: at(120),
      sample: false,
      age: 30,
      seeks: 'w4m',
      title: 'As reported',
      description: 'The ad as the reporter saw it.',
    },
    thread: report.thread ?? null,
    createdAt: at(10),
    round: 1,
    reporterDismissed: 0,
  });
  return id!;
}

/** How many rows a table holds, optionally where a column has a value. */
export async function countRows(
  t: Rows,
  table: string,
  where?: { column: string; value: unknown },
): Promise<number> {
  const text = `SELECT COUNT(*) AS n FROM ${table}${where ? ` WHERE ${where.column} = ?` : ''}`;
  const row = await storedRow<{ n: number }>(t, text, ...(where ? [where.value] : []));
  return Number(row!.n);
}

/**
 * Delete my account, confirmed with `password` (the member's own unless told): posted as the
 * page's script posts it (JSON), or as a plain form post; the answer.
 */
export function deleteAccountOf(
  t: { app: App },
  member: { session: string },
  { password = PASSWORD, form = false }: { password?: string; form?: boolean } = {},
): Promise<Response> {
  const post = form ? postForm : postJson;
  return post(t.app, deleteAccountApiPath(), { password }, cookieHeader(member.session));
}
