// The scam shield on messages (docs/product.md section 7), in-process on
// either engine, as members and moderators meet it: a first message with a scam signal is refused
// and nothing is stored; the sender's messages stay "first" ones until the other side writes back
// (both sides); after that, off-site contact passes and money is delivered with a warning that
// only its recipient reads, with the safety guide and a one-step Report as scam (a plain form
// post, and the report form with the reason chosen); the same first message to a 4th member in a
// day is refused; the same one from 3 new accounts is announced on /moderate until dismissed; and
// the sender's record is read beside the account on the queue and the reports.
import { describe, expect, test } from 'vitest';
import { REPEAT_RECIPIENTS, REPEATED_MESSAGE } from '../../../server/messages/scam-shield.ts';
import { getScamSignals } from '../../../core/content/index.ts';
import {
  conversationPath,
  dismissRepeatedMessageApiPath,
  moderatePath,
  moderateReportsPath,
  reportsApiPath,
} from '../../../core/paths.ts';
import { firstMessageRefusal, SCAM_WARNINGS } from '../../../core/policy/index.ts';
import { UNREMARKABLE } from '../../../core/shield/decision.ts';
import { judgeFirstMessage } from '../../../core/shield/first-message.ts';
import { shieldModel } from '../../../server/messages/shield-model.ts';
import { messagesWorld } from '../../helpers/messages-world.ts';
import { conversationOnNewAd } from '../../helpers/conversation-on-new-ad.ts';
import { mailsTo } from '../../helpers/mail.ts';
import { greeting, textOf } from '../../helpers/messages.ts';
import { insertAdInReview, postModerationForm, signUpModerator } from '../../helpers/moderation.ts';
import { formOf } from '../../helpers/pages.ts';
import { type TestMember } from '../../helpers/posting.ts';
import { clockFrom, DAY } from '../../helpers/clock.ts';
import { storedRow, storedRows } from '../../helpers/stored-rows.ts';

const t = messagesWorld();

const OFF_SITE = 'Hey! add me on kik, my name there is jess22';
const MONEY = 'cashapp me $20 for gas and I will drive over tonight';

/** What the shield refuses a first message with (the test's own texts are unmistakable). */
function refusalOf(text: string): string {
  const decision = judgeFirstMessage(shieldModel('messages'), getScamSignals(), text, {
    places: ['Los Angeles', 'California'],
    behaviour: UNREMARKABLE,
  });
  if (decision.outcome !== 'refused') throw new Error(`the shield does not refuse “${text}”`);
  return firstMessageRefusal(text, decision.families[0]!, decision.part!, 'Localboard');
}

const outcomesOf = (accountId: number) =>
  storedRows<{ family: string; outcome: string }>(
    t,
    'SELECT family, outcome FROM scam_outcomes WHERE account_id = ? ORDER BY id',
    accountId,
  );

