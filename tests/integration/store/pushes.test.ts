// The pushes part of the store (devices, settings, the queue, the notices), on SQLite and (in the
// postgres suite) on PostgreSQL.
import { beforeEach, describe, expect, it } from 'vitest';
import { NO_PUSH_SETTINGS, type OutgoingPush } from '../../../store/parts/pushes.ts';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';

const t = storeForEachTest();

const AT = '2026-11-24T10:00:00.000Z';
const LATER = '2026-11-24T10:05:00.000Z';
const device = (n: number) => ({
  endpoint: `https://push.example/send/${n}`,
  p256dh: `key-${n}`,
  auth: `auth-${n}`,
});
const PUSH: OutgoingPush = { payload: '{"web_push":8030}', topic: 'c7', urgency: 'high' };

beforeEach(async () => {
  for (const id of [1, 2]) await accountRow(t.sql, id);
});

describe('devices', () => {
  it('are stored per member, listed oldest first and removed only by their member', async () => {
    const phone = await t.store.pushes.subscribe(1, null, device(1), 'Chrome on Android', AT);
    const laptop = await t.store.pushes.subscribe(1, null, device(2), 'Firefox on Linux', LATER);
    await t.store.pushes.subscribe(2, null, device(3), 'Safari on iPhone', AT);
    expect(await t.store.pushes.devicesOf(1)).toEqual([
      { id: phone, deviceLabel: 'Chrome on Android', endpoint: device(1).endpoint, createdAt: AT },
      {
        id: laptop,
        deviceLabel: 'Firefox on Linux',
        endpoint: device(2).endpoint,
        createdAt: LATER,
      },
    ]);
    expect(await t.store.pushes.removeDevice(2, phone)).toBe(false);
    expect(await t.store.pushes.removeDevice(1, phone)).toBe(true);
    expect(await t.store.pushes.removeDevice(1, phone)).toBe(false);
    expect((await t.store.pushes.devicesOf(1)).map((row) => row.id)).toEqual([laptop]);
  });

  it('one endpoint is one row: subscribing it again, or as another member, moves it', async () => {
    const first = await t.store.pushes.subscribe(1, null, device(1), 'Chrome on Android', AT);
    const again = await t.store.pushes.subscribe(
      1,
      null,
      { ...device(1), auth: 'new' },
      'Chrome',
      LATER,
    );
    expect(again).toBe(first);
    const moved = await t.store.pushes.subscribe(2, null, device(1), 'Chrome on Android', LATER);
    expect(moved).toBe(first);
    expect(await t.store.pushes.devicesOf(1)).toEqual([]);
    expect((await t.store.pushes.devicesOf(2)).map((row) => row.id)).toEqual([first]);
  });

  it('go with their account, and their waiting pushes with them', async () => {
    await t.store.pushes.subscribe(1, null, device(1), 'Chrome on Android', AT);
    await t.store.unitOfWork((tx) => tx.pushes.enqueue(1, PUSH, AT));
    await t.store.unitOfWork((tx) => tx.memberData.removeAccount(1, LATER, LATER));
    for (const table of ['push_subscriptions', 'push_queue', 'push_notices'])
      expect(await t.sql.all(`SELECT * FROM ${table}`), table).toEqual([]);
  });
});

