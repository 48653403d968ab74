// Conversations (docs/product.md section 7), in-process on a real SQLite file: a member replies to a
// member's ad, it is in the poster's Requests (mailed in the daily digest, or at once if they chose
// so; no text, no address) until the poster answers, and then a chat; both read and write in the
// thread, the folders count what is new and opening the thread reads it; anyone else gets the
// not-found answer; a sample ad says nothing is delivered. Every form as a plain post, and as JSON.
import { describe, expect, test } from 'vitest';
import { findPublishedAd } from '../../../core/content/ad-by-id.ts';
import { adIdsForCity } from '../../../core/content/index.ts';
import {
  conversationPath,
  meApiPath,
  messagesApiPath,
  messageSettingsApiPath,
  messagesPath,
} from '../../../core/paths.ts';
import { messagesWorld } from '../../helpers/messages-world.ts';
import { conversationOnNewAd } from '../../helpers/conversation-on-new-ad.ts';
import { cookieHeader, ORIGIN } from '../../helpers/api.ts';
import { mailsTo, type ReadMail } from '../../helpers/mail.ts';
import { EDITOR_AD_ID, conversationIdOf, textOf } from '../../helpers/messages.ts';

const t = messagesWorld();

// The test's mail reader joins encoded words with a space; the subject as the member reads it.
const subjectOf = (mail: ReadMail) =>
  mail.subject.replace(/\s*([“”])\s*/g, (_, quote: string) => (quote === '“' ? ' “' : '”'));

const me = (session: string) =>
  Promise.resolve(
    t.app.request(`${ORIGIN}${meApiPath()}`, { headers: cookieHeader(session) }),
  ).then(
    (response) =>
      response.json() as Promise<{
        email: string;
        unread: number;
        newChats: number;
        newRequests: number;
      }>,
  );

const newMessageMails = (email: string) =>
  mailsTo(t.outboxDir, email).filter((mail) => mail.subject.includes('new message'));