/** The fields of the Report as scam form on a conversation page, as the browser posts them. */
function reportAsScamFields(html: string): Record<string, string> {
  const form = formOf(html, reportsApiPath());
  if (!form) throw new Error('no Report as scam form on the page');
  expect(form.attributes.method).toBe('post');
  expect(form.text).toContain('Report as scam');
  const fields: Record<string, string> = {};
  for (const input of form.html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[input[1]!] = input[2]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return fields;
}

/** A conversation on a new ad, opened by a new member with `opening`: both sides and its id. */
async function threadOpenedWith(opening: string, title?: string) {
  const thread = await conversationOnNewAd(t, { opening, ...(title ? { title } : {}) });
  return { poster: thread.poster, replier: thread.replier, id: thread.conversationId };
}

describe('a first message with a scam signal', () => {
  test('is refused with what to change, the text kept, nothing stored, and counted for the sender', async () => {
    const poster = await t.makeMember();
    const replier = await t.makeMember();
    const adId = await t.insertLiveAd(poster, 'Board games on Fridays');
    const conversationsBefore = (await t.storedConversations()).length;
    const messagesBefore = (await t.storedMessages()).length;

    const refused = await t.startConversation(replier, adId, OFF_SITE);
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(textOf(html)).toContain(refusalOf(OFF_SITE));
    expect(html).toContain(`>${OFF_SITE}</textarea>`);

    const json = await t.startConversation(replier, adId, MONEY, 'json');
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({ error: refusalOf(MONEY) });

    expect(await t.storedConversations()).toHaveLength(conversationsBefore);
    expect(await t.storedMessages()).toHaveLength(messagesBefore);
    expect(await outcomesOf(replier.accountId)).toEqual([
      { family: 'off-site-contact', outcome: 'refused' },
      { family: 'money', outcome: 'refused' },
    ]);
    await t.mailer.settled();
    const newMessageMails = mailsTo(t.outboxDir, poster.email).filter((mail) =>
      mail.subject.includes('new message'),
    );
    expect(newMessageMails).toHaveLength(0);
  });

  test('"hi" first, then "add me on kik": still a first message until the poster writes back', async () => {
    const { poster, replier, id } = await threadOpenedWith('hi');
    const refused = await t.replyIn(replier, id, OFF_SITE);
    expect(refused.status).toBe(400);
    expect(textOf(await refused.text())).toContain(refusalOf(OFF_SITE));
    // The poster's first reply is a first message too: the replier has not answered it.
    expect((await t.replyIn(poster, id, OFF_SITE)).status).toBe(400);
    expect((await t.storedMessages(id)).map((row) => row.body)).toEqual(['hi']);
  });
});

describe('once the other side has answered', () => {
  test('off-site contact passes, and money is delivered with a warning only its recipient reads', async () => {
    const { poster, replier, id } = await threadOpenedWith(
      'Hello! Which films do you like?',
      'Dinner and a film',
    );
    expect((await t.replyIn(poster, id, 'Old westerns, mostly. You?')).status).toBe(303);

    const offSite = await t.replyIn(replier, id, OFF_SITE, 'json');
    expect(offSite.status).toBe(201);
    expect(await offSite.json()).toMatchObject({ warned: [] });
    const money = await t.replyIn(replier, id, MONEY, 'json');
    expect(money.status).toBe(201);
    const { warned } = (await money.json()) as { warned: string[] };
    expect(warned).toContain('money');

    const stored = await t.storedMessages(id);
    expect(stored.map((row) => row.body)).toEqual([
      'Hello! Which films do you like?',
      'Old westerns, mostly. You?',
      OFF_SITE,
      MONEY,
    ]);
    const row = await storedRow<{ scam_warnings: string | null }>(
      t,
      'SELECT scam_warnings FROM messages WHERE id = ?',
      stored[3]!.id,
    );
    expect(JSON.parse(row!.scam_warnings!)).toEqual(warned);
    expect(
      (await outcomesOf(replier.accountId)).filter((outcome) => outcome.outcome === 'warned'),
    ).toEqual(warned.map((family) => ({ family, outcome: 'warned' })));

    // The poster reads the warning beside that message, in words, with the guide and the report.
    const posterHtml = await (await t.getPage(conversationPath(id), poster.session)).text();
    const posterText = textOf(posterHtml);
    expect(posterText).toContain('Warning: this message may be a scam');
    expect(posterText).toContain(SCAM_WARNINGS.money);
    expect(posterText.indexOf(SCAM_WARNINGS.money)).toBeGreaterThan(posterText.indexOf(MONEY));
    expect(posterHtml).toContain('href="/about/recognising-scams"');
    expect(posterText).toContain('Report as scam');
    // Once, beside the one warned message.
    expect(posterText.match(/Warning: this message may be a scam/g)).toHaveLength(1);

    // The sender never sees it.
    const replierText = textOf(
      await (await t.getPage(conversationPath(id), replier.session)).text(),
    );
    expect(replierText).toContain(MONEY);
    expect(replierText).not.toContain('Warning: this message may be a scam');
    expect(replierText).not.toContain(SCAM_WARNINGS.money);
    expect(replierText).not.toContain('Report as scam');

    // The mail about a new message never quotes it.
    await t.mailer.settled();
    for (const mail of mailsTo(t.outboxDir, poster.email)) {
      expect(mail.raw).not.toContain('cashapp');
      expect(mail.raw).not.toContain('kik');
    }
  });

  test('contact details too, on either side, only once the other side wrote back', async () => {
    const { poster, replier, conversationId: id } = await conversationOnNewAd(t);
    expect((await t.replyIn(poster, id, 'Text me on 555-123-4567')).status).toBe(400);
    expect((await t.replyIn(poster, id, 'Hi! Nice to hear from you.')).status).toBe(303);
    expect((await t.replyIn(replier, id, 'Text me on 555-987-6543')).status).toBe(303);
    expect((await t.replyIn(poster, id, 'Text me on 555-123-4567')).status).toBe(303);
  });
});

describe('Report as scam', () => {
  /** A conversation on a new ad in which the replier asks for money once the poster answered. */
  async function moneyAskedFor(opening: string, answer: string) {
    const { poster, replier, id } = await threadOpenedWith(opening);
    await t.replyIn(poster, id, answer);
    await t.replyIn(replier, id, MONEY);
    const html = await (await t.getPage(conversationPath(id), poster.session)).text();
    return { poster, replier, id, html };
  }

  test('one plain form post from the warning reports the conversation as "Scam or spam"', async () => {
    const { poster, replier, id, html } = await moneyAskedFor(
      'Hi, how was your weekend?',
      'Lovely, thanks! Yours?',
    );
    const fields = reportAsScamFields(html);
    expect(fields).toMatchObject({ conversation: String(id), reason: 'spam' });

    const reported = await t.submit(reportsApiPath(), fields, poster.session);
    expect(reported.status).toBe(303);
    expect(reported.headers.get('location')).toBe('/report?sent=1');
    const rows = await storedRows<{ reason: string; reported_account_id: number; thread: string }>(
      t,
      'SELECT reason, reported_account_id, thread FROM reports WHERE conversation_id = ?',
      id,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reason: 'spam', reported_account_id: replier.accountId });
    expect(rows[0]!.thread).toContain('cashapp');
  });

  test('"or add a note first": the report form with "Scam or spam" chosen', async () => {
    const { poster, id, html } = await moneyAskedFor('Hi, lovely ad!', 'Thank you!');
    const link = `/report?conversation=${id}&amp;reason=spam`;
    expect(html).toContain(`href="${link}"`);
    const form = await (await t.getPage(link.replace('&amp;', '&'), poster.session)).text();
    const radios = [...form.matchAll(/<input type="radio"[^>]*>/g)].map((match) => match[0]);
    expect(radios.filter((radio) => radio.includes('checked'))).toEqual([
      expect.stringContaining('value="spam"'),
    ]);
    // A reason the form does not offer chooses nothing.
    const other = await (
      await t.getPage(`/report?conversation=${id}&reason=wrong-place`, poster.session)
    ).text();
    expect(other).not.toMatch(/<input type="radio"[^>]*checked/);
  });
});

