// Conversations (docs/product.md section 7), in-process on a real SQLite file: a member replies to a
// member's ad, the poster is mailed (no text, no address), both read and write in the thread, the
// inbox counts what is unread and opening the thread reads it; anyone else gets the not-found
// answer; a sample ad says nothing is delivered. Every form as a plain post, and as JSON.
import { describe, expect, test } from 'vitest';
import { findPublishedAd } from '../../../core/content/ad-by-id.ts';
import { adIdsForCity } from '../../../core/content/index.ts';
import { conversationPath, meApiPath, messagesApiPath } from '../../../core/paths.ts';
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
  ).then((response) => response.json() as Promise<{ email: string; unread: number }>);

describe('a conversation about a member ad', () => {
  test('reply → the poster is mailed without the text or the address → both write → reads count down', async () => {
    const poster = await t.makeMember();
    const replier = await t.makeMember();
    const adId = await t.insertLiveAd(poster, 'Sunday hikes and coffee');

    const form = await t.getPage(`/messages/new?ad=${adId}`, replier.session);
    expect(form.status).toBe(200);
    const formText = textOf(await form.text());
    expect(formText).toContain('Reply to an ad');
    expect(formText).toContain('Sunday hikes and coffee');
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

    await t.mailer.settled();
    const mails = mailsTo(t.outboxDir, poster.email).filter((m) =>
      m.subject.includes('new message'),
    );
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(subjectOf(mail)).toBe('You have a new message about your ad “Sunday hikes and coffee”');
    expect(mail.text).toContain(`http://localhost${conversationPath(id)}`);
    expect(mail.raw).not.toContain('I like hikes too');
    expect(mail.raw).not.toContain(replier.email);

    // The poster sees one unread message in the header's count and in the inbox.
    expect((await me(poster.session)).unread).toBe(1);
    const inbox = textOf(await (await t.getPage('/messages', poster.session)).text());
    expect(inbox).toContain('Sunday hikes and coffee');
    expect(inbox).toContain('A member replied to your ad');
    expect(inbox).toContain('1 conversation · 1 unread message');
    expect(inbox).not.toContain(replier.email);

    // Opening the thread reads it.
    const thread = await t.getPage(conversationPath(id), poster.session);
    expect(thread.status).toBe(200);
    const threadText = textOf(await thread.text());
    expect(threadText).toContain('The member who replied');
    expect(threadText).toContain('I like hikes too.');
    expect(threadText).toContain('Report this conversation');
    expect(threadText).not.toContain(replier.email);
    expect((await me(poster.session)).unread).toBe(0);
    expect((await t.storedMessages(id))[0]!.read_at).not.toBeNull();
    expect(textOf(await (await t.getPage('/messages', poster.session)).text())).toContain(
      '1 conversation · all read',
    );

    // The poster answers; the replier is mailed once, then not again while it is unread.
    const answered = await t.replyIn(poster, id, 'Hi! Which trail?');
    expect(answered.status).toBe(303);
    expect(answered.headers.get('location')).toBe(`${conversationPath(id)}#latest`);
    expect((await t.replyIn(poster, id, 'Griffith Park maybe?')).status).toBe(303);
    await t.mailer.settled();
    const toReplier = mailsTo(t.outboxDir, replier.email).filter((m) =>
      m.subject.includes('new message'),
    );
    expect(toReplier).toHaveLength(1);
    expect(subjectOf(toReplier[0]!)).toBe(
      'You have a new message about the ad “Sunday hikes and coffee”',
    );
    expect(toReplier[0]!.raw).not.toContain('Which trail');
    expect(toReplier[0]!.raw).not.toContain(poster.email);
    expect((await me(replier.session)).unread).toBe(2);

    const replierView = textOf(
      await (await t.getPage(conversationPath(id), replier.session)).text(),
    );
    expect(replierView).toMatch(
      /You .*Hello! I like hikes too\. .*The poster .*Hi! Which trail\? .*The poster .*Griffith Park maybe\?/,
    );
    expect((await me(replier.session)).unread).toBe(0);

    // Once read, the next message mails again.
    expect((await t.replyIn(poster, id, 'Or the beach.')).status).toBe(303);
    await t.mailer.settled();
    expect(
      mailsTo(t.outboxDir, replier.email).filter((m) => m.subject.includes('new message')),
    ).toHaveLength(2);
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
    const html = await (await t.getPage('/messages', member.session)).text();
    const text = textOf(html);
    expect(text.indexOf('Ad of A')).toBeLessThan(text.indexOf('Ad of B'));
    expect(text).toContain('2 conversations · 2 unread messages');
    expect(html).toContain(`href="${conversationPath(first)}"`);
    expect(html).toContain(`href="${conversationPath(second)}"`);
    expect(text).toMatch(/Ad of A You wrote to the poster 2 unread/);
  });

  test('an empty inbox says how conversations start', async () => {
    const member = await t.makeMember();
    const text = textOf(await (await t.getPage('/messages', member.session)).text());
    expect(text).toContain('No conversations yet');
    expect(text).toContain('when you reply to a member');
  });

  test('signed out: the pages and the posts send to sign in and back', async () => {
    for (const path of ['/messages', '/messages/1', '/messages/new?ad=100000001']) {
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
