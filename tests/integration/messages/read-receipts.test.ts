// Read receipts (docs/product.md section 7), in-process on either engine: off by default, turned
// on from the account page's "Messages" form, and "Read" shown under a member's last message only
// when both members turned them on, the other side has opened it, and the conversation is a chat
// (a request never tells its sender it was read).
import { describe, expect, test } from 'vitest';
import { conversationPath, messageSettingsApiPath } from '../../../core/paths.ts';
import { conversationOnNewAd } from '../../helpers/conversation-on-new-ad.ts';
import { textOf } from '../../helpers/messages.ts';
import { messagesWorld } from '../../helpers/messages-world.ts';
import type { TestMember } from '../../helpers/posting.ts';

const t = messagesWorld();

const turnOn = async (member: TestMember) => {
  const saved = await t.submit(
    messageSettingsApiPath(),
    { messagesForm: '1', requestMails: 'daily', readReceipts: 'on' },
    member.session,
  );
  expect(saved.status).toBe(303);
};

/** What the member reads under their messages: "Read" or not, for each, oldest first. */
async function readMarks(member: TestMember, id: number) {
  const html = await (await t.getPage(conversationPath(id), member.session)).text();
  return [...html.matchAll(/<li class="message[^"]*"[\s\S]*?<\/li>/g)].map((match) =>
    textOf(match[0]).endsWith('Read') ? 'Read' : '',
  );
}

describe('read receipts', () => {
  test('shown under the last message once read, only when both turned them on', async () => {
    const {
      poster,
      replier,
      conversationId: id,
    } = await conversationOnNewAd(t, {
      opening: 'Hello!',
    });
    // A chat: the poster answered.
    await t.getPage(conversationPath(id), poster.session);
    expect((await t.replyIn(poster, id, 'Hi! How are you?')).status).toBe(303);
    expect((await t.replyIn(replier, id, 'Great, and you?')).status).toBe(303);
    await t.getPage(conversationPath(id), poster.session);
    // Off by default: nothing, though the poster read it.
    expect(await readMarks(replier, id)).toEqual(['', '', '']);
    // One side alone: still nothing, for either.
    await turnOn(replier);
    expect(await readMarks(replier, id)).toEqual(['', '', '']);
    expect(await readMarks(poster, id)).toEqual(['', '', '']);
    // Both: under the replier's last message, which the poster read.
    await turnOn(poster);
    expect(await readMarks(replier, id)).toEqual(['', '', 'Read']);
    // The poster's own last one was read when the replier opened the thread just now.
    expect(await readMarks(poster, id)).toEqual(['', 'Read', '']);
    // A new message not yet opened: no "Read" under it, nor under the older one.
    expect((await t.replyIn(replier, id, 'Coffee on Sunday?')).status).toBe(303);
    const html = await (await t.getPage(conversationPath(id), replier.session)).text();
    expect(textOf(html)).toContain('Coffee on Sunday?');
    expect(await readMarks(replier, id)).toEqual(['', '', '', '']);
  });

  test('never in a request: its sender is not told it was read', async () => {
    const {
      poster,
      replier,
      conversationId: id,
    } = await conversationOnNewAd(t, {
      opening: 'Hi there',
    });
    await turnOn(poster);
    await turnOn(replier);
    await t.getPage(conversationPath(id), poster.session);
    expect(await readMarks(replier, id)).toEqual(['']);
    expect(textOf(await (await t.getPage(conversationPath(id), poster.session)).text())).toContain(
      'they are not told whether you read it',
    );
  });
});