describe('the same first message to many members', () => {
  test(`to more than ${REPEAT_RECIPIENTS} different members in a day: the next is refused`, async () => {
    const sender = await t.makeMember();
    const ads: number[] = [];
    for (let n = 0; n < REPEAT_RECIPIENTS + 2; n += 1)
      ads.push(await t.insertLiveAd({ accountId: await t.insertAccount() }, `Ad ${n}`));
    const text = 'Hello there! I really liked your ad, tell me more about yourself.';
    for (const adId of ads.slice(0, REPEAT_RECIPIENTS))
      expect((await t.startConversation(sender, adId, text)).status).toBe(303);
    const before = (await t.storedMessages()).length;
    const refused = await t.startConversation(sender, ads[REPEAT_RECIPIENTS]!, text.toUpperCase());
    expect(refused.status).toBe(400);
    expect(textOf(await refused.text())).toContain(REPEATED_MESSAGE);
    expect(await t.storedMessages()).toHaveLength(before);
    expect((await outcomesOf(sender.accountId)).at(-1)).toEqual({
      family: 'repeated',
      outcome: 'refused',
    });
    // A message written for that ad goes.
    const own = await t.startConversation(sender, ads[REPEAT_RECIPIENTS]!, greeting(1));
    expect(own.status).toBe(303);
    // Writing it again to one of the three is not a new member.
    const first = (await t.storedConversations()).find(
      (row) => row.replier_id === sender.accountId && row.ad_id === ads[0],
    )!;
    expect((await t.replyIn(sender, first.id, text)).status).toBe(303);
  });
});

