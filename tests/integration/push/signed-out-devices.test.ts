// A device's notifications end with the session that turned them on (docs/product.md section 7,
// "Notifications on this device"): a member who signs out of a shared computer is pushed nothing
// more there, while the phone they turned notifications on from, signed in apart, still is; a
// password reset (every session ended) ends them all but a device stored before sessions were
// kept; a session whose 30 days are over is pushed nothing, and the hourly sweep deletes its row.
// Through the app as members use it (plain form posts), to the push service on loopback
// (tests/helpers/push-service.ts). On SQLite and, in the postgres suite, PostgreSQL.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  accountPath,
  forgotApiPath,
  resetApiPath,
  resetPath,
  signoutApiPath,
  pushDevicesApiPath,
} from '../../../core/paths.ts';
import { signInAgain } from '../../helpers/moderation.ts';
import { linkToken, mailsTo } from '../../helpers/mail.ts';
import { conversationIdOf, textOf } from '../../helpers/messages.ts';
import type { TestMember } from '../../helpers/posting.ts';
import { pushMessagesWorld } from '../../helpers/push-messages-world.ts';
import type { TestDevice } from '../../helpers/push-service.ts';
import { clockFrom, DAY, HOUR } from '../../helpers/clock.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const { push, t } = pushMessagesWorld();

/** Everything the app started is done: the pushes queued and sent. */
const settled = () => push.pusher.settled();

/** The User-Agents of a shared computer's browser and a phone's: the devices' labels. */
const COMPUTER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/133.0';
const PHONE = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/131.0.0.0 Mobile Safari/537.36';

/** Turns notifications on for a new device named `name`, signed in with `session` there. */
async function subscribe(name: string, session: string, userAgent = PHONE): Promise<TestDevice> {
  const device = push.service.newDevice(name);
  const response = await t.submit(pushDevicesApiPath(), device.subscription, session, 'json', {
    'user-agent': userAgent,
  });
  expect(response.status).toBe(201);
  return device;
}

/** The devices stored for the member, by the names their endpoints end with. */
async function storedDevices(member: TestMember): Promise<string[]> {
  const rows = await storedRows<{ endpoint: string }>(
    t,
    'SELECT endpoint FROM push_subscriptions WHERE account_id = ? ORDER BY id',
    member.accountId,
  );
  return rows.map((row) => row.endpoint.split('/').at(-1)!);
}

/**
 * The replier writes in the conversation, a minute after the last push of it (one a minute): the
 * devices that received the push, once everything is sent.
 */
async function devicesPushedFor(replier: TestMember, conversationId: number, text: string) {
  push.advance(61_000);
  const before = push.service.received.length;
  expect((await t.replyIn(replier, conversationId, text)).status).toBe(303);
  await settled();
  return push.service.received
    .slice(before)
    .map((received) => received.device)
    .sort();
}

/** A poster signed in on two browsers, and a chat with a replier about their ad. */
async function posterInAChat() {
  const poster = await t.makeMember();
  const replier = await t.makeMember();
  const adId = await t.insertLiveAd(poster, 'Jazz on the porch');
  const conversationId = conversationIdOf(
    await t.startConversation(replier, adId, 'Hello! I play the double bass.'),
  );
  await t.replyIn(poster, conversationId, 'Hi! Which standards do you like?');
  await settled();
  return { poster, replier, conversationId, phoneSession: await signInAgain(t.app, poster) };
}

describe('signing out', () => {
  let poster: TestMember;
  let replier: TestMember;
  let conversationId: number;
  let phoneSession: string;
  beforeAll(async () => {
    ({ poster, replier, conversationId, phoneSession } = await posterInAChat());
    await subscribe('shared-computer', poster.session, COMPUTER);
    await subscribe('own-phone', phoneSession);
  });

  test('before it, both devices are pushed a new chat message', async () => {
    expect(await devicesPushedFor(replier, conversationId, 'Autumn Leaves?')).toEqual([
      'own-phone',
      'shared-computer',
    ]);
  });

  test('ends the notifications of that browser only, a plain form post', async () => {
    const signOut = await t.submit(signoutApiPath(), {}, poster.session);
    expect(signOut.status).toBe(303);
    expect(await devicesPushedFor(replier, conversationId, 'Or Blue Bossa?')).toEqual([
      'own-phone',
    ]);
    expect(await storedDevices(poster)).toEqual(['own-phone']);
    // The phone's /account lists the phone alone.
    const account = textOf(await (await t.getPage(accountPath(), phoneSession)).text());
    expect(account).toContain('Your devices Chrome on Android (this device)');
    expect(account).not.toContain('Firefox on Windows');
  });
});

describe('ending every session', () => {
  test('a password reset ends every device’s notifications but one stored before sessions were kept', async () => {
    const { poster, replier, conversationId, phoneSession } = await posterInAChat();
    await subscribe('reset-laptop', poster.session);
    await subscribe('reset-phone', phoneSession);
    // A device turned on before devices belonged to sessions (migration 26): none.
    const older = push.service.newDevice('reset-older');
    await t.store.pushes.subscribe(
      poster.accountId,
      null,
      { endpoint: older.subscription.endpoint, ...older.subscription.keys },
      'Chrome on Android',
      push.now().toISOString(),
    );
    expect((await t.submit(forgotApiPath(), { email: poster.email })).status).toBe(303);
    await t.mailer.settled();
    const mail = mailsTo(t.outboxDir, poster.email).find((each) =>
      each.subject.includes('password'),
    );
    const reset = await t.submit(resetApiPath(), {
      token: linkToken(mail!, resetPath()),
      password: 'a brand new passphrase',
    });
    expect(reset.status).toBe(303);
    expect(await storedDevices(poster)).toEqual(['reset-older']);
    expect(await devicesPushedFor(replier, conversationId, 'Still up for Sunday?')).toEqual([
      'reset-older',
    ]);
  });
});

describe('a session whose 30 days are over', () => {
  test('is pushed nothing, and the hourly sweep deletes its device', async () => {
    // The laptop signed in 30 days and an hour ago, the phone a day later.
    const clock = clockFrom();
    const { poster, replier, conversationId } = await posterInAChat();
    await subscribe('expiring-laptop', poster.session);
    clock.at(DAY);
    await subscribe('expiring-phone', await signInAgain(t.app, poster));
    // 30 days and an hour on, on the app's clock and the pusher's: the replier signs in again.
    clock.at(30 * DAY + HOUR);
    push.advance(clock.start + 30 * DAY + HOUR - 61_000 - push.now().getTime());
    const writer = { ...replier, session: await signInAgain(t.app, replier) };
    expect(await devicesPushedFor(writer, conversationId, 'Shall I bring the bass?')).toEqual([
      'expiring-phone',
    ]);
    expect(await storedDevices(poster)).toEqual(['expiring-laptop', 'expiring-phone']);
    push.pusher.start();
    push.pusher.stop();
    await settled();
    expect(await storedDevices(poster)).toEqual(['expiring-phone']);
  });
});
