// Who may reach me (docs/product.md section 7): a member's age range and hidden words (and "only
// verified members", tested in tests/integration/verification/), saved by the account page's form
// (a plain post, and JSON) and enforced by the server on the message that
// starts a conversation about their ad: a writer outside the ages is told which ages are accepted
// and nothing is stored; a first message with a hidden word goes to the poster's Filtered folder,
// unmailed, while its sender sees it sent. On SQLite and PostgreSQL (the postgres suite).
import { describe, expect, test } from 'vitest';
import { cookieHeader, dobYearsAgo, ORIGIN } from '../../helpers/api.ts';
import { mailsTo } from '../../helpers/mail.ts';
import {
  conversationIdOf,
  insertLiveAd,
  messagesTestApp,
  replyIn,
  startConversation,
  storedConversations,
  storedMessages,
  textOf,
} from '../../helpers/messages.ts';
import { getPage, makeMember, submit, type TestMember } from '../../helpers/posting.ts';
import { accountPath, messagesPath } from '../../../core/paths.ts';
import { myDataFile } from '../../helpers/my-data.ts';

const t = messagesTestApp();

const saveReach = (
  member: TestMember,
  fields: Record<string, string>,
  kind: 'form' | 'json' = 'form',
) => submit(t, '/api/account/reach', { reachForm: '1', ...fields }, member.session, kind);

const pageText = async (path: string, member: TestMember) => {
  const page = await getPage(t, path, member.session);
  expect(page.status).toBe(200);
  return textOf(await page.text());
};

const newMessageMails = (member: TestMember) =>
  mailsTo(t.outboxDir, member.email).filter((mail) => mail.subject.includes('new message'));

const unreadOf = async (member: TestMember) => {
  const response = await t.app.request(`${ORIGIN}/api/me`, {
    headers: cookieHeader(member.session),
  });
  return ((await response.json()) as { unread: number }).unread;
};

/** A poster with a live ad; their settings saved through the form. */
async function posterWith(fields: Record<string, string>) {
  const poster = await makeMember(t);
  const adId = await insertLiveAd(t, poster, 'Tacos and a museum on Sunday');
  const saved = await saveReach(poster, fields);
  expect(saved.status).toBe(303);
  return { poster, adId };
}

describe('the “Who may reach me” form', () => {
  test('a plain post saves it; the account page shows it again', async () => {
    const member = await makeMember(t);
    const before = await pageText(accountPath(), member);
    expect(before).toContain('Who may reach me');
    expect(before).toContain('Save who may reach me');

    const saved = await saveReach(member, {
      minAge: '25',
      maxAge: '45',
      hiddenWords: 'Crypto\n  sugar   daddy , crypto',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/account?done=reach-saved#who-may-reach-me');
    expect((await myDataFile(t, member)).whoMayReachMe).toMatchObject({
      youngestWhoMayWriteFirst: 25,
      oldestWhoMayWriteFirst: 45,
      hiddenWords: ['crypto', 'sugar daddy'],
    });
    const page = await getPage(t, '/account?done=reach-saved', member.session);
    const html = await page.text();
    expect(textOf(html)).toContain('Your settings are saved.');
    expect(html).toMatch(/name="minAge"[^>]*value="25"|value="25"[^>]*name="minAge"/);
    expect(html).toContain('crypto\nsugar daddy</textarea>');
  });

  test('JSON saves it too; empty boxes mean no limit', async () => {
    const member = await makeMember(t);
    const response = await saveReach(member, { minAge: '', maxAge: '30', hiddenWords: '' }, 'json');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      minAge: null,
      maxAge: 30,
      hiddenWords: [],
      verifiedOnly: false,
    });
  });

  test.each([
    [{ minAge: '17' }, 'minAge', 'The youngest age must be from 18 to 99, or empty.'],
    [
      { maxAge: 'forty' },
      'maxAge',
      'The oldest age must be a whole number from 18 to 99, or empty.',
    ],
    [{ minAge: '40', maxAge: '30' }, 'maxAge', 'The youngest age must not be over the oldest.'],
    [{ hiddenWords: 'fine\nx' }, 'hiddenWords', "“x” can't be a hidden word"],
  ])(
    'a wrong field is refused beside it, what was typed kept: %j',
    async (fields, field, message) => {
      const member = await makeMember(t);
      const refused = await saveReach(member, fields);
      expect(refused.status).toBe(400);
      const html = await refused.text();
      expect(textOf(html)).toContain(message);
      expect(html).toContain(
        `id="reach-${field === 'minAge' ? 'min-age' : field === 'maxAge' ? 'max-age' : 'hidden-words'}"`,
      );
      expect(html).toMatch(/aria-invalid="true"/);
      for (const value of Object.values(fields)) expect(html).toContain(value);
      expect((await myDataFile(t, member)).whoMayReachMe).toMatchObject({
        youngestWhoMayWriteFirst: null,
        oldestWhoMayWriteFirst: null,
        hiddenWords: [],
      });

      const json = await saveReach(member, fields, 'json');
      expect(json.status).toBe(400);
      expect(await json.json()).toMatchObject({ field });
    },
  );

  test('signed out: 401', async () => {
    const response = await submit(t, '/api/account/reach', { minAge: '20' }, undefined, 'json');
    expect(response.status).toBe(401);
  });
});

