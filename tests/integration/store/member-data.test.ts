// The member data part of the store, on SQLite and (in the postgres suite) on PostgreSQL: every row
// the data file is made of, and Delete my account (server/accounts/delete-account.ts): what goes,
// what stays for the other side, and the id kept from reuse.
import { beforeEach, describe, expect, it } from 'vitest';
import { deleteAccount } from '../../../server/accounts/delete-account.ts';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';
import { adRow } from '../../helpers/store-ads.ts';

const t = storeForEachTest();

const ME = 7;
const OTHER = 8;
const MODERATOR = 9;
const T = (minute: number) => `2026-11-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

async function insertAccount(id: number, role: 'member' | 'moderator' = 'member') {
  await accountRow(t.sql, id, { at: T(0), verifiedAt: T(1), role });
}

const insertAd = (accountId: number, title: string, status: string, minute: number) =>
  adRow(t.sql, accountId, {
    title,
    status,
    description: 'Say hello.',
    at: T(minute),
    postedOn: status === 'live' ? '2026-11-01' : null,
    expiresOn: status === 'live' ? '2026-11-30' : null,
  });

async function insertConversation(
  adId: number,
  title: string,
  posterId: number,
  replierId: number,
) {
  const row = await t.sql.get<{ id: number }>(
    `INSERT INTO conversations (ad_id, ad_title, poster_id, replier_id, started_at, last_message_at)
     VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
    adId,
    title,
    posterId,
    replierId,
    T(10),
    T(20),
  );
  return row!.id;
}

async function insertMessage(
  conversationId: number,
  senderId: number,
  body: string,
  minute: number,
) {
  await t.sql.run(
    'INSERT INTO messages (conversation_id, sender_id, body, sent_at) VALUES (?, ?, ?, ?)',
    conversationId,
    senderId,
    body,
    T(minute),
  );
}

let myLiveAd: number;
let myReviewAd: number;
let theirAd: number;
let aboutMyAd: number;
let aboutTheirAd: number;

