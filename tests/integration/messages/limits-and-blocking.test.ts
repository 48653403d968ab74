// Limits, the policy scan of first messages, blocking and closed conversations (docs/product.md
// section 7), in-process on either engine.
import { describe, expect, test } from 'vitest';
import { blockApiPath, conversationPath } from '../../../core/paths.ts';
import { MESSAGE_WINDOW_MINUTES, MESSAGES_PER_WINDOW } from '../../../core/schemas/message.ts';
import { messagesWorld } from '../../helpers/messages-world.ts';
import { conversationOnNewAd } from '../../helpers/conversation-on-new-ad.ts';
import { conversationIdOf, greeting, textOf } from '../../helpers/messages.ts';
import { type TestMember } from '../../helpers/posting.ts';
import { clockFrom, DAY, HOUR } from '../../helpers/clock.ts';
import { myDataFile } from '../../helpers/my-data.ts';

const t = messagesWorld();

/**
 * `count` live ads, each of a poster of its own (accounts made through the store: quicker than 30
 * sign-ups).
 */
async function adsOfOthers(count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 0; n < count; n += 1)
    ids.push(await t.insertLiveAd({ accountId: await t.insertAccount() }, `Ad ${n}`));
  return ids;
}

/** The member's conversations, as their data file lists them. */
const conversationsOf = async (member: TestMember) => (await myDataFile(t, member)).conversations;

const startedBy = async (member: TestMember) =>
  (await conversationsOf(member)).filter((each) => each.you === 'replied to the ad').length;

/** How many messages the member's conversations hold, theirs and the other side's. */
const messagesOf = async (member: TestMember) =>
  (await conversationsOf(member)).reduce((sum, each) => sum + each.messages.length, 0);

describe('how many messages a member may send', () => {
  test(`${MESSAGES_PER_WINDOW} in ${MESSAGE_WINDOW_MINUTES} minutes, then the form again with a 429 saying when; nothing stored`, async () => {
    const poster = await t.makeMember();
    const replier = await t.makeMember();
    const id = conversationIdOf(
      await t.startConversation(replier, await t.insertLiveAd(poster), 'Hello there'),
    );
    for (let n = 1; n < MESSAGES_PER_WINDOW; n += 1)
      expect((await t.replyIn(replier, id, `Line ${n}`)).status).toBe(303);
    const refused = await t.replyIn(replier, id, 'One too many');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const text = textOf(await refused.text());
    expect(text).toContain(
      `You have sent ${MESSAGES_PER_WINDOW} messages in the last ${MESSAGE_WINDOW_MINUTES} minutes, the most anyone can.`,
    );
    expect(text).toContain('One too many');
    expect(await messagesOf(replier)).toBe(MESSAGES_PER_WINDOW);
    // The other side is not held back by it.
    expect((await t.replyIn(poster, id, 'Slow down, please.')).status).toBe(303);
  });
});

describe('how many conversations a member may start', () => {
  test('an account younger than 24 hours: 5 in 24 hours, then a clear 429 saying when', async () => {
    const clock = clockFrom();
    const member = await t.makeMember();
    const ads = await adsOfOthers(6);
    clock.at(20 * HOUR);
    for (const [n, id] of ads.slice(0, 5).entries())
      expect((await t.startConversation(member, id, greeting(n))).status).toBe(303);
    const refused = await t.startConversation(member, ads[5]!, 'Hello there');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const text = textOf(await refused.text());
    expect(text).toMatch(
      /New accounts can start 5 conversations a day, and you have started 5 in the last 24 hours\. You can start another from \d{4}-\d\d-\d\d \d\d:\d\d UTC\./,
    );
    expect(text).toContain('Hello there');
    expect(await startedBy(member)).toBe(5);
    // Writing in the conversations already started is not limited.
    const [first] = await conversationsOf(member);
    expect((await t.replyIn(member, first!.id, 'And another thing')).status).toBe(303);
    // Once the account is a day old, the limit is 30 (the five started 5 hours ago still count).
    clock.at(25 * HOUR);
    expect((await t.startConversation(member, ads[5]!, greeting(5))).status).toBe(303);
  });

  test('anyone: 30 in 24 hours; older conversations do not count', async () => {
    const clock = clockFrom();
    const member = await t.makeMember();
    const ads = await adsOfOthers(32);
    // Two days on, the account is no longer new; the first conversation an hour before the rest.
    clock.at(2 * DAY);
    for (const [n, id] of ads.slice(0, 30).entries()) {
      expect((await t.startConversation(member, id, greeting(n))).status).toBe(303);
      if (n === 0) clock.at(2 * DAY + HOUR);
    }
    const refused = await t.startConversation(member, ads[30]!, 'Hi', 'json');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^You have started 30 conversations in the last 24 hours, the most anyone can\./,
    );
    expect(await startedBy(member)).toBe(30);
    // A conversation started more than 24 hours ago leaves the count: the first, not the others.
    clock.at(3 * DAY + 30 * 60_000);
    expect((await t.startConversation(member, ads[30]!, 'Hi')).status).toBe(303);
    expect((await t.startConversation(member, ads[31]!, 'Hi')).status).toBe(429);
  });
});

