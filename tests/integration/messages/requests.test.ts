// Requests and their daily digest (docs/product.md section 7), in-process on either engine, the
// clock faked where a day is the point: a member's first messages about someone's ad wait in that
// member's Requests, unmailed, and the hourly run mails them once a day in one mail (the ads, a
// link, never a text or an address), each day what came since; a member who chose each request
// at once gets no digest; a digest whose mail fails is sent by the next run; runs at once, on any
// number of instances, mail it once. The "Messages" settings form, as a plain post and as JSON.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { accountDataApiPath, accountPath, messageSettingsApiPath } from '../../../core/paths.ts';
import { sendRequestDigests } from '../../../server/messages/request-digest.ts';
import { unreachableMailer, mailsTo, TEST_MAIL_SITE, type ReadMail } from '../../helpers/mail.ts';
import { conversationIdOf, textOf } from '../../helpers/messages.ts';
import { messagesWorld } from '../../helpers/messages-world.ts';
import type { TestMember } from '../../helpers/posting.ts';

const t = messagesWorld();

const HOUR = 3_600_000;
let start: number;
beforeEach(() => {
  // A whole hour, so that the runs below fall where the test says.
  start = Math.floor(Date.now() / HOUR) * HOUR;
  vi.useFakeTimers({ toFake: ['Date'], now: start });
});
afterEach(() => {
  vi.useRealTimers();
});
const at = (hours: number) => vi.setSystemTime(start + hours * HOUR);

const digests = (member: TestMember) =>
  mailsTo(t.outboxDir, member.email).filter((mail) => mail.subject.includes('message request'));
const newMessageMails = (member: TestMember) =>
  mailsTo(t.outboxDir, member.email).filter((mail) => mail.subject.includes('new message about'));
const run = () =>
  sendRequestDigests({ store: t.store, mailer: t.mailer, site: TEST_MAIL_SITE }, new Date());

/** A poster with two live ads, and members writing to them. */
async function posterWithAds() {
  const poster = await t.makeMember();
  const hikes = await t.insertLiveAd(poster, 'Sunday hikes');
  const tacos = await t.insertLiveAd(poster, 'Tacos on Tuesday', { city: 'San Diego' });
  return { poster, hikes, tacos };
}

/** Whether the page's input of that name and value is checked (ticked, or chosen). */
const isChecked = (html: string, name: string, value: string) => {
  const tag = [...html.matchAll(/<input\b[^>]*>/g)]
    .map((match) => match[0])
    .find((input) => input.includes(`name="${name}"`) && input.includes(`value="${value}"`));
  if (!tag) throw new Error(`No input ${name}=${value} on the page`);
  return /\schecked(="")?[\s/>]/.test(tag);
};

const linksOf = (mail: ReadMail) => [...mail.text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);

describe('the daily digest of new requests', () => {
  test('a day’s requests in one mail, the next day’s in the next; read ones and answered ones never', async () => {
    const { poster, hikes, tacos } = await posterWithAds();
    const ann = await t.makeMember();
    const bob = await t.makeMember();
    const toHikes = conversationIdOf(await t.startConversation(ann, hikes, 'I hike every week.'));
    at(0.5);
    await t.startConversation(bob, tacos, 'Tacos are life.');
    await t.mailer.settled();
    expect(newMessageMails(poster)).toEqual([]);

    at(1);
    await run();
    const [first, ...others] = digests(poster);
    expect(others).toEqual([]);
    expect(first!.subject).toBe('2 new message requests on Localboard');
    expect(first!.text).toContain('“Sunday hikes” (1 message), “Tacos on Tuesday” (1 message)');
    expect(linksOf(first!)).toContain('http://localhost/messages?folder=requests');
    expect(first!.text).toContain('once a day');
    expect(linksOf(first!)).toContain('http://localhost/account#message-settings');
    for (const secret of ['I hike every week', 'Tacos are life', ann.email, bob.email])
      expect(first!.raw).not.toContain(secret);

    // More the same day waits for the next day's mail, whoever looks and however often.
    at(2);
    expect((await t.replyIn(ann, toHikes, 'Still keen?')).status).toBe(303);
    for (const hours of [3, 12, 24]) {
      at(hours);
      await run();
    }
    expect(digests(poster)).toHaveLength(1);
    at(25.5);
    await run();
    const second = digests(poster)[1]!;
    expect(second.subject).toBe('1 new message request on Localboard');
    expect(second.text).toContain('“Sunday hikes” (1 message)');
    expect(second.text).not.toContain('Tacos on Tuesday');

    // New messages the poster reads, or answers, before the next run: nothing to mail.
    at(30);
    const toTacos = conversationIdOf(await t.startConversation(bob, tacos, 'Hi again'));
    expect((await t.replyIn(ann, toHikes, 'Hello?')).status).toBe(303);
    expect(
      textOf(await (await t.getPage('/messages?folder=requests', poster.session)).text()),
    ).toContain('2 new requests');
    await t.getPage(`/messages/${toTacos}`, poster.session);
    expect((await t.replyIn(poster, toHikes, 'Hi Ann!')).status).toBe(303);
    at(50);
    await run();
    expect(digests(poster)).toHaveLength(2);
  });

  test('a member who chose each request at once is mailed at once and gets no digest', async () => {
    const { poster, hikes } = await posterWithAds();
    const saved = await t.submit(
      messageSettingsApiPath(),
      { requestMails: 'at-once', messagesForm: '1' },
      poster.session,
    );
    expect(saved.headers.get('location')).toBe(
      `${accountPath()}?done=messages-saved#message-settings`,
    );
    const writer = await t.makeMember();
    await t.startConversation(writer, hikes, 'Hello from the trail.');
    await t.mailer.settled();
    expect(newMessageMails(poster)).toHaveLength(1);
    at(1);
    await run();
    expect(digests(poster)).toEqual([]);
    // Download my data says where the conversation is, for each side.
    const folders = async (member: TestMember) =>
      (
        (await (await t.getPage(accountDataApiPath(), member.session)).json()) as {
          conversations: Array<{ folder: string }>;
        }
      ).conversations.map((conversation) => conversation.folder);
    expect(await folders(poster)).toEqual(['Requests (not answered yet)']);
    expect(await folders(writer)).toEqual(['Chats']);
  });

  test('a digest whose mail fails is sent by the next run, once; runs at once mail it once', async () => {
    const { poster, hikes } = await posterWithAds();
    const writer = await t.makeMember();
    await t.startConversation(writer, hikes, 'Hello there.');
    at(1);
    // The mail server is down.
    const down = unreachableMailer(t.outboxDir);
    const lines: string[] = [];
    const failed = await sendRequestDigests(
      { store: t.store, mailer: down, site: TEST_MAIL_SITE, log: (line) => lines.push(line) },
      new Date(),
    );
    expect(failed.failed).toBeGreaterThan(0);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          new RegExp(`^The request digest of member ${poster.accountId} was not sent: `),
        ),
      ]),
    );
    expect(digests(poster)).toEqual([]);

    at(2);
    await Promise.all([run(), run(), run()]);
    expect(digests(poster)).toHaveLength(1);
  });
});