describe('a poster answering every reply alike', () => {
  test('is not refused for it: the same-message rule is for members replying to ads', async () => {
    const poster = await t.makeMember();
    const adId = await t.insertLiveAd(poster, 'Hikes on Sunday mornings');
    const answer = 'Thanks for writing! Tell me a bit about yourself and your favourite trail.';
    for (let n = 0; n < REPEAT_RECIPIENTS + 2; n += 1) {
      const replier = await t.makeMember();
      expect((await t.startConversation(replier, adId, greeting(n))).status).toBe(303);
      const conversation = (await t.storedConversations()).find(
        (row) => row.replier_id === replier.accountId && row.ad_id === adId,
      )!;
      expect((await t.replyIn(poster, conversation.id, answer)).status).toBe(303);
    }
    expect(await outcomesOf(poster.accountId)).toEqual([]);
  });
});

/** `count` new accounts, each with a session, each sending `text` to an ad of its own. */
async function newAccountsSending(count: number, text: string): Promise<TestMember[]> {
  const senders: TestMember[] = [];
  for (let n = 0; n < count; n += 1) {
    const sender = await t.makeMember();
    const adId = await t.insertLiveAd({ accountId: await t.insertAccount() }, `Ad of ${n}`);
    expect((await t.startConversation(sender, adId, text)).status).toBe(303);
    senders.push(sender);
  }
  return senders;
}

describe('the same first message from new accounts', () => {
  test('3 of them in a day: /moderate announces them, with their records and the ban, until dismissed', async () => {
    const text = 'Hi sweetie, I saw your profile and I think we could be great together';
    // An account older than a week does not count: made 8 days before it sends.
    const clock = clockFrom();
    const old = await t.makeMember();
    clock.at(8 * DAY);
    const moderator = await signUpModerator(t.app, t.store);
    const oldAd = await t.insertLiveAd({ accountId: await t.insertAccount() }, 'Ad of the old');
    expect((await t.startConversation(old, oldAd, text)).status).toBe(303);
    const senders = await newAccountsSending(2, text);
    let queue = textOf(await (await t.getPage(moderatePath(), moderator.session)).text());
    expect(queue).not.toContain('sent the same first message');

    senders.push(...(await newAccountsSending(1, text)));
    // One of them was refused once: its record says so.
    expect(
      (
        await t.startConversation(
          senders[0]!,
          await t.insertLiveAd({ accountId: await t.insertAccount() }),
          OFF_SITE,
        )
      ).status,
    ).toBe(400);
    const html = await (await t.getPage(moderatePath(), moderator.session)).text();
    queue = textOf(html);
    expect(queue).toContain(`3 new accounts sent the same first message: “${text}”`);
    for (const sender of senders) {
      expect(queue).toContain(sender.email);
      expect(html).toContain(`href="/moderate?ban=${sender.accountId}#ban"`);
    }
    expect(queue).not.toContain(old.email);
    expect(queue).toContain('Scam signals: 1 message refused (off-site contact 1)');

    // Dismissed (a plain form post): no longer announced.
    const flagId = /action="\/api\/moderate\/repeated-messages\/(\d+)\/dismiss"/.exec(html)![1]!;
    const dismissed = await postModerationForm(
      t.app,
      dismissRepeatedMessageApiPath(Number(flagId)),
      {},
      moderator.session,
    );
    expect(dismissed.status).toBe(303);
    expect(dismissed.headers.get('location')).toBe('/moderate?done=repeated-dismissed');
    queue = textOf(
      await (await t.getPage('/moderate?done=repeated-dismissed', moderator.session)).text(),
    );
    expect(queue).toContain('Announcement dismissed.');
    expect(queue).not.toContain('sent the same first message');
    // Twice: nothing left to dismiss.
    const again = await postModerationForm(
      t.app,
      dismissRepeatedMessageApiPath(Number(flagId)),
      {},
      moderator.session,
    );
    expect(again.status).toBe(404);
    // A member cannot dismiss one: an unknown API path to them.
    const member = await t.makeMember();
    expect(
      (
        await postModerationForm(
          t.app,
          dismissRepeatedMessageApiPath(Number(flagId)),
          {},
          member.session,
        )
      ).status,
    ).toBe(404);
  });
});