describe('the policy scanner on the first message', () => {
  test('a refused term and contact details refuse it, naming what; nothing stored; text kept', async () => {
    const poster = await t.makeMember();
    const member = await t.makeMember();
    const adId = await t.insertLiveAd(poster);
    const cases: Array<[string, RegExp]> = [
      ['Are you an escort?', /The word “escort” can't be used in a message/],
      ['Text me on 555-123-4567', /Contact details \(phone numbers, email addresses, links\)/],
      ['Write to me at someone@example.org', /Contact details/],
      ['See www.example.com', /Contact details/],
    ];
    for (const [body, message] of cases) {
      const response = await t.startConversation(member, adId, body);
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(textOf(html)).toMatch(message);
      expect(html).toContain(`>${body}</textarea>`);
    }
    expect(await startedBy(member)).toBe(0);
    // Ambiguous words pass: there is no queue for messages, and they are innocent here.
    const ok = await t.startConversation(member, adId, 'I teach high school and have two teens.');
    expect(ok.status).toBe(303);
    // Contact details refuse every first message, the poster's first reply too, until the other
    // side has written back; then the two swap numbers when they are ready.
    const id = conversationIdOf(ok);
    expect((await t.replyIn(poster, id, 'Call me: 555-123-4567')).status).toBe(400);
    expect((await t.replyIn(poster, id, 'Hi! Glad you wrote.')).status).toBe(303);
    expect((await t.replyIn(member, id, 'Hi again!')).status).toBe(303);
    expect((await t.replyIn(poster, id, 'Call me: 555-123-4567')).status).toBe(303);
  });
});

describe('blocking', () => {
  test('from a conversation: nothing either way, no reply to the blocker’s other ads; unblock undoes it', async () => {
    const poster = await t.makeMember();
    const replier = await t.makeMember();
    const adId = await t.insertLiveAd(poster, 'First ad');
    const otherAd = await t.insertLiveAd(poster, 'Second ad', { city: 'San Diego' });
    const id = conversationIdOf(await t.startConversation(replier, adId, 'Hello'));

    const page = textOf(await (await t.getPage(conversationPath(id), poster.session)).text());
    expect(page).toContain('Block this member');
    expect(page).toContain('Blocking stops all messages between you');

    const blocked = await t.submit(blockApiPath(id, true), {}, poster.session);
    expect(blocked.status).toBe(303);
    expect(blocked.headers.get('location')).toBe(`${conversationPath(id)}?done=blocked`);
    const after = textOf(
      await (await t.getPage(`${conversationPath(id)}?done=blocked`, poster.session)).text(),
    );
    expect(after).toContain('You blocked this member.');
    expect(after).toContain('Unblock this member');
    expect(after).not.toContain('Reply to the member');

    const before = await messagesOf(replier);
    const fromBlocked = await t.replyIn(replier, id, 'Why?');
    expect(fromBlocked.status).toBe(403);
    expect(textOf(await fromBlocked.text())).toContain(
      'This member has blocked you: you can no longer write to them or reply to their ads.',
    );
    const fromBlocker = await t.replyIn(poster, id, 'Bye');
    expect(fromBlocker.status).toBe(403);
    expect(textOf(await fromBlocker.text())).toContain('You blocked this member');
    const newConversation = await t.startConversation(replier, otherAd, 'Hello again');
    expect(newConversation.status).toBe(403);
    expect(textOf(await newConversation.text())).toContain('has blocked you');
    expect(
      textOf(await (await t.getPage(`/messages/new?ad=${otherAd}`, replier.session)).text()),
    ).toContain('The poster of this ad has blocked you');
    expect(await messagesOf(replier)).toBe(before);
    expect((await conversationsOf(replier)).filter((each) => each.ad.id === otherAd)).toEqual([]);

    // The blocker's Requests say so (they never answered it); the blocked member's thread is closed.
    expect(
      textOf(await (await t.getPage('/messages?folder=requests', poster.session)).text()),
    ).toContain('You blocked them');
    const blockedView = textOf(
      await (await t.getPage(conversationPath(id), replier.session)).text(),
    );
    expect(blockedView).toContain('This member has blocked you');
    expect(blockedView).not.toContain('Reply to the poster');

    // Only the blocker can unblock.
    await t.submit(blockApiPath(id, false), {}, replier.session);
    expect((await t.replyIn(replier, id, 'Still?')).status).toBe(403);
    const unblocked = await t.submit(blockApiPath(id, false), {}, poster.session);
    expect(unblocked.headers.get('location')).toBe(`${conversationPath(id)}?done=unblocked`);
    expect((await t.replyIn(replier, id, 'Thanks')).status).toBe(303);
    expect((await t.startConversation(replier, otherAd, 'Hello again')).status).toBe(303);
  });
});

describe('closed conversations', () => {
  test('after the ad expires or its poster deletes it, the two go on writing; the ad link goes', async () => {
    const thread = await conversationOnNewAd(t, { title: 'Expiring soon' });
    const { poster, replier, adId, conversationId: id } = thread;
    const live = await (await t.getPage(conversationPath(id), replier.session)).text();
    expect(live).toContain(`href="/city/California/Los%20Angeles/ad/${adId}"`);
    await t.takeAdDown(adId, 'poster');
    expect((await t.replyIn(replier, id, 'Still there?')).status).toBe(303);
    expect((await t.replyIn(poster, id, 'Yes')).status).toBe(303);
    const gone = await (await t.getPage(conversationPath(id), replier.session)).text();
    expect(gone).not.toContain(`/ad/${adId}"`);
    expect(textOf(gone)).toContain('the ad is no longer on the site');
  });

  test('a moderator removed the ad, or the other side was banned: closed, with why', async () => {
    const thread = await conversationOnNewAd(t, { title: 'Breaks the rules' });
    const { poster, replier, adId, conversationId: id } = thread;
    await t.takeAdDown(adId, 'moderator');
    const removed = await t.replyIn(replier, id, 'Hello?');
    expect(removed.status).toBe(409);
    expect(textOf(await removed.text())).toContain(
      'A moderator removed the ad this conversation is about, so the conversation is closed.',
    );

    const other = await t.insertLiveAd(poster, 'Another ad', { city: 'San Jose' });
    const second = conversationIdOf(await t.startConversation(replier, other, 'Hi'));
    expect(
      await t.store.moderation.ban(poster.accountId, poster.email, new Date().toISOString()),
    ).toBe(true);
    const banned = await t.replyIn(replier, second, 'Hello?');
    expect(banned.status).toBe(409);
    expect(textOf(await banned.text())).toContain(
      "The other member's account was closed by our moderators",
    );
    // The banned member is signed out: their post leads to sign in.
    const fromBanned = await t.replyIn(poster, second, 'Let me');
    expect(fromBanned.status).toBe(303);
    expect(fromBanned.headers.get('location')).toMatch(/^\/signin\?next=/);
  });

  test('the other member deleted their account: the thread stays, closed, "has left"', async () => {
    const thread = await conversationOnNewAd(t, { title: 'Still mine' });
    const { poster, replier, conversationId: id } = thread;
    await t.replyIn(poster, id, 'Hi there');
    await t.deleteAccountOf(replier.accountId);
    const page = textOf(await (await t.getPage(conversationPath(id), poster.session)).text());
    expect(page).toContain('with a member who has left');
    expect(page).toContain('This member has left');
    expect(page).toContain(
      'The other member deleted their account, so this conversation is closed.',
    );
    expect(page).toContain('Hi there');
    expect(page).not.toContain('Block this member');
    const reply = await t.replyIn(poster, id, 'Hello?');
    expect(reply.status).toBe(409);
  });
});