describe('an age range for who may write first', () => {
  test('a writer outside it is told the ages accepted, and nothing is stored', async () => {
    const { poster, adId } = await posterWith({
      minAge: '30',
      maxAge: '40',
      hiddenWords: 'museum',
    });
    const young = await makeMember(t, { dateOfBirth: dobYearsAgo(29, -1) });
    const before = (await storedConversations(t)).length;

    const refused = await startConversation(t, young, adId, 'Hello, I love tacos too.');
    expect(refused.status).toBe(403);
    const text = textOf(await refused.text());
    expect(text).toContain('This member accepts first messages from ages 30–40');
    expect(text).not.toContain('sunsets'); // never the other settings
    expect(text).not.toContain('hidden');
    expect((await storedConversations(t)).length).toBe(before);

    const json = await startConversation(t, young, adId, 'Hello again.', 'json');
    expect(json.status).toBe(403);
    expect(await json.json()).toEqual({
      error:
        "This member accepts first messages from ages 30–40, so your message was not sent. You can reply to other members' ads.",
    });
    const old = await makeMember(t, { dateOfBirth: dobYearsAgo(41) });
    expect((await startConversation(t, old, adId, 'Hi from an older fan of tacos.')).status).toBe(
      403,
    );
    expect((await storedConversations(t)).length).toBe(before);
    await t.mailer.settled();
    expect(newMessageMails(poster)).toEqual([]);
  });

  test('a writer inside it, to the day, reaches the Requests; one bound alone says 18 or 99', async () => {
    const { poster, adId } = await posterWith({ minAge: '30', maxAge: '40' });
    const thirty = await makeMember(t, { dateOfBirth: dobYearsAgo(30) });
    const started = await startConversation(t, thirty, adId, 'Hello, I love tacos too.');
    expect(started.status).toBe(303);
    expect(await pageText('/messages?folder=requests', poster)).toContain(
      'Tacos and a museum on Sunday',
    );

    const other = await posterWith({ maxAge: '25' });
    const refused = await startConversation(t, thirty, other.adId, 'Hello!');
    expect(textOf(await refused.text())).toContain('accepts first messages from ages 18–25');
  });
});