describe('the same first message from new accounts, at once', () => {
  test('3 sending together (on any number of instances): announced all the same', async () => {
    const moderator = await signUpModerator(t.app, t.store);
    const text = 'Good evening handsome, I am new in town and looking for a kind man';
    const senders: TestMember[] = [];
    const ads: number[] = [];
    for (let n = 0; n < 3; n += 1) {
      senders.push(await t.makeMember());
      ads.push(await t.insertLiveAd({ accountId: await t.insertAccount() }));
    }
    const sent = await Promise.all(
      senders.map((sender, n) => t.startConversation(sender, ads[n]!, text)),
    );
    expect(sent.map((response) => response.status)).toEqual([303, 303, 303]);
    const queue = textOf(await (await t.getPage(moderatePath(), moderator.session)).text());
    expect(queue).toContain(`3 new accounts sent the same first message: “${text}”`);
  });
});

describe("the sender's record, for the moderators", () => {
  test('beside the poster in the queue: messages refused and warned, by family', async () => {
    const moderator = await signUpModerator(t.app, t.store);
    const { poster, replier, id } = await threadOpenedWith('Hi! Are you still looking?');
    const otherAd = await t.insertLiveAd({ accountId: await t.insertAccount() });
    expect((await t.startConversation(replier, otherAd, OFF_SITE)).status).toBe(400);
    expect((await t.replyIn(replier, id, 'add me on telegram, same name')).status).toBe(400);
    expect((await t.replyIn(replier, id, MONEY)).status).toBe(400);
    await t.replyIn(poster, id, 'Yes I am!');
    expect((await t.replyIn(replier, id, MONEY)).status).toBe(303);
    // The replier's own ad waits in the queue.
    await insertAdInReview(t, { accountId: replier.accountId, title: 'Looking for friends' });
    const queue = textOf(await (await t.getPage(moderatePath(), moderator.session)).text());
    expect(queue).toContain(
      'Scam signals: 3 messages refused (off-site contact 2, money request 1), 1 warned (money request 1)',
    );
  });

  test('beside the member reported in a conversation report', async () => {
    const moderator = await signUpModerator(t.app, t.store);
    const { poster, replier, id } = await threadOpenedWith('Hello from across town');
    expect((await t.replyIn(replier, id, OFF_SITE)).status).toBe(400);
    const reported = await t.submit(
      reportsApiPath(),
      { conversation: String(id), reason: 'spam' },
      poster.session,
    );
    expect(reported.status).toBe(303);
    const reports = textOf(
      await (await t.getPage(moderateReportsPath(), moderator.session)).text(),
    );
    expect(reports).toContain('Scam signals: 1 message refused (off-site contact 1)');
    // The reporter is never named.
    expect(reports).not.toContain(poster.email);
  });
});
