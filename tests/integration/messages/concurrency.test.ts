// Concurrency of messaging (issue 11): 100 messages sent at once into one conversation are all
// stored, in order (by id, and so shown); two starts racing for one ad by one member make one
// conversation, the second a message in it; of a burst, one notification mail. In-process, and
// over real HTTP with the real server (@hono/node-server), as browsers send them. On PostgreSQL,
// the limits hold across two server instances on one database (issue 19): two requests that would
// each be the last one allowed, one to each instance, and exactly one is refused.
import { describe, expect, test } from 'vitest';
import { CONVERSATION_PAGE_SIZE } from '../../../core/views/messages.ts';
import { conversationPath, messagesApiPath, replyApiPath } from '../../../core/paths.ts';
import { MESSAGES_PER_WINDOW, NEW_ACCOUNT_CONVERSATIONS } from '../../../core/schemas/message.ts';
import { messagesWorld } from '../../helpers/messages-world.ts';
import { conversationOnNewAd } from '../../helpers/conversation-on-new-ad.ts';
import { cookieHeader, FORM_TYPE, listen, openTestApp, type TestApp } from '../../helpers/api.ts';
import { mailsTo } from '../../helpers/mail.ts';
import {
  conversationIdOf,
  greeting,
  textOf,
  replyIn,
  startConversation,
} from '../../helpers/messages.ts';
import { onPostgres } from '../../helpers/test-store.ts';

const t = messagesWorld();

const newMessageMails = (email: string) =>
  mailsTo(t.outboxDir, email).filter((mail) => mail.subject.includes('new message'));

/** A member who chose each request mailed at once (else a request waits for the daily digest). */
async function mailedEachRequest() {
  const member = await t.makeMember();
  const settings = { requestsAtOnce: true, readReceipts: false };
  await t.store.messageSettings.save(member.accountId, settings, new Date().toISOString());
  return member;
}

/** The bodies as stored, and that ids and times run in the same order. */
async function expectAllInOrder(conversationId: number, sent: string[], first: string) {
  const rows = await t.storedMessages(conversationId);
  expect(rows).toHaveLength(sent.length + 1);
  expect(rows[0]!.body).toBe(first);
  expect(new Set(rows.slice(1).map((row) => row.body))).toEqual(new Set(sent));
  const times = rows.map((row) => row.sent_at);
  expect([...times].sort()).toEqual(times);
  return rows;
}

