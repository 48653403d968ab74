// The queue of pushes (server/push/push-queue.ts) against a push service on loopback: a device its
// push service says is gone (410, 404) is deleted with what waits for it; a push service failing
// for now (500, 429 with Retry-After, no connection) is tried again after 30 s, 2, 8 and 32
// minutes, or when it asked, then given up; a member gets at most 10 notifications in 10 minutes;
// a saved search's new ads reach a member who chose them. The clock is the pusher's own, moved by
// the test. On SQLite and, in the postgres suite, PostgreSQL.
import { beforeAll, describe, expect, test } from 'vitest';
import { pushDevicesApiPath, pushSettingsApiPath } from '../../../core/paths.ts';
import { PUSHES_PER_WINDOW } from '../../../server/push/limits.ts';
import { queueSavedSearchPush } from '../../../server/push/notices.ts';
import { queuePush } from '../../../server/push/push-queue.ts';
import type { OutgoingPush } from '../../../store/parts/pushes.ts';
import { TEST_MAIL_SITE } from '../../helpers/mail.ts';
import { conversationIdOf, greeting } from '../../helpers/messages.ts';
import { pushMessagesWorld } from '../../helpers/push-messages-world.ts';
import type { TestMember } from '../../helpers/posting.ts';
import type { TestDevice } from '../../helpers/push-service.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const { push, t, memberWithDevice } = pushMessagesWorld();

const queue = () =>
  storedRows<{ attempts: number; next_attempt_at: string; subscription_id: number }>(
    t,
    'SELECT attempts, next_attempt_at, subscription_id FROM push_queue ORDER BY id',
  );
const SOME_PUSH = (topic: string): OutgoingPush => ({
  payload: JSON.stringify({ web_push: 8030, notification: { title: 'Hello', navigate: '/' } }),
  topic,
  urgency: 'normal',
});
const secondsAfter = (start: Date, seconds: number) =>
  new Date(start.getTime() + seconds * 1000).toISOString();

describe('a device its push service says is gone', () => {
  test('410 from the push service deletes the subscription: its row is gone', async () => {
    const { member: poster, device } = await memberWithDevice('gone-phone');
    const replier = await t.makeMember();
    const adId = await t.insertLiveAd(poster, 'Cycling along the coast');
    const conversationId = conversationIdOf(
      await t.startConversation(replier, adId, 'Hi! I cycle there every weekend.'),
    );
    await t.replyIn(poster, conversationId, 'Great, which route?');
    await push.pusher.settled();
    const [row] = await t.store.pushes.devicesOf(poster.accountId);
    expect(row).toBeDefined();

    push.service.answer(device, { status: 410 });
    await t.replyIn(replier, conversationId, 'The one past the lighthouse.');
    await push.pusher.settled();
    expect(await storedRows(t, 'SELECT id FROM push_subscriptions WHERE id = ?', row!.id)).toEqual(
      [],
    );
    expect(await queue()).toEqual([]);
    expect(push.service.received.filter((p) => p.device === 'gone-phone')).toEqual([]);
  });

  test('404 too, and the member’s other devices stay', async () => {
    const { member, device } = await memberWithDevice('lost-laptop');
    const other = push.service.newDevice('kept-phone');
    await t.submit(pushDevicesApiPath(), other.subscription, member.session, 'json');
    push.service.answer(device, { status: 404 });
    const coming = push.nextPush();
    await queuePush(t.store, member.accountId, SOME_PUSH('lost'), push.now());
    await push.pusher.sendDue();
    expect((await coming).device).toBe('kept-phone');
    expect((await t.store.pushes.devicesOf(member.accountId)).map((d) => d.endpoint)).toEqual([
      other.subscription.endpoint,
    ]);
  });
});

