// The conversations part of the store, on SQLite and (in the postgres suite) on PostgreSQL.
import { beforeEach, describe, expect, it } from 'vitest';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';
import { AD_ROW, adRow, atMinute as at } from '../../helpers/store-ads.ts';

const t = storeForEachTest();
let adId: number;

const POSTER = 1;
const REPLIER = 2;
const STRANGER = 3;

beforeEach(async () => {
  for (const id of [POSTER, REPLIER, STRANGER]) await accountRow(t.sql, id);
  adId = await insertAd('Sunday hikes');
});

const insertAd = (title: string, status = 'live') => adRow(t.sql, POSTER, { title, status });

/** A conversation of REPLIER about the ad, with messages from each side in turn; its id. */
async function conversationWith(messages: number, ad = adId): Promise<number> {
  const conversations = t.store.conversations;
  const id = await conversations.create({
    adId: ad,
    adTitle: 'Sunday hikes',
    posterId: POSTER,
    replierId: REPLIER,
    at: at(1),
  });
  for (let n = 1; n <= messages; n += 1)
    await conversations.addMessage(id!, n % 2 === 1 ? REPLIER : POSTER, `Message ${n}`, at(n));
  return id!;
}

describe('conversations', () => {
  it('creates one conversation per ad and replier, found only by its two sides', async () => {
    const id = await conversationWith(1);
    expect(
      await t.store.conversations.create({
        adId,
        adTitle: 'Sunday hikes',
        posterId: POSTER,
        replierId: REPLIER,
        at: at(2),
      }),
    ).toBeUndefined();
    expect(await t.store.conversations.existingFor(adId, REPLIER)).toBe(id);
    expect(await t.store.conversations.existingFor(adId, STRANGER)).toBeUndefined();
    const expected = {
      id,
      adId,
      adTitle: 'Sunday hikes',
      posterId: POSTER,
      replierId: REPLIER,
      startedAt: at(1),
      lastMessageAt: at(1),
      adStatus: 'live',
      adState: 'California',
      adCity: 'Los Angeles',
      adExpiresOn: '2026-12-23',
      adHidden: false,
      filteredAt: null,
      answeredAt: null,
    };
    expect(await t.store.conversations.find(id, POSTER)).toEqual(expected);
    expect(await t.store.conversations.find(id, REPLIER)).toEqual(expected);
    expect(await t.store.conversations.find(id, STRANGER)).toBeUndefined();
    expect(await t.store.conversations.find(id + 1, POSTER)).toBeUndefined();
  });

  it('says whether the ad is hidden by reports, and goes on once its row is gone', async () => {
    const id = await conversationWith(1);
    await t.sql.run(
      "INSERT INTO hidden_ads (ad_id, kind, why, hidden_at) VALUES (?, 'member', 'reports', ?)",
      adId,
      at(5),
    );
    expect((await t.store.conversations.find(id, POSTER))?.adHidden).toBe(true);
    expect((await t.store.memberAds.find(adId))?.hidden).toBe(true);
    await t.sql.run('DELETE FROM member_ads WHERE id = ?', adId);
    expect(await t.store.conversations.find(id, POSTER)).toMatchObject({
      adId: null,
      adTitle: 'Sunday hikes',
      adStatus: null,
      adState: null,
      adHidden: false,
    });
    expect(await t.store.memberAds.find(adId)).toBeUndefined();
  });

  it('reads a member ad as a reply needs it, and the accounts of its sides', async () => {
    expect(await t.store.memberAds.find(adId)).toMatchObject({
      id: adId,
      accountId: POSTER,
      ...AD_ROW,
      status: 'live',
      postedOn: '2026-11-23',
      expiresOn: '2026-12-23',
      hidden: false,
    });
    await t.sql.run('UPDATE accounts SET banned_at = ? WHERE id = ?', at(9), STRANGER);
    expect(await t.store.conversations.correspondent(STRANGER)).toEqual({
      email: 'member-3@example.com',
      createdAt: '2026-11-01T00:00:00.000Z',
      bannedAt: at(9),
      dateOfBirth: '1990-01-01',
    });
    expect(await t.store.conversations.correspondent(99)).toBeUndefined();
  });

  it('stores messages in id order, the latest as the conversation’s activity', async () => {
    const id = await conversationWith(3);
    expect(await t.store.conversations.messages(id)).toEqual([
      {
        id: expect.any(Number),
        senderId: REPLIER,
        body: 'Message 1',
        sentAt: at(1),
        scamWarnings: [],
      },
      {
        id: expect.any(Number),
        senderId: POSTER,
        body: 'Message 2',
        sentAt: at(2),
        scamWarnings: [],
      },
      {
        id: expect.any(Number),
        senderId: REPLIER,
        body: 'Message 3',
        sentAt: at(3),
        scamWarnings: [],
      },
    ]);
    expect((await t.store.conversations.find(id, POSTER))?.lastMessageAt).toBe(at(3));
  });

  it('counts what is unread, and marks read up to the newest shown', async () => {
    const id = await conversationWith(5);
    const ids = (await t.store.conversations.messages(id)).map((message) => message.id);
    expect(await t.store.conversations.hasUnreadFrom(id, REPLIER)).toBe(true);
    expect(await t.store.conversations.unreadTotal(POSTER)).toBe(3);
    expect(await t.store.conversations.unreadTotal(REPLIER)).toBe(2);
    expect(await t.store.conversations.markRead(id, POSTER, at(20), ids[2]!)).toBe(2);
    expect(await t.store.conversations.unreadTotal(POSTER)).toBe(1);
    expect(await t.store.conversations.markRead(id, POSTER, at(21), ids[4]!)).toBe(1);
    expect(await t.store.conversations.hasUnreadFrom(id, REPLIER)).toBe(false);
    expect(await t.store.conversations.hasUnreadFrom(id, POSTER)).toBe(true);
    const rows = await t.sql.all<{ read_at: string | null }>(
      'SELECT read_at FROM messages WHERE conversation_id = ? ORDER BY id',
      id,
    );
    expect(rows.map((row) => row.read_at)).toEqual([at(20), null, at(20), null, at(21)]);
  });

  it('lists the member’s conversations with messages, newest activity first', async () => {
    const first = await conversationWith(2);
    const secondAd = await insertAd('Board games');
    const second = await conversationWith(1, secondAd);
    const empty = await t.store.conversations.create({
      adId: await insertAd('Nobody wrote'),
      adTitle: 'Nobody wrote',
      posterId: POSTER,
      replierId: REPLIER,
      at: at(30),
    });
    expect(empty).toBeDefined();
    await t.store.conversations.addMessage(first, POSTER, 'Later', at(40));
    await t.sql.run(
      'INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)',
      REPLIER,
      POSTER,
      at(41),
    );
    expect(await t.store.conversations.inbox(REPLIER, 10, 'chats')).toEqual([
      {
        conversationId: first,
        adTitle: 'Sunday hikes',
        posterId: POSTER,
        replierId: REPLIER,
        lastMessageAt: at(40),
        unread: 2,
        youBlocked: true,
        otherBanned: false,
        keptUntil: null,
      },
      {
        conversationId: second,
        adTitle: 'Sunday hikes',
        posterId: POSTER,
        replierId: REPLIER,
        lastMessageAt: at(1),
        unread: 0,
        youBlocked: true,
        otherBanned: false,
        keptUntil: null,
      },
    ]);
    // The poster answered the first (their Chats); the second waits in their Requests.
    expect(await t.store.conversations.inbox(POSTER, 1, 'chats')).toEqual([
      expect.objectContaining({ conversationId: first, unread: 1, youBlocked: false }),
    ]);
    expect(await t.store.conversations.inboxCount(POSTER, 'chats')).toBe(1);
    expect(
      (await t.store.conversations.inbox(POSTER, 10, 'requests')).map((row) => row.conversationId),
    ).toEqual([second]);
    expect(await t.store.conversations.inboxCount(STRANGER, 'chats')).toBe(0);
  });

  it('reads a long conversation a page at a time, named by the message it comes before', async () => {
    const id = await conversationWith(12);
    const ids = (await t.store.conversations.messages(id)).map((message) => message.id);
    const bodies = (page: { messages: { body: string }[] }) =>
      page.messages.map((message) => Number(message.body.split(' ')[1]));

    const newest = await t.store.conversations.page(id, 5);
    expect(bodies(newest)).toEqual([8, 9, 10, 11, 12]);
    expect(newest).toMatchObject({ older: 7, total: 12 });
    expect(newest.newer).toBeUndefined();

    const middle = await t.store.conversations.page(id, 5, ids[7]);
    expect(bodies(middle)).toEqual([3, 4, 5, 6, 7]);
    expect(middle).toMatchObject({ older: 2, total: 12, newer: 'newest' });

    const oldest = await t.store.conversations.page(id, 5, ids[2]);
    expect(bodies(oldest)).toEqual([1, 2]);
    expect(oldest).toMatchObject({ older: 0, total: 12, newer: ids[7] });

    expect(await t.store.conversations.page(id, 5, ids[0])).toEqual({
      messages: [],
      older: 0,
      total: 12,
    });
  });

  it('answers the times of the member’s newest starts and messages in a window', async () => {
    const id = await conversationWith(5);
    await conversationWith(0, await insertAd('Second'));
    expect(await t.store.conversations.recentMessages(REPLIER, at(1), 10)).toEqual([at(5), at(3)]);
    expect(await t.store.conversations.recentMessages(REPLIER, at(0), 2)).toEqual([at(5), at(3)]);
    expect(await t.store.conversations.recentMessages(STRANGER, at(0), 2)).toEqual([]);
    expect(await t.store.conversations.recentStarts(REPLIER, at(0), 10)).toEqual([at(1), at(1)]);
    expect(await t.store.conversations.recentStarts(REPLIER, at(1), 10)).toEqual([]);
    expect(await t.store.conversations.recentStarts(POSTER, at(0), 10)).toEqual([]);
    expect(id).toBeGreaterThan(0);
  });

  it('answers "none" for ids beyond any row’s, as a URL can carry', async () => {
    const id = await conversationWith(3);
    const beyond = 999_999_999_999;
    expect(await t.store.conversations.find(beyond, POSTER)).toBeUndefined();
    expect(await t.store.memberAds.find(beyond)).toBeUndefined();
    expect(await t.store.conversations.existingFor(beyond, REPLIER)).toBeUndefined();
    expect(await t.store.conversations.page(id, 2, beyond)).toMatchObject({ older: 1, total: 3 });
  });

  it('writes nothing from a unit of work that throws', async () => {
    await expect(
      t.store.unitOfWork(async (tx) => {
        await tx.lock(`account:${REPLIER}`);
        const id = await tx.conversations.create({
          adId,
          adTitle: 'Sunday hikes',
          posterId: POSTER,
          replierId: REPLIER,
          at: at(1),
        });
        await tx.conversations.addMessage(id!, REPLIER, 'Hello', at(1));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await t.store.conversations.existingFor(adId, REPLIER)).toBeUndefined();
    expect(await t.sql.all('SELECT * FROM messages')).toEqual([]);
  });
});

describe('the Filtered folder and who may reach a member', () => {
  it('keeps a poster’s filtered conversation out of their inbox and unread count until unfiltered', async () => {
    const conversations = t.store.conversations;
    const id = (await conversations.create({
      adId,
      adTitle: 'Sunday hikes',
      posterId: POSTER,
      replierId: REPLIER,
      at: at(1),
      filtered: true,
    }))!;
    await conversations.addMessage(id, REPLIER, 'Hello', at(2));
    expect((await conversations.find(id, POSTER))?.filteredAt).toBe(at(1));
    expect(await conversations.inbox(POSTER, 10, 'requests')).toEqual([]);
    expect(await conversations.inbox(POSTER, 10, 'chats')).toEqual([]);
    expect(await conversations.unreadTotal(POSTER)).toBe(0);
    expect(
      (await conversations.inbox(POSTER, 10, 'filtered')).map((row) => row.conversationId),
    ).toEqual([id]);
    expect(await conversations.inboxCount(POSTER, 'filtered')).toBe(1);
    expect(await conversations.unreadTotal(POSTER, 'filtered')).toBe(1);
    // The replier's side is their Chats, as any conversation they started.
    expect(
      (await conversations.inbox(REPLIER, 10, 'chats')).map((row) => row.conversationId),
    ).toEqual([id]);
    expect(await conversations.inbox(REPLIER, 10, 'filtered')).toEqual([]);

    await conversations.unfilter(id);
    expect(
      (await conversations.inbox(POSTER, 10, 'requests')).map((row) => row.conversationId),
    ).toEqual([id]);
    expect(await conversations.inboxCount(POSTER, 'filtered')).toBe(0);
    await conversations.filter(id, at(5));
    expect((await conversations.find(id, REPLIER))?.filteredAt).toBe(at(5));
  });

  it('stores a member’s settings, none until saved, and saves them again', async () => {
    const { reachSettings } = t.store;
    expect(await reachSettings.of(POSTER)).toEqual({ minAge: null, maxAge: null, hiddenWords: [] });
    await reachSettings.save(
      POSTER,
      { minAge: 25, maxAge: null, hiddenWords: ['crypto', 'café'] },
      at(1),
    );
    expect(await reachSettings.of(POSTER)).toEqual({
      minAge: 25,
      maxAge: null,
      hiddenWords: ['crypto', 'café'],
    });
    await reachSettings.save(POSTER, { minAge: null, maxAge: 60, hiddenWords: [] }, at(2));
    expect(await reachSettings.of(POSTER)).toEqual({ minAge: null, maxAge: 60, hiddenWords: [] });
    expect(await reachSettings.of(REPLIER)).toEqual({
      minAge: null,
      maxAge: null,
      hiddenWords: [],
    });
  });
});

describe('Requests and Chats', () => {
  it('keeps a conversation in the poster’s Requests until the poster writes in it', async () => {
    const { conversations } = t.store;
    const id = await conversationWith(1);
    const folderOf = async (member: number) => {
      for (const folder of ['chats', 'requests', 'filtered'] as const)
        if (
          (await conversations.inbox(member, 10, folder)).some((row) => row.conversationId === id)
        )
          return folder;
      return undefined;
    };
    expect(await folderOf(POSTER)).toBe('requests');
    expect(await folderOf(REPLIER)).toBe('chats');
    expect(await conversations.newConversations(POSTER)).toEqual({
      chats: 0,
      requests: 1,
      messages: 1,
    });
    // The replier writing again: still a request.
    await conversations.addMessage(id, REPLIER, 'Again', at(5));
    expect(await folderOf(POSTER)).toBe('requests');
    expect((await conversations.find(id, POSTER))?.answeredAt).toBeNull();
    expect(await conversations.unreadTotal(POSTER)).toBe(2);
    expect(await conversations.unreadTotal(POSTER, 'requests')).toBe(2);
    // The poster's answer: a chat for both, from the time of that answer.
    await conversations.addMessage(id, POSTER, 'Hi', at(6));
    await conversations.addMessage(id, POSTER, 'Still here', at(7));
    expect((await conversations.find(id, POSTER))?.answeredAt).toBe(at(6));
    expect(await folderOf(POSTER)).toBe('chats');
    expect(await conversations.newConversations(POSTER)).toEqual({
      chats: 1,
      requests: 0,
      messages: 2,
    });
    expect(await conversations.newConversations(REPLIER)).toEqual({
      chats: 1,
      requests: 0,
      messages: 2,
    });
    await conversations.markRead(id, REPLIER, at(8), Number.MAX_SAFE_INTEGER);
    expect(await conversations.newConversations(REPLIER)).toEqual({
      chats: 0,
      requests: 0,
      messages: 0,
    });
  });

  it('a request whose writer left stays listed, says so, and is no longer new', async () => {
    const { conversations } = t.store;
    const id = await conversationWith(1);
    await conversations.addMessage(id, REPLIER, 'Again', at(2));
    const until = '2026-12-24T10:00:00.000Z';
    await t.sql.run('UPDATE accounts SET banned_at = ? WHERE id = ?', at(3), REPLIER);
    expect(await conversations.inbox(POSTER, 10, 'requests')).toEqual([
      expect.objectContaining({
        conversationId: id,
        unread: 2,
        otherBanned: true,
        keptUntil: null,
      }),
    ]);
    expect(await conversations.newConversations(POSTER)).toEqual({
      chats: 0,
      requests: 0,
      messages: 0,
    });
    await t.store.unitOfWork((tx) => tx.memberData.removeAccount(REPLIER, at(4), until));
    expect(await conversations.inbox(POSTER, 10, 'requests')).toEqual([
      expect.objectContaining({
        conversationId: id,
        replierId: null,
        otherBanned: false,
        keptUntil: until,
      }),
    ]);
    expect(await conversations.inboxCount(POSTER, 'requests')).toBe(1);
    expect(await conversations.newConversations(POSTER)).toEqual({
      chats: 0,
      requests: 0,
      messages: 0,
    });
  });

  it('tells a member’s newest message and when it was read', async () => {
    const id = await conversationWith(3);
    const ids = (await t.store.conversations.messages(id)).map((message) => message.id);
    expect(await t.store.conversations.lastSentBy(id, REPLIER)).toEqual({
      id: ids[2],
      readAt: null,
    });
    await t.store.conversations.markRead(id, POSTER, at(9), ids[2]!);
    expect(await t.store.conversations.lastSentBy(id, REPLIER)).toEqual({
      id: ids[2],
      readAt: at(9),
    });
    expect(await t.store.conversations.lastSentBy(id, STRANGER)).toBeUndefined();
  });
});

describe('a member who deletes their account', () => {
  it('leaves their messages to the other side until the day given, then the sweep takes them', async () => {
    const id = await conversationWith(3);
    const until = '2026-12-24T10:00:00.000Z';
    await t.store.unitOfWork((tx) => tx.memberData.removeAccount(REPLIER, at(10), until));
    const kept = await t.store.conversations.messages(id);
    expect(kept.map((message) => [message.senderId, message.body])).toEqual([
      [REPLIER, 'Message 1'],
      [POSTER, 'Message 2'],
      [REPLIER, 'Message 3'],
    ]);
    expect(await t.store.conversations.keptUntil(id)).toBe(until);
    expect(await t.store.conversations.find(id, POSTER)).toMatchObject({ replierId: null });
    expect(await t.store.conversations.deleteKeptBefore('2026-12-24T09:59:59.999Z')).toBe(0);
    expect(await t.store.conversations.deleteKeptBefore(until)).toBe(2);
    expect((await t.store.conversations.messages(id)).map((message) => message.body)).toEqual([
      'Message 2',
    ]);
    expect(await t.store.conversations.keptUntil(id)).toBeUndefined();
  });

  it('takes the whole conversation once the other side has left too', async () => {
    const id = await conversationWith(2);
    await t.store.unitOfWork((tx) => tx.memberData.removeAccount(REPLIER, at(10), at(50)));
    await t.store.unitOfWork((tx) => tx.memberData.removeAccount(POSTER, at(11), at(51)));
    expect(await t.sql.all('SELECT id FROM conversations WHERE id = ?', id)).toEqual([]);
    expect(await t.sql.all('SELECT id FROM messages')).toEqual([]);
  });
});

describe('message settings', () => {
  it('stores a member’s settings, both off until saved', async () => {
    const { messageSettings } = t.store;
    expect(await messageSettings.of(POSTER)).toEqual({
      requestsAtOnce: false,
      readReceipts: false,
    });
    await messageSettings.save(POSTER, { requestsAtOnce: true, readReceipts: true }, at(1));
    await messageSettings.save(REPLIER, { requestsAtOnce: false, readReceipts: true }, at(1));
    expect(await messageSettings.of(POSTER)).toEqual({ requestsAtOnce: true, readReceipts: true });
    await messageSettings.save(POSTER, { requestsAtOnce: true, readReceipts: false }, at(2));
    expect(await messageSettings.of(POSTER)).toEqual({ requestsAtOnce: true, readReceipts: false });
    expect([...(await messageSettings.withReadReceipts([POSTER, REPLIER, STRANGER]))]).toEqual([
      REPLIER,
    ]);
    expect(await messageSettings.withReadReceipts([])).toEqual(new Set());
  });
});