describe('a conversation about a member ad', () => {
  test('reply → a request for the poster, in no mail until the digest → the poster answers → a chat, mailed as it comes', async () => {
    const poster = await t.makeMember();
    const replier = await t.makeMember();
    const adId = await t.insertLiveAd(poster, 'Sunday hikes and coffee');

    const form = await t.getPage(`/messages/new?ad=${adId}`, replier.session);
    expect(form.status).toBe(200);
    const formText = textOf(await form.text());
    expect(formText).toContain('Reply to an ad');
    expect(formText).toContain('Sunday hikes and coffee');
    expect(formText).toContain('online dating safety notice');
    expect(formText).not.toContain(poster.email);

    const started = await t.startConversation(replier, adId, 'Hello!\r\nI like hikes too.');
    expect(started.status).toBe(303);
    const id = conversationIdOf(started);
    expect(started.headers.get('location')).toBe(`${conversationPath(id)}?done=started`);
    expect((await t.storedConversations()).find((row) => row.id === id)).toMatchObject({
      ad_id: adId,
      ad_title: 'Sunday hikes and coffee',
      poster_id: poster.accountId,
      replier_id: replier.accountId,
    });
    expect((await t.storedMessages(id)).map((row) => [row.sender_id, row.body])).toEqual([
      [replier.accountId, 'Hello!\nI like hikes too.'],
    ]);
    const sent = textOf(
      await (await t.getPage(`${conversationPath(id)}?done=started`, replier.session)).text(),
    );
    expect(sent).toContain('Your message is sent. It waits in the poster’s Requests');

    // A request: in the poster's Requests, not their Chats; mailed in the daily digest only.
    await t.mailer.settled();
    expect(newMessageMails(poster.email)).toEqual([]);
    expect(await me(poster.session)).toMatchObject({ unread: 1, newChats: 0, newRequests: 1 });
    const chats = textOf(await (await t.getPage(messagesPath(), poster.session)).text());
    expect(chats).toContain('1 new request');
    expect(chats).toContain('Requests (1) · 1 new');
    expect(chats).toContain('No chats yet');
    expect(chats).toContain('You have 1 message request about your ads');
    expect(chats).not.toContain('Sunday hikes and coffee');
    const requests = textOf(
      await (await t.getPage('/messages?folder=requests', poster.session)).text(),
    );
    expect(requests).toContain('Message requests');
    expect(requests).toContain('Sunday hikes and coffee');
    expect(requests).toContain('A member replied to your ad');
    expect(requests).toContain('1 conversation · 1 unread message');
    expect(requests).not.toContain(replier.email);
    // The replier's side: a chat they started.
    const replierChats = textOf(await (await t.getPage(messagesPath(), replier.session)).text());
    expect(replierChats).toContain('Sunday hikes and coffee');
    expect(replierChats).toContain('You wrote to the poster');

    // Opening the thread reads it; it says it is a request.
    const thread = await t.getPage(conversationPath(id), poster.session);
    expect(thread.status).toBe(200);
    const threadText = textOf(await thread.text());
    expect(threadText).toContain('The member who replied');
    expect(threadText).toContain('I like hikes too.');
    expect(threadText).toContain('This is a request');
    expect(threadText).toContain('Report this conversation');
    expect(threadText).not.toContain(replier.email);
    expect(await me(poster.session)).toMatchObject({ unread: 0, newRequests: 0 });
    expect((await t.storedMessages(id))[0]!.read_at).not.toBeNull();

    // The sender writing again: still a request, still no mail now.
    expect((await t.replyIn(replier, id, 'Are you free on Sunday?')).status).toBe(303);
    await t.mailer.settled();
    expect(newMessageMails(poster.email)).toEqual([]);
    expect(textOf(await (await t.getPage(messagesPath(), poster.session)).text())).not.toContain(
      'Sunday hikes and coffee',
    );

    // The poster reads it and answers: a chat for both; the replier is mailed once, then not again
    // while unread.
    await t.getPage(conversationPath(id), poster.session);
    const answered = await t.replyIn(poster, id, 'Hi! Which trail?');
    expect(answered.status).toBe(303);
    expect(answered.headers.get('location')).toBe(`${conversationPath(id)}#latest`);
    expect((await t.replyIn(poster, id, 'Griffith Park maybe?')).status).toBe(303);
    const posterChats = textOf(await (await t.getPage(messagesPath(), poster.session)).text());
    expect(posterChats).toContain('Sunday hikes and coffee');
    expect(posterChats).toContain('Requests (0)');
    await t.mailer.settled();
    const toReplier = newMessageMails(replier.email);
    expect(toReplier).toHaveLength(1);
    expect(subjectOf(toReplier[0]!)).toBe(
      'You have a new message about the ad “Sunday hikes and coffee”',
    );
    expect(toReplier[0]!.text).toContain(`http://localhost${conversationPath(id)}`);
    expect(toReplier[0]!.raw).not.toContain('Which trail');
    expect(toReplier[0]!.raw).not.toContain(poster.email);
    expect(await me(replier.session)).toMatchObject({ unread: 2, newChats: 1, newRequests: 0 });
    expect(textOf(await (await t.getPage(messagesPath(), replier.session)).text())).toContain(
      '1 new chat',
    );

    const replierView = textOf(
      await (await t.getPage(conversationPath(id), replier.session)).text(),
    );
    expect(replierView).toMatch(
      /You .*Hello! I like hikes too\. .*The poster .*Hi! Which trail\? .*The poster .*Griffith Park maybe\?/,
    );
    expect((await me(replier.session)).unread).toBe(0);

    // Once read, the next message mails again; and the replier's messages are chats now: mailed.
    expect((await t.replyIn(poster, id, 'Or the beach.')).status).toBe(303);
    expect((await t.replyIn(replier, id, 'The beach!')).status).toBe(303);
    await t.mailer.settled();
    expect(newMessageMails(replier.email)).toHaveLength(2);
    const toPoster = newMessageMails(poster.email);
    expect(toPoster).toHaveLength(1);
    expect(subjectOf(toPoster[0]!)).toBe(
      'You have a new message about your ad “Sunday hikes and coffee”',
    );
  });

  test('a poster who chose each request at once is mailed for the first one, saying it is a request', async () => {
    const poster = await t.makeMember();
    const replier = await t.makeMember();
    const adId = await t.insertLiveAd(poster, 'Board games on Friday');
    const saved = await t.submit(
      messageSettingsApiPath(),
      { requestMails: 'at-once', messagesForm: '1' },
      poster.session,
    );
    expect(saved.status).toBe(303);
    const id = conversationIdOf(await t.startConversation(replier, adId, 'I love board games.'));
    expect((await t.replyIn(replier, id, 'Catan?')).status).toBe(303);
    await t.mailer.settled();
    const mails = newMessageMails(poster.email);
    expect(mails).toHaveLength(1);
    expect(subjectOf(mails[0]!)).toBe(
      'You have a new message about your ad “Board games on Friday”',
    );
    expect(mails[0]!.text).toContain('It waits in your Requests until you answer it.');
    expect(mails[0]!.raw).not.toContain('board games.');
    expect(mails[0]!.raw).not.toContain(replier.email);
  });

  test('as JSON: ids and redirects, errors as { error }', async () => {
    const poster = await t.makeMember();
    const replier = await t.makeMember();
    const adId = await t.insertLiveAd(poster);
    const started = await t.startConversation(replier, adId, 'Hello there', 'json');
    expect(started.status).toBe(201);
    const { conversationId, redirectUrl } = (await started.json()) as {
      conversationId: number;
      redirectUrl: string;
    };
    expect(redirectUrl).toBe(`${conversationPath(conversationId)}?done=started`);
    const reply = await t.replyIn(poster, conversationId, 'Hi', 'json');
    expect(reply.status).toBe(201);
    const empty = await t.replyIn(poster, conversationId, '   ', 'json');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ error: 'Write a message before sending it.' });
  });

  test('a second reply to the same ad goes into the same conversation; the reply page leads there', async () => {
    const thread = await conversationOnNewAd(t, { opening: 'First' });
    const { replier, adId, conversationId: id } = thread;
    const again = await t.getPage(`/messages/new?ad=${adId}`, replier.session);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(conversationPath(id));
    const second = await t.startConversation(replier, adId, 'Second');
    expect(conversationIdOf(second)).toBe(id);
    expect((await t.storedMessages(id)).map((row) => row.body)).toEqual(['First', 'Second']);
  });

  test('the inbox lists the newest activity first, with the unread count of each', async () => {
    const member = await t.makeMember();
    const a = await t.makeMember();
    const b = await t.makeMember();
    const adA = await t.insertLiveAd(a, 'Ad of A');
    const adB = await t.insertLiveAd(b, 'Ad of B');
    const first = conversationIdOf(await t.startConversation(member, adA, 'to A'));
    const second = conversationIdOf(await t.startConversation(member, adB, 'to B'));
    // A answers later than B's conversation started: A's thread comes first.
    await t.replyIn(a, first, 'from A 1');
    await t.replyIn(a, first, 'from A 2');
    const html = await (await t.getPage(messagesPath(), member.session)).text();
    const text = textOf(html);
    expect(text.indexOf('Ad of A')).toBeLessThan(text.indexOf('Ad of B'));
    expect(text).toContain('2 conversations · 2 unread messages');
    expect(html).toContain(`href="${conversationPath(first)}"`);
    expect(html).toContain(`href="${conversationPath(second)}"`);
    expect(text).toMatch(/Ad of A You wrote to the poster 2 unread/);
  });

  test('an empty inbox says how conversations start', async () => {
    const member = await t.makeMember();
    const text = textOf(await (await t.getPage(messagesPath(), member.session)).text());
    expect(text).toContain('No chats yet');
    expect(text).toContain('when you reply to a member');
    expect(text).toContain('Requests (0)');
    expect(text).toContain('Filtered (0)');
    expect(text).not.toContain(' new');
  });

  test('signed out: the pages and the posts send to sign in and back', async () => {
    for (const path of [messagesPath(), '/messages/1', '/messages/new?ad=100000001']) {
      const response = await t.getPage(path);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe(`/signin?next=${encodeURIComponent(path)}`);
    }
    const posted = await t.app.request(`${ORIGIN}${messagesApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'ad=100000001&body=hi',
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(
      `/signin?next=${encodeURIComponent('/messages/new?ad=100000001')}`,
    );
  });

  test('an unverified member is asked to verify first, and nothing is stored', async () => {
    const poster = await t.makeMember();
    const unverified = await t.makeMember({ verified: false });
    const adId = await t.insertLiveAd(poster);
    const page = textOf(
      await (await t.getPage(`/messages/new?ad=${adId}`, unverified.session)).text(),
    );
    expect(page).toContain('Verify your email address before writing to members');
    expect(page).not.toContain('Send message');
    const before = (await t.storedMessages()).length;
    const response = await t.startConversation(unverified, adId, 'Hello');
    expect(response.status).toBe(403);
    expect(textOf(await response.text())).toContain('Verify your email address');
    expect(await t.storedMessages()).toHaveLength(before);
  });

  test('a sample ad: plainly a sample, no form, nothing delivered', async () => {
    const member = await t.makeMember();
    const sampleId = adIdsForCity('California', 'Los Angeles').find(
      (id) => findPublishedAd(id)?.sample,
    )!;
    expect(findPublishedAd(sampleId)?.sample).toBe(true);
    const response = await t.getPage(`/messages/new?ad=${sampleId}`, member.session);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(textOf(html)).toContain('This is a sample ad');
    expect(textOf(html)).toContain('nothing you write here would be delivered');
    expect(html).not.toContain('<textarea');
    const before = (await t.storedMessages()).length;
    const posted = await t.startConversation(member, sampleId, 'Hello');
    expect(posted.status).toBe(403);
    expect(textOf(await posted.text())).toContain('nothing you write here would be delivered');
    expect(await t.storedMessages()).toHaveLength(before);
  });

  test("an editor's ad: plainly not a member's, no form, nothing delivered", async () => {
    const member = await t.makeMember();
    expect(findPublishedAd(EDITOR_AD_ID)?.sample).toBe(false);
    const html = await (await t.getPage(`/messages/new?ad=${EDITOR_AD_ID}`, member.session)).text();
    expect(textOf(html)).toContain("This is an editor's listing, not a member's ad");
    expect(html).not.toContain('<textarea');
    const posted = await t.startConversation(member, EDITOR_AD_ID, 'Hello');
    expect(posted.status).toBe(403);
    expect(textOf(await posted.text())).toContain('nothing you write here would be delivered');
  });
});
