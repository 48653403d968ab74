// Pushes of new messages (docs/product.md section 7, "Notifications on this device"), through the
// app as members use it (plain form posts) to a push service on loopback that checks the VAPID
// signature and decrypts each push with its device's keys (tests/helpers/push-service.ts): a new
// message in a conversation its recipient answered is pushed, as Declarative Web Push's JSON that
// says "New message on Localboard" and opens the conversation, without the message's text; a first
// message only to a member who chose so; the text only to one who turned it on, never a warned
// one; nothing from the Filtered folder. The answer never waits for the push service. On SQLite
// and, in the postgres suite, PostgreSQL.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  conversationPath,
  pushSettingsApiPath,
  reachSettingsApiPath,
} from '../../../core/paths.ts';
import { DECLARATIVE_PUSH } from '../../../server/push/payloads.ts';
import { TEST_MAIL_SITE } from '../../helpers/mail.ts';
import { conversationIdOf } from '../../helpers/messages.ts';
import { pushMessagesWorld } from '../../helpers/push-messages-world.ts';
import type { TestMember } from '../../helpers/posting.ts';
import type { ReceivedPush, TestDevice } from '../../helpers/push-service.ts';
import { TEST_VAPID_SUBJECT } from '../../helpers/web-push.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

const { push, t, memberWithDevice } = pushMessagesWorld();

/** Everything the app started is done: the pushes queued and sent. */
const settled = () => push.pusher.settled();

const json = (received: ReceivedPush) =>
  JSON.parse(received.text) as { web_push: number; notification: Record<string, string> };

describe('a new message in a conversation its recipient answered', () => {
  let poster: TestMember;
  let replier: TestMember;
  let device: TestDevice;
  let conversationId: number;
  beforeAll(async () => {
    ({ member: poster, device } = await memberWithDevice('poster-phone'));
    replier = await t.makeMember();
    const adId = await t.insertLiveAd(poster, 'Sunday hikes and bakeries');
    conversationId = conversationIdOf(
      await t.startConversation(replier, adId, 'Hello! I love Sunday hikes too.'),
    );
    await t.replyIn(poster, conversationId, 'Hi! Which trails do you like?');
    await settled();
  });

  test('reaches the device, encrypted, saying only that there is a message', async () => {
    const before = push.service.received.length;
    const coming = push.nextPush();
    const secret = 'Meet me at the old mill trail at nine, my number is private';
    expect((await t.replyIn(replier, conversationId, secret)).status).toBe(303);
    const received = await coming;
    await settled();
    expect(push.service.received.length).toBe(before + 1);
    expect(received.device).toBe('poster-phone');
    expect(json(received)).toEqual({
      web_push: DECLARATIVE_PUSH,
      notification: {
        title: 'New message on Localboard',
        body: 'Open the conversation to read it.',
        navigate: `${TEST_MAIL_SITE.baseUrl}${conversationPath(conversationId)}`,
        tag: `conversation-${conversationId}`,
        lang: 'en',
      },
    });
    // Nothing of the message, of the ad or of the other member.
    for (const word of ['mill', 'trail', 'nine', 'number', 'hikes', 'bakeries', replier.email])
      expect(received.text).not.toContain(word);
    expect(received.headers).toEqual({
      ttl: '86400',
      urgency: 'high',
      topic: `c${conversationId}`,
      contentEncoding: 'aes128gcm',
    });
    expect(received.vapid).toMatchObject({
      aud: push.service.origin,
      sub: TEST_VAPID_SUBJECT,
      publicKey: push.settings.vapid.publicKey,
    });
    expect(push.service.refused).toEqual([]);
  });

  test('a burst in one conversation is one notification', async () => {
    push.advance(61_000);
    const before = push.service.received.length;
    await t.replyIn(replier, conversationId, 'Are you free on Sunday?');
    await t.replyIn(replier, conversationId, 'Or Saturday?');
    await settled();
    expect(push.service.received.length).toBe(before + 1);
    // A minute later, the next one is pushed again.
    push.advance(61_000);
    await t.replyIn(replier, conversationId, 'Let me know!');
    await settled();
    expect(push.service.received.length).toBe(before + 2);
  });

  test('the answer does not wait for the push service', async () => {
    push.advance(61_000);
    const release = push.service.hold();
    const coming = push.nextPush();
    // The push service holds every answer: the message is stored and answered all the same.
    const response = await t.replyIn(replier, conversationId, 'Still there?');
    expect(response.status).toBe(303);
    const messages = await t.storedMessages(conversationId);
    expect(messages.at(-1)!.body).toBe('Still there?');
    release();
    expect(json(await coming).notification.title).toBe('New message on Localboard');
    await settled();
  });

  test('shows the text to a member who turned it on, but not a warned message', async () => {
    push.advance(61_000);
    await t.submit(pushSettingsApiPath(), { messageText: 'on' }, poster.session);
    const coming = push.nextPush();
    await t.replyIn(replier, conversationId, 'Shall we   say\nten o’clock at the bakery?');
    expect(json(await coming).notification.body).toBe('Shall we say ten o’clock at the bakery?');
    await settled();
    push.advance(61_000);
    const warnedComing = push.nextPush();
    await t.replyIn(
      replier,
      conversationId,
      'Can you send me a gift card code to prove you are real?',
    );
    expect(json(await warnedComing).notification.body).toBe('Open the conversation to read it.');
    // It was delivered with a warning for the poster: its text stays beside the warning.
    const warned = await storedRow<{ scam_warnings: string | null }>(
      t,
      'SELECT scam_warnings FROM messages WHERE conversation_id = ? ORDER BY id DESC',
      conversationId,
    );
    expect(warned?.scam_warnings).toBeTruthy();
    await settled();
    await t.submit(pushSettingsApiPath(), {}, poster.session);
    expect(device.subscription.endpoint).toContain(push.service.origin);
  });
});

describe('a first message (a request)', () => {
  test('is pushed only to a member who chose so, and never from Filtered', async () => {
    const { member: poster } = await memberWithDevice('requests-phone');
    const adId = await t.insertLiveAd(poster, 'Quiet evenings with board games');
    const before = push.service.received.length;
    await t.startConversation(await t.makeMember(), adId, 'Hi, I would love a board game night.');
    await settled();
    expect(push.service.received.length).toBe(before);

    await t.submit(pushSettingsApiPath(), { requests: 'on' }, poster.session);
    const coming = push.nextPush();
    const second = await t.startConversation(await t.makeMember(), adId, 'Hello from a chess fan!');
    const received = await coming;
    expect(json(received).notification).toMatchObject({
      title: 'New message on Localboard',
      body: 'A member wrote to you about your ad. Open it to read it.',
      navigate: `${TEST_MAIL_SITE.baseUrl}${conversationPath(conversationIdOf(second))}`,
    });
    expect(received.text).not.toContain('chess');
    await settled();

    // A hidden word sends it to Filtered: not announced, by mail or push.
    await t.submit(reachSettingsApiPath(), { reachForm: '1', hiddenWords: 'dice' }, poster.session);
    push.advance(61_000);
    const count = push.service.received.length;
    await t.startConversation(await t.makeMember(), adId, 'I bring my lucky dice everywhere.');
    await settled();
    expect(push.service.received.length).toBe(count);
  });
});