describe('hidden words', () => {
  test('a first message with one goes to Filtered, unmailed; its sender sees it sent', async () => {
    const { poster, adId } = await posterWith({ hiddenWords: 'crypto\nsugar daddy' });
    const sender = await makeMember(t);

    const started = await startConversation(
      t,
      sender,
      adId,
      'Hi! I love tacos. Ever tried CRYPTÖ?',
    );
    expect(started.status).toBe(303);
    const id = conversationIdOf(started);
    expect(started.headers.get('location')).toBe(`/messages/${id}?done=started`);
    // The sender: as any message sent.
    const sent = await pageText(`/messages/${id}?done=started`, sender);
    expect(sent).toContain('Ever tried CRYPTÖ?');
    expect(sent).not.toMatch(/filter|hidden/i);
    expect(await pageText(messagesPath(), sender)).toContain('Tacos and a museum on Sunday');

    // The poster: not in Requests nor Chats, nor the unread count, nor mailed; in Filtered.
    const inbox = await pageText('/messages?folder=requests', poster);
    expect(inbox).not.toContain('Tacos and a museum on Sunday');
    expect(inbox).toContain('Requests (0)');
    expect(inbox).toContain('Filtered (1)');
    expect(await unreadOf(poster)).toBe(0);
    await t.mailer.settled();
    expect(newMessageMails(poster)).toEqual([]);
    const filtered = await pageText('/messages?folder=filtered', poster);
    expect(filtered).toContain('Filtered messages');
    expect(filtered).toContain('Tacos and a museum on Sunday');
    const thread = await pageText(`/messages/${id}`, poster);
    expect(thread).toContain('Ever tried CRYPTÖ?');
    expect(thread).toContain('This conversation is in your Filtered folder');

    // More from the sender stays there, unmailed.
    expect((await replyIn(t, sender, id, 'Still there?')).status).toBe(303);
    await t.mailer.settled();
    expect(newMessageMails(poster)).toEqual([]);
    expect(await pageText('/messages?folder=requests', poster)).not.toContain(
      'Tacos and a museum on Sunday',
    );

    // Answering moves it to the Chats.
    expect((await replyIn(t, poster, id, 'Hello! Tacos yes, crypto no.')).status).toBe(303);
    expect(await pageText(messagesPath(), poster)).toContain('Tacos and a museum on Sunday');
    expect(await pageText('/messages?folder=filtered', poster)).toContain('Nothing here.');
    expect((await storedMessages(t, id)).length).toBe(3);
  });

  test('a later first message with one sends the conversation there; once answered, none does', async () => {
    const { poster, adId } = await posterWith({ hiddenWords: 'crypto' });
    // Each request mailed at once: the mail of the first, and none once it is filtered.
    await t.store.messageSettings.save(
      poster.accountId,
      { requestsAtOnce: true, readReceipts: false },
      new Date().toISOString(),
    );
    const sender = await makeMember(t);
    const id = conversationIdOf(await startConversation(t, sender, adId, 'Hi! Tacos on Sunday?'));
    expect(await pageText('/messages?folder=requests', poster)).toContain(
      'Tacos and a museum on Sunday',
    );
    await t.mailer.settled();
    expect(newMessageMails(poster)).toHaveLength(1);

    // Still unanswered: a first message. The poster reads the first one, then it moves.
    await getPage(t, `/messages/${id}`, poster.session);
    expect((await replyIn(t, sender, id, 'Also: crypto, are you in?')).status).toBe(303);
    expect(await pageText(messagesPath(), poster)).toContain('Filtered (1)');
    expect(await pageText('/messages?folder=filtered', poster)).toContain(
      'Tacos and a museum on Sunday',
    );
    await t.mailer.settled();
    expect(newMessageMails(poster)).toHaveLength(1);

    // Answered: in the Chats, and a hidden word no longer moves it.
    expect((await replyIn(t, poster, id, 'Tacos yes.')).status).toBe(303);
    expect((await replyIn(t, sender, id, 'Great. Crypto later then.')).status).toBe(303);
    expect(await pageText(messagesPath(), poster)).toContain('Tacos and a museum on Sunday');
    expect(await pageText(messagesPath(), poster)).toContain('Filtered (0)');
  });

  test('whole words, through spelling tricks, never inside an ordinary word', async () => {
    const { poster, adId } = await posterWith({ hiddenWords: 'ass\ntelegram' });
    const outcomes: Array<[string, boolean]> = [];
    for (const text of [
      'I teach a dance class and I am an assistant coach.',
      'You look like a pass-the-salt kind of person.',
      'Nice ass, honestly.',
      'add me on t e l e g r a m',
      'add me on tеlеgram', // Cyrillic е
    ]) {
      const sender = await makeMember(t);
      const response = await startConversation(t, sender, adId, text);
      expect([303, 400]).toContain(response.status);
      if (response.status === 400) continue; // the scam shield's, before any folder
      // In which of the poster's folders it is, as their data file says.
      const id = conversationIdOf(response);
      const { conversations } = await myDataFile(t, poster);
      const folder = conversations.find((conversation) => conversation.id === id)!.folder;
      outcomes.push([text, folder.startsWith('Filtered')]);
    }
    expect(outcomes).toEqual([
      ['I teach a dance class and I am an assistant coach.', false],
      ['You look like a pass-the-salt kind of person.', false],
      ['Nice ass, honestly.', true],
    ]);
    expect(await pageText('/messages?folder=filtered', poster)).toContain('Filtered (1)');
  });

  test('download my data has the settings, and the poster’s Filtered folder only', async () => {
    const { poster, adId } = await posterWith({ minAge: '21', hiddenWords: 'crypto' });
    const sender = await makeMember(t);
    await startConversation(t, sender, adId, 'Crypto talk later, tacos first?');
    const read = async (member: TestMember) => {
      const response = await getPage(t, '/api/account/data', member.session);
      expect(response.status).toBe(200);
      return (await response.json()) as {
        whoMayReachMe: unknown;
        conversations: Array<{ folder?: string }>;
      };
    };
    const posters = await read(poster);
    expect(posters.whoMayReachMe).toEqual({
      onlyVerifiedMembersMayWriteFirst: false,
      youngestWhoMayWriteFirst: 21,
      oldestWhoMayWriteFirst: null,
      hiddenWords: ['crypto'],
    });
    expect(posters.conversations.map((c) => c.folder)).toEqual([
      'Filtered (one of your hidden words)',
    ]);
    const senders = await read(sender);
    expect(senders.conversations.map((c) => c.folder)).toEqual(['Chats']);
    expect(JSON.stringify(senders)).not.toMatch(/filtered|hidden words: \[/i);
  });
});
