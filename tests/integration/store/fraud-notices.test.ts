// The fraud notices part of the store (store/parts/fraud-notices.ts), on SQLite and (in the postgres
// suite) on PostgreSQL: who answered an account (wrote after its first message in a conversation),
// a notice recorded once per account and member, claims that hand each notice to one caller,
// a claim given back, the conversations that show a notice, and a member's deletion.
import { beforeEach, describe, expect, it } from 'vitest';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';

const t = storeForEachTest();
const AT = '2026-11-24T10:00:00.000Z';
/** 1 the scammer; 2 answered in two conversations; 3 wrote first and never again; 4 never wrote. */
const SCAMMER = 1;
let threads: number[];

async function conversation(posterId: number, replierId: number, title: string) {
  const row = await t.sql.get<{ id: number }>(
    `INSERT INTO conversations (ad_id, ad_title, poster_id, replier_id, started_at, last_message_at)
     VALUES (NULL, ?, ?, ?, ?, ?) RETURNING id`,
    title,
    posterId,
    replierId,
    AT,
    AT,
  );
  return row!.id;
}

async function message(conversationId: number, senderId: number) {
  await t.sql.run(
    'INSERT INTO messages (conversation_id, sender_id, body, sent_at) VALUES (?, ?, ?, ?)',
    conversationId,
    senderId,
    'Hello.',
    AT,
  );
}

beforeEach(async () => {
  for (const id of [1, 2, 3, 4]) await accountRow(t.sql, id, { at: AT });
  threads = [
    await conversation(2, SCAMMER, 'Ad one of 2'),
    await conversation(SCAMMER, 2, "The scammer's ad"),
    await conversation(SCAMMER, 3, "The scammer's ad again"),
    await conversation(4, SCAMMER, 'Ad of 4'),
  ];
  await message(threads[0]!, SCAMMER);
  await message(threads[0]!, 2);
  await message(threads[1]!, 2);
  await message(threads[1]!, SCAMMER);
  await message(threads[1]!, 2);
  await message(threads[2]!, 3);
  await message(threads[2]!, SCAMMER);
  await message(threads[3]!, SCAMMER);
});

describe('fraud notices', () => {
  it('finds who answered, records once, and hands each claim to one caller', async () => {
    const answered = await t.store.fraudNotices.answeredConversations(SCAMMER);
    expect(answered).toEqual([
      {
        conversationId: threads[0],
        adTitle: 'Ad one of 2',
        memberId: 2,
        memberEmail: 'member-2@example.com',
        memberIsPoster: true,
      },
      {
        conversationId: threads[1],
        adTitle: "The scammer's ad",
        memberId: 2,
        memberEmail: 'member-2@example.com',
        memberIsPoster: false,
      },
    ]);

    expect(await t.store.fraudNotices.record(SCAMMER, [2], 'ad-removed', AT)).toBe(1);
    expect(await t.store.fraudNotices.record(SCAMMER, [2], 'banned', AT)).toBe(0);
    expect(await t.sql.all('SELECT member_id, action FROM fraud_notices')).toEqual([
      { member_id: 2, action: 'banned' },
    ]);
    expect(await t.store.fraudNotices.noticedConversations(2)).toEqual([
      { conversationId: threads[0], action: 'banned' },
      { conversationId: threads[1], action: 'banned' },
    ]);
    expect(await t.store.fraudNotices.noticedConversations(2, threads[1])).toHaveLength(1);
    expect(await t.store.fraudNotices.noticedConversations(3)).toEqual([]);

    const claimAt = '2026-11-24T11:00:00.000Z';
    const claims = await Promise.all([
      t.store.fraudNotices.claimUnmailed(claimAt, 10),
      t.store.fraudNotices.claimUnmailed(claimAt, 10, SCAMMER),
    ]);
    expect(claims.flat()).toEqual([{ bannedAccountId: SCAMMER, memberId: 2, action: 'banned' }]);
    expect(await t.store.fraudNotices.release(SCAMMER, 2, 'another time')).toBe(false);
    expect(await t.store.fraudNotices.release(SCAMMER, 2, claimAt)).toBe(true);
    expect(await t.store.fraudNotices.claimUnmailed(claimAt, 10, 99)).toEqual([]);
    expect(await t.store.fraudNotices.claimUnmailed(claimAt, 10, SCAMMER)).toHaveLength(1);
    expect(await t.store.fraudNotices.claimUnmailed(claimAt, 10)).toEqual([]);
  });

  it('leaves out a banned member, and goes with a deleted one', async () => {
    await t.store.fraudNotices.record(SCAMMER, [2], 'banned', AT);
    await t.sql.run('UPDATE accounts SET banned_at = ? WHERE id = 2', AT);
    expect(await t.store.fraudNotices.answeredConversations(SCAMMER)).toEqual([]);
    await t.sql.run('DELETE FROM accounts WHERE id = 2');
    expect(await t.sql.all('SELECT * FROM fraud_notices')).toEqual([]);
  });
});