describe('devices of a session', () => {
  const EXPIRES = '2026-12-24T10:00:00.000Z';
  /** A session of member 1 that expires at `expiresAt`: its id. */
  async function session(n: number, expiresAt = EXPIRES): Promise<number> {
    const token = Buffer.alloc(32, n);
    await t.store.sessions.create(token, 1, AT, expiresAt);
    return (await t.store.sessions.findValid(token, AT))!.sessionId;
  }
  const endpoints = async () =>
    (await t.store.pushes.devicesOf(1)).map((row) => row.endpoint.slice(-1));

  it('go when their session ends (sign-out, everywhere), those of no session stay', async () => {
    const phone = await session(1);
    const laptop = await session(2);
    await t.store.pushes.subscribe(1, phone, device(1), 'Chrome on Android', AT);
    await t.store.pushes.subscribe(1, laptop, device(2), 'Firefox on Linux', AT);
    await t.store.pushes.subscribe(1, null, device(3), 'Safari on iPhone', AT);
    await t.store.unitOfWork((tx) => tx.pushes.enqueue(1, PUSH, AT));
    await t.store.sessions.revoke(Buffer.alloc(32, 1));
    expect(await endpoints()).toEqual(['2', '3']);
    // Its waiting push went with it.
    expect((await t.sql.all('SELECT * FROM push_queue')).length).toBe(2);
    await t.store.sessions.revokeAll(1);
    expect(await endpoints()).toEqual(['3']);
  });

  it('get nothing once their session expired, and go with the sweep', async () => {
    const expired = await session(1, LATER);
    const current = await session(2);
    await t.store.pushes.subscribe(1, expired, device(1), 'Chrome on Android', AT);
    await t.store.pushes.subscribe(1, current, device(2), 'Firefox on Linux', AT);
    await t.store.pushes.subscribe(1, null, device(3), 'Safari on iPhone', AT);
    expect(await t.store.unitOfWork((tx) => tx.pushes.enqueue(1, PUSH, AT))).toBe(3);
    expect(await t.store.unitOfWork((tx) => tx.pushes.enqueue(1, PUSH, LATER))).toBe(2);
    expect(await t.store.pushes.removeOfExpiredSessions(AT)).toBe(0);
    expect(await t.store.pushes.removeOfExpiredSessions(LATER)).toBe(1);
    expect(await endpoints()).toEqual(['2', '3']);
    // The session itself is its own sweep's.
    expect(await t.store.sessions.removeExpired(LATER)).toBe(1);
  });

  it('a session deleted as expired takes its devices', async () => {
    await t.store.pushes.subscribe(1, await session(1, LATER), device(1), 'Chrome', AT);
    await t.store.sessions.removeExpired(LATER);
    expect(await endpoints()).toEqual([]);
  });

  it('subscribing an endpoint again gives it to the session that did', async () => {
    const first = await session(1);
    const second = await session(2);
    await t.store.pushes.subscribe(1, first, device(1), 'Chrome on Android', AT);
    await t.store.pushes.subscribe(1, second, device(1), 'Chrome on Android', LATER);
    await t.store.sessions.revoke(Buffer.alloc(32, 1));
    expect(await endpoints()).toEqual(['1']);
    await t.store.sessions.revoke(Buffer.alloc(32, 2));
    expect(await endpoints()).toEqual([]);
  });
});

describe('settings', () => {
  it('are nothing else until saved, then as saved', async () => {
    expect(await t.store.pushes.settingsOf(1)).toEqual(NO_PUSH_SETTINGS);
    const settings = { requests: true, savedSearches: false, messageText: true };
    await t.store.pushes.saveSettings(1, settings, AT);
    expect(await t.store.pushes.settingsOf(1)).toEqual(settings);
    await t.store.pushes.saveSettings(1, NO_PUSH_SETTINGS, LATER);
    expect(await t.store.pushes.settingsOf(1)).toEqual(NO_PUSH_SETTINGS);
    expect(await t.store.pushes.settingsOf(2)).toEqual(NO_PUSH_SETTINGS);
  });
});