describe('100 messages at once into one conversation', () => {
  test('in-process: all stored, in order; the newest page of the thread shows them in that order; one mail', async () => {
    const thread = await conversationOnNewAd(t, { opening: 'Opening line' });
    const { poster, replier, conversationId: id } = thread;
    await t.mailer.settled();
    const sent = Array.from({ length: 100 }, (_, n) => `Message number ${n + 1}.`);
    const answers = await Promise.all(sent.map((body) => t.replyIn(poster, id, body)));
    expect(answers.map((response) => response.status)).toEqual(sent.map(() => 303));
    const rows = await expectAllInOrder(id, sent, 'Opening line');
    const page = textOf(await (await t.getPage(conversationPath(id), replier.session)).text());
    // The newest page: the last CONVERSATION_PAGE_SIZE messages, oldest of them first.
    const newest = rows.slice(-CONVERSATION_PAGE_SIZE);
    expect(page.indexOf(rows.at(-CONVERSATION_PAGE_SIZE - 1)!.body)).toBe(-1);
    const positions = newest.map((row) => page.indexOf(row.body));
    expect(positions.every((at) => at >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    await t.mailer.settled();
    expect(newMessageMails(replier.email)).toHaveLength(1);
  });

  test('over real HTTP, from both sides at once: all 100 stored, in order', async () => {
    const thread = await conversationOnNewAd(t, { opening: 'Opening line' });
    const { poster, replier, conversationId: id } = thread;
    const server = await listen(t.app);
    try {
      const sent = Array.from({ length: 100 }, (_, n) => `Over HTTP ${n + 1}`);
      const statuses = await Promise.all(
        sent.map(async (body, n) => {
          const response = await fetch(`${server.url}${replyApiPath(id)}`, {
            method: 'POST',
            redirect: 'manual',
            headers: {
              'content-type': FORM_TYPE,
              ...cookieHeader(n % 2 === 0 ? poster.session : replier.session),
            },
            body: new URLSearchParams({ body }).toString(),
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      expect(statuses).toEqual(sent.map(() => 303));
      await expectAllInOrder(id, sent, 'Opening line');
    } finally {
      await server.close();
    }
  });
});

describe('two starts racing for one ad by one member', () => {
  test('in-process: one conversation, both messages in it, one mail to the poster', async () => {
    const poster = await mailedEachRequest();
    const replier = await t.makeMember();
    const adId = await t.insertLiveAd(poster);
    const [a, b] = await Promise.all([
      t.startConversation(replier, adId, 'First try'),
      t.startConversation(replier, adId, 'Second try'),
    ]);
    expect(conversationIdOf(a)).toBe(conversationIdOf(b));
    const conversations = (await t.storedConversations()).filter((row) => row.ad_id === adId);
    expect(conversations).toHaveLength(1);
    expect(new Set((await t.storedMessages(conversations[0]!.id)).map((row) => row.body))).toEqual(
      new Set(['First try', 'Second try']),
    );
    await t.mailer.settled();
    expect(newMessageMails(poster.email)).toHaveLength(1);
  });

  test('over real HTTP, ten at once: one conversation with ten messages', async () => {
    const poster = await t.makeMember();
    const replier = await t.makeMember();
    const adId = await t.insertLiveAd(poster);
    const server = await listen(t.app);
    try {
      const locations = await Promise.all(
        Array.from({ length: 10 }, async (_, n) => {
          const response = await fetch(`${server.url}${messagesApiPath()}`, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': FORM_TYPE, ...cookieHeader(replier.session) },
            body: new URLSearchParams({ ad: String(adId), body: `Try ${n}` }).toString(),
          });
          await response.arrayBuffer();
          expect(response.status).toBe(303);
          return response.headers.get('location')!.replace(/[?#].*/, '');
        }),
      );
      expect(new Set(locations).size).toBe(1);
      const conversations = (await t.storedConversations()).filter((row) => row.ad_id === adId);
      expect(conversations).toHaveLength(1);
      expect(await t.storedMessages(conversations[0]!.id)).toHaveLength(10);
    } finally {
      await server.close();
    }
  });
});

describe.runIf(onPostgres())('two instances on one PostgreSQL', () => {
  /** Requests sent at once, one in two to a second server instance on the same database. */
  async function atOnceOnTwoInstances(
    count: number,
    send: (app: TestApp, n: number) => Promise<Response>,
  ): Promise<Response[]> {
    const other = await openTestApp(t.dir);
    try {
      const answers = await Promise.all(
        Array.from({ length: count }, (_, n) => send(n % 2 === 0 ? t : other, n)),
      );
      await other.mailer.settled();
      return answers;
    } finally {
      await other.close();
    }
  }

  const statuses = (answers: Response[]) =>
    answers.map((response) => response.status).sort((a, b) => a - b);

  test('replies that would each be the last one allowed, half to each: exactly one stored', async () => {
    const { poster, replier, conversationId: id } = await conversationOnNewAd(t);
    // The replier has sent all but one of the messages the window allows (the opening one too).
    for (let n = 1; n < MESSAGES_PER_WINDOW - 1; n += 1)
      await t.insertMessage(id, replier.accountId, `Earlier ${n}`, 1);
    const answers = await atOnceOnTwoInstances(10, (app, n) =>
      replyIn(app, replier, id, `The last one? ${n}`),
    );
    expect(statuses(answers)).toEqual([303, ...Array(9).fill(429)]);
    const sent = (await t.storedMessages(id)).filter((row) => row.sender_id === replier.accountId);
    expect(sent).toHaveLength(MESSAGES_PER_WINDOW);
    // The other side is not held back by it.
    expect((await t.replyIn(poster, id, 'Slow down, please.')).status).toBe(303);
  });

  test('first replies to one ad by one member, half to each: one conversation, one mail', async () => {
    const poster = await mailedEachRequest();
    const replier = await t.makeMember();
    const adId = await t.insertLiveAd(poster);
    const answers = await atOnceOnTwoInstances(10, (app, n) =>
      startConversation(app, replier, adId, `Hello ${n}`),
    );
    expect(new Set(answers.map(conversationIdOf)).size).toBe(1);
    const conversations = (await t.storedConversations()).filter((row) => row.ad_id === adId);
    expect(conversations).toHaveLength(1);
    expect(await t.storedMessages(conversations[0]!.id)).toHaveLength(10);
    await t.mailer.settled();
    expect(newMessageMails(poster.email)).toHaveLength(1);
  });

  test('new conversations that would each be the last a new account may start: one started', async () => {
    const member = await t.makeMember();
    const ads: number[] = [];
    for (let n = 0; n < NEW_ACCOUNT_CONVERSATIONS + 9; n += 1)
      ads.push(await t.insertLiveAd({ accountId: await t.insertAccount() }, `Ad ${n}`));
    const [earlier, racing] = [
      ads.slice(0, NEW_ACCOUNT_CONVERSATIONS - 1),
      ads.slice(NEW_ACCOUNT_CONVERSATIONS - 1),
    ];
    // A different message to each ad: the same one to more than 3 members is refused for itself.
    for (const [n, adId] of earlier.entries())
      expect((await t.startConversation(member, adId, greeting(n))).status).toBe(303);
    const answers = await atOnceOnTwoInstances(racing.length, (app, n) =>
      startConversation(app, member, racing[n]!, greeting(earlier.length + n)),
    );
    expect(statuses(answers)).toEqual([303, ...Array(9).fill(429)]);
    const started = (await t.storedConversations()).filter(
      (row) => row.replier_id === member.accountId,
    );
    expect(started).toHaveLength(NEW_ACCOUNT_CONVERSATIONS);
  });
});