describe('the message settings form', () => {
  test('a plain post saves both settings; the account page shows them again', async () => {
    const member = await t.makeMember();
    const before = textOf(await (await t.getPage(accountPath(), member.session)).text());
    expect(before).toContain('Mail me about new requests');
    const saved = await t.submit(
      messageSettingsApiPath(),
      { messagesForm: '1', requestMails: 'at-once', readReceipts: 'on' },
      member.session,
    );
    expect(saved.status).toBe(303);
    const page = await (
      await t.getPage(`${accountPath()}?done=messages-saved`, member.session)
    ).text();
    expect(textOf(page)).toContain('Your message settings are saved.');
    expect(isChecked(page, 'requestMails', 'at-once')).toBe(true);
    expect(isChecked(page, 'requestMails', 'daily')).toBe(false);
    expect(isChecked(page, 'readReceipts', 'on')).toBe(true);
    // Download my data has them, in words.
    const data = await t.getPage(accountDataApiPath(), member.session);
    expect(((await data.json()) as { messageSettings: unknown }).messageSettings).toEqual({
      newRequestsMailed: 'each at once',
      readReceipts: true,
    });
    // A box left unticked is off; daily is the default choice.
    await t.submit(
      messageSettingsApiPath(),
      { messagesForm: '1', requestMails: 'daily' },
      member.session,
    );
    expect(await t.store.messageSettings.of(member.accountId)).toEqual({
      requestsAtOnce: false,
      readReceipts: false,
    });
  });

  test('JSON saves them too, and gets them back', async () => {
    const member = await t.makeMember();
    const saved = await t.submit(
      messageSettingsApiPath(),
      { requestMails: 'daily', readReceipts: true },
      member.session,
      'json',
    );
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ requestMails: 'daily', readReceipts: true });
  });

  test('a wrong choice is refused with the form again, nothing saved; signed out 401', async () => {
    const member = await t.makeMember();
    const refused = await t.submit(
      messageSettingsApiPath(),
      { messagesForm: '1', requestMails: 'weekly', readReceipts: 'on' },
      member.session,
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(textOf(html)).toContain(
      'Choose how we mail you about new requests: once a day, or each at once.',
    );
    // As it was filled in: the box still ticked.
    expect(isChecked(html, 'readReceipts', 'on')).toBe(true);
    expect(isChecked(html, 'requestMails', 'daily')).toBe(true);
    expect(await t.store.messageSettings.of(member.accountId)).toEqual({
      requestsAtOnce: false,
      readReceipts: false,
    });
    const json = await t.submit(
      messageSettingsApiPath(),
      { requestMails: 7 },
      member.session,
      'json',
    );
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({
      error: 'Choose how we mail you about new requests: once a day, or each at once.',
    });
    const signedOut = await t.submit(
      messageSettingsApiPath(),
      { requestMails: 'daily' },
      undefined,
      'json',
    );
    expect(signedOut.status).toBe(401);
  });
});