describe('a push service failing for now', () => {
  let member: TestMember;
  let device: TestDevice;
  beforeAll(async () => {
    ({ member, device } = await memberWithDevice('flaky-phone'));
  });

  test('is tried again after 30 s, then 2 minutes, or when its Retry-After says', async () => {
    push.service.answer(device, { status: 500 });
    const start = push.now();
    await queuePush(t.store, member.accountId, SOME_PUSH('flaky'), start);
    await push.pusher.sendDue();
    expect(await queue()).toEqual([
      expect.objectContaining({ attempts: 1, next_attempt_at: secondsAfter(start, 30) }),
    ]);
    // Not due yet: nothing is sent.
    await push.pusher.sendDue();
    expect((await queue())[0]!.attempts).toBe(1);

    push.advance(30_000);
    push.service.answer(device, { status: 429, headers: { 'Retry-After': '300' } });
    await push.pusher.sendDue();
    const retried = push.now();
    expect(await queue()).toEqual([
      expect.objectContaining({ attempts: 2, next_attempt_at: secondsAfter(retried, 300) }),
    ]);

    push.advance(300_000);
    push.service.answer(device, { status: 201 });
    const coming = push.nextPush();
    await push.pusher.sendDue();
    expect(JSON.parse((await coming).text).notification.title).toBe('Hello');
    expect(await queue()).toEqual([]);
  });

  test('is given up after 5 tries, and logged without the device’s address', async () => {
    push.advance(10 * 60_000);
    push.service.answer(device, { status: 503 });
    await queuePush(t.store, member.accountId, SOME_PUSH('doomed'), push.now());
    const waits = [30, 120, 480, 1920];
    for (const wait of waits) {
      await push.pusher.sendDue();
      push.advance(wait * 1000);
    }
    expect((await queue())[0]!.attempts).toBe(4);
    await push.pusher.sendDue();
    expect(await queue()).toEqual([]);
    expect(push.logged.at(-1)).toBe(
      `A push to a device on ${new URL(push.service.origin).host} was given up after 5 tries: HTTP 503`,
    );
    // Each failure on the way is logged too, never with the device's address.
    expect(push.logged.filter((line) => line.includes('tried again at'))).not.toHaveLength(0);
    for (const line of push.logged) expect(line).not.toContain('/push/');
    // The device is kept: only 404 and 410 say it is gone.
    expect(await t.store.pushes.devicesOf(member.accountId)).toHaveLength(1);
    push.service.answer(device, { status: 201 });
  });
});

describe('the rate limit', () => {
  test(`a member gets at most ${PUSHES_PER_WINDOW} notifications in 10 minutes`, async () => {
    push.advance(60 * 60_000);
    const { member: poster } = await memberWithDevice('popular-phone');
    await t.submit(pushSettingsApiPath(), { requests: 'on' }, poster.session);
    const adId = await t.insertLiveAd(poster, 'Salsa lessons on Thursdays');
    const before = push.service.received.length;
    for (let n = 0; n <= PUSHES_PER_WINDOW; n += 1)
      await t.startConversation(await t.makeMember(), adId, greeting(n));
    await push.pusher.settled();
    const mine = () =>
      push.service.received.slice(before).filter((p) => p.device === 'popular-phone');
    expect(mine()).toHaveLength(PUSHES_PER_WINDOW);
    // Ten minutes on, they are told again.
    push.advance(10 * 60_000 + 1000);
    await t.startConversation(await t.makeMember(), adId, greeting(PUSHES_PER_WINDOW + 1));
    await push.pusher.settled();
    expect(mine()).toHaveLength(PUSHES_PER_WINDOW + 1);
  });
});

describe('a saved search’s new ads', () => {
  test('are pushed to a member who chose them, saying how many, not what', async () => {
    const { member } = await memberWithDevice('search-phone');
    const saved = { id: 77, accountId: member.accountId, query: 'q=tango&state=Texas' };
    expect(await queueSavedSearchPush(t.store, saved, 3, TEST_MAIL_SITE, push.now())).toBe(false);
    await t.submit(pushSettingsApiPath(), { savedSearches: 'on' }, member.session);
    const coming = push.nextPush();
    expect(await queueSavedSearchPush(t.store, saved, 3, TEST_MAIL_SITE, push.now())).toBe(true);
    await push.pusher.sendDue();
    const received = await coming;
    expect(JSON.parse(received.text)).toEqual({
      web_push: 8030,
      notification: {
        title: 'New ads on Localboard',
        body: '3 new ads for one of your saved searches.',
        navigate: `${TEST_MAIL_SITE.baseUrl}/search?q=tango&state=Texas`,
        tag: 'saved-search-77',
        lang: 'en',
      },
    });
    expect(JSON.parse(received.text).notification.body).not.toContain('tango');
    expect(received.headers).toMatchObject({ topic: 's77', urgency: 'normal' });
  });
});