describe('the queue', () => {
  it('queues a push for each of the member’s devices and records one notice', async () => {
    const phone = await t.store.pushes.subscribe(1, null, device(1), 'Chrome on Android', AT);
    const laptop = await t.store.pushes.subscribe(1, null, device(2), 'Firefox on Linux', AT);
    expect(await t.store.unitOfWork((tx) => tx.pushes.enqueue(1, PUSH, AT))).toBe(2);
    expect(await t.store.unitOfWork((tx) => tx.pushes.enqueue(2, PUSH, AT))).toBe(0);
    expect(await t.store.pushes.noticesSince(1, '2026-11-24T09:00:00.000Z')).toEqual([
      { topic: 'c7', at: AT },
    ]);
    expect(await t.store.pushes.noticesSince(2, '2026-11-24T09:00:00.000Z')).toEqual([]);
    const claimed = await t.store.pushes.claimDue(AT, LATER, 10);
    expect(claimed).toEqual([
      {
        id: expect.any(Number),
        subscriptionId: phone,
        accountId: 1,
        ...device(1),
        ...PUSH,
        attempts: 0,
        createdAt: AT,
      },
      expect.objectContaining({ subscriptionId: laptop, endpoint: device(2).endpoint }),
    ]);
  });

  it('lets one claim take each push until it is let go, retried or done', async () => {
    await t.store.pushes.subscribe(1, null, device(1), 'Chrome on Android', AT);
    await t.store.unitOfWork((tx) => tx.pushes.enqueue(1, PUSH, AT));
    const [push] = await t.store.pushes.claimDue(AT, LATER, 10);
    // Held until LATER: another claim meanwhile gets nothing; after it, the push is free again.
    expect(await t.store.pushes.claimDue(AT, LATER, 10)).toEqual([]);
    expect((await t.store.pushes.claimDue(LATER, '2026-11-24T10:10:00.000Z', 10)).length).toBe(1);
    const retryAt = '2026-11-24T11:00:00.000Z';
    await t.store.pushes.retryAt(push!.id, 1, retryAt);
    expect(await t.store.pushes.claimDue(LATER, retryAt, 10)).toEqual([]);
    const [again] = await t.store.pushes.claimDue(retryAt, '2026-11-24T11:05:00.000Z', 10);
    expect(again).toMatchObject({ id: push!.id, attempts: 1 });
    await t.store.pushes.done(push!.id);
    expect(await t.sql.all('SELECT * FROM push_queue')).toEqual([]);
  });

  it('a gone subscription takes its waiting pushes; old notices and pushes are forgotten', async () => {
    const phone = await t.store.pushes.subscribe(1, null, device(1), 'Chrome on Android', AT);
    await t.store.pushes.subscribe(1, null, device(2), 'Firefox on Linux', AT);
    await t.store.unitOfWork((tx) => tx.pushes.enqueue(1, PUSH, AT));
    await t.store.pushes.removeSubscription(phone);
    expect((await t.store.pushes.devicesOf(1)).length).toBe(1);
    expect((await t.sql.all('SELECT * FROM push_queue')).length).toBe(1);
    await t.store.unitOfWork((tx) => tx.pushes.enqueue(1, PUSH, LATER));
    expect(await t.store.pushes.forgetBefore(LATER)).toEqual({ notices: 1, pushes: 1 });
    expect(await t.store.pushes.noticesSince(1, AT)).toEqual([{ topic: 'c7', at: LATER }]);
  });
});

describe('a message’s facts', () => {
  it('say who receives it, whether they answered, and whether it is filtered', async () => {
    // Member 1 posted an ad; member 2 replied.
    const adId = await t.store.memberAds.insert(
      1,
      { state: 'Texas', city: 'Austin', age: 30, seeks: 'w4m', title: 'Tacos', description: 'x' },
      '[]',
      AT,
    );
    const conversationId = (await t.store.conversations.create({
      adId,
      adTitle: 'Tacos',
      posterId: 1,
      replierId: 2,
      at: AT,
    }))!;
    await t.store.conversations.addMessage(conversationId, 2, 'Hello', AT);
    expect(await t.store.pushes.messageFacts(conversationId, 2)).toEqual({
      recipientId: 1,
      answered: false,
      filtered: false,
      recipientBanned: false,
    });
    // The replier wrote first: a message to them is always in a conversation they answered.
    expect(await t.store.pushes.messageFacts(conversationId, 1)).toMatchObject({
      recipientId: 2,
      answered: true,
    });
    await t.store.conversations.filter(conversationId, AT);
    expect(await t.store.pushes.messageFacts(conversationId, 2)).toMatchObject({ filtered: true });
    await t.store.conversations.addMessage(conversationId, 1, 'Hi!', LATER);
    expect(await t.store.pushes.messageFacts(conversationId, 2)).toMatchObject({ answered: true });
    expect(await t.store.pushes.messageFacts(999_999, 2)).toBeUndefined();
  });
});