beforeEach(async () => {
  await insertAccount(ME);
  await insertAccount(OTHER);
  await insertAccount(MODERATOR, 'moderator');
  myLiveAd = await insertAd(ME, 'My live ad', 'live', 2);
  myReviewAd = await insertAd(ME, 'My ad in review', 'review', 3);
  theirAd = await insertAd(OTHER, 'Their ad', 'live', 4);
  aboutMyAd = await insertConversation(myLiveAd, 'My live ad', ME, OTHER);
  aboutTheirAd = await insertConversation(theirAd, 'Their ad', OTHER, ME);
  await insertMessage(aboutMyAd, OTHER, 'Hello from the other side.', 11);
  await insertMessage(aboutMyAd, ME, 'Hello back.', 12);
  // The poster's answer: a chat (as the store's addMessage marks it).
  await t.sql.run('UPDATE conversations SET answered_at = ? WHERE id = ?', T(12), aboutMyAd);
  await insertMessage(aboutTheirAd, ME, 'I replied to your ad.', 13);
  await t.sql.run(
    'INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)',
    ME,
    OTHER,
    T(30),
  );
  await t.sql.run(
    `INSERT INTO reports (ad_id, reported_account_id, reporter_key, reporter_account_id, reason,
       ad_copy, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    theirAd,
    OTHER,
    `account:${ME}`,
    ME,
    'spam',
    '{}',
    T(31),
  );
  await t.sql.run(
    `INSERT INTO sessions (token_hash, account_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
    Buffer.alloc(32, 1),
    ME,
    T(0),
    '2026-12-01T00:00:00.000Z',
  );
});

describe('the rows of the data file', () => {
  it("are the member's account, ads, conversations from both sides, messages, blocks and reports", async () => {
    const rows = (await t.store.memberData.rowsOf(ME))!;
    expect(rows.account).toEqual({
      id: ME,
      email: 'member-7@example.com',
      dateOfBirth: '1990-01-01',
      createdAt: T(0),
      emailVerifiedAt: T(1),
      termsAcceptedAt: T(0),
      role: 'member',
    });
    expect(rows.verifiedFirstOnly).toBe(false);
    expect(rows.messageSettings).toEqual({ requestsAtOnce: false, readReceipts: false });
    expect(rows.ads.map((ad) => [ad.id, ad.title, ad.status, ad.postedOn])).toEqual([
      [myLiveAd, 'My live ad', 'live', '2026-11-01'],
      [myReviewAd, 'My ad in review', 'review', null],
    ]);
    expect(rows.ads[0]).toMatchObject({ age: 34, pendingTitle: null, rejectedReason: null });
    // Both with OTHER, begun and last written at the same minutes. A replier is never told that
    // the poster filtered their conversation, nor whether it is in the poster's Requests.
    const conversation = (id: number, adId: number, adTitle: string, side: string) => ({
      ...{ id, adId, adTitle, side, otherSideId: OTHER, otherSideExists: true },
      ...{ startedAt: T(10), lastMessageAt: T(20), filtered: false, request: false },
    });
    expect(rows.conversations).toEqual([
      conversation(aboutMyAd, myLiveAd, 'My live ad', 'poster'),
      conversation(aboutTheirAd, theirAd, 'Their ad', 'replier'),
    ]);
    expect(rows.messages).toEqual([
      {
        conversationId: aboutMyAd,
        mine: false,
        body: 'Hello from the other side.',
        sentAt: T(11),
        readAt: null,
      },
      { conversationId: aboutMyAd, mine: true, body: 'Hello back.', sentAt: T(12), readAt: null },
      {
        conversationId: aboutTheirAd,
        mine: true,
        body: 'I replied to your ad.',
        sentAt: T(13),
        readAt: null,
      },
    ]);
    expect(rows.blocks).toEqual([{ blockedId: OTHER, createdAt: T(30) }]);
    expect(rows.reports).toEqual([
      {
        id: expect.any(Number),
        adId: theirAd,
        conversationId: null,
        reason: 'spam',
        note: '',
        createdAt: T(31),
        resolution: null,
        resolvedAt: null,
      },
    ]);
  });

  it("hold nothing of anyone else's, and nothing for an unknown account", async () => {
    const theirs = (await t.store.memberData.rowsOf(OTHER))!;
    expect(theirs.ads.map((ad) => ad.id)).toEqual([theirAd]);
    expect(theirs.blocks).toEqual([]);
    expect(theirs.reports).toEqual([]);
    expect(await t.store.memberData.rowsOf(42)).toBeUndefined();
  });

  it('are read the same within a unit of work', async () => {
    const outside = await t.store.memberData.rowsOf(ME);
    expect(await t.store.unitOfWork((tx) => tx.memberData.rowsOf(ME))).toEqual(outside);
  });
});

describe('deleting an account', () => {
  it('takes the account and what goes with it, and answers the ads that were live', async () => {
    expect(await deleteAccount(t.store, ME, new Date(T(40)))).toEqual({
      kind: 'deleted',
      email: 'member-7@example.com',
      liveAdIds: [myLiveAd],
    });
    expect(await t.sql.all('SELECT id FROM accounts WHERE id = ?', ME)).toEqual([]);
    expect(await t.sql.all('SELECT id, deleted_at FROM deleted_accounts')).toEqual([
      { id: ME, deleted_at: T(40) },
    ]);
    for (const [table, column] of [
      ['member_ads', 'account_id'],
      ['sessions', 'account_id'],
      ['blocks', 'blocker_id'],
    ] as const)
      expect(await t.sql.all(`SELECT 1 AS one FROM ${table} WHERE ${column} = ?`, ME)).toEqual([]);
    // The other side keeps its threads and messages, with this side NULL, and this side's
    // messages there until the day given (30 days on, from the domain); reports stay.
    expect(
      await t.sql.all('SELECT id, ad_id, poster_id, replier_id FROM conversations ORDER BY id'),
    ).toEqual([
      { id: aboutMyAd, ad_id: null, poster_id: null, replier_id: OTHER },
      { id: aboutTheirAd, ad_id: theirAd, poster_id: OTHER, replier_id: null },
    ]);
    expect(await t.sql.all('SELECT body, kept_until FROM messages ORDER BY id')).toEqual([
      { body: 'Hello from the other side.', kept_until: null },
      { body: 'Hello back.', kept_until: '2026-12-01T00:40:00.000Z' },
      { body: 'I replied to your ad.', kept_until: '2026-12-01T00:40:00.000Z' },
    ]);
    expect(await t.sql.all('SELECT ad_id, reporter_account_id FROM reports')).toEqual([
      { ad_id: theirAd, reporter_account_id: null },
    ]);
    expect(await t.store.memberData.rowsOf(ME)).toBeUndefined();
  });

  it('removes a thread once both its members have deleted their accounts', async () => {
    await deleteAccount(t.store, ME, new Date(T(40)));
    expect((await deleteAccount(t.store, OTHER, new Date(T(41)))).kind).toBe('deleted');
    expect(await t.sql.all('SELECT id FROM conversations')).toEqual([]);
    expect((await t.sql.all('SELECT id FROM deleted_accounts ORDER BY id')).length).toBe(2);
  });

  it("refuses a moderator's account and answers gone for an unknown one, changing nothing", async () => {
    expect(await deleteAccount(t.store, MODERATOR, new Date(T(40)))).toEqual({
      kind: 'moderator',
    });
    expect(await deleteAccount(t.store, 42, new Date(T(40)))).toEqual({ kind: 'gone' });
    expect(await t.sql.all('SELECT id FROM accounts ORDER BY id')).toEqual([
      { id: ME },
      { id: OTHER },
      { id: MODERATOR },
    ]);
    expect(await t.sql.all('SELECT id FROM deleted_accounts')).toEqual([]);
  });

  it('twice at once: one deletes, the other finds it gone', async () => {
    const outcomes = await Promise.all([
      deleteAccount(t.store, ME, new Date(T(40))),
      deleteAccount(t.store, ME, new Date(T(40))),
    ]);
    expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['deleted', 'gone']);
  });

  it('is undone whole when its unit of work fails', async () => {
    await expect(
      t.store.unitOfWork(async (tx) => {
        await tx.memberData.removeAccount(ME, T(40), T(50));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await t.store.memberData.rowsOf(ME))?.ads).toHaveLength(2);
    expect(await t.sql.all('SELECT id FROM deleted_accounts')).toEqual([]);
  });
});
