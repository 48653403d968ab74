// Long conversations (docs/product.md section 7), in-process on either engine: 50 messages a
// page, the newest page first, links to older and newer pages that are plain links (no
// JavaScript) and stay right while new messages arrive (`?before={message id}`); the reply form
// and #latest on the newest page, which alone marks messages read; a `before` that names no page
// is a 400 or 404 page, never an error.
import { beforeAll, describe, expect, test } from 'vitest';
import { conversationPath, replyApiPath } from '../../../core/paths.ts';
import { messagesWorld } from '../../helpers/messages-world.ts';
import { textOf } from '../../helpers/messages.ts';
import { linkByText } from '../../helpers/pages.ts';
import { type TestMember } from '../../helpers/posting.ts';

const t = messagesWorld();

let poster: TestMember;
let replier: TestMember;
let id: number;
/** Message ids in the order sent: ids[0] is message 001. */
const ids: number[] = [];

const label = (n: number) => `Message ${String(n).padStart(3, '0')}.`;

beforeAll(async () => {
  poster = await t.makeMember();
  replier = await t.makeMember();
  const adId = await t.insertLiveAd(poster, 'A long talk about hiking');
  id = await t.insertConversation({
    adId,
    adTitle: 'A long talk about hiking',
    posterId: poster.accountId,
    replierId: replier.accountId,
  });
  // 120 messages, the replier and the poster in turn, a minute apart, none read yet.
  for (let n = 1; n <= 120; n += 1)
    ids.push(
      await t.insertMessage(
        id,
        n % 2 === 1 ? replier.accountId : poster.accountId,
        label(n),
        200 - n,
      ),
    );
});

/** The messages a page shows (their numbers, in order), its links and its text. */
async function open(path: string, member = poster) {
  const response = await t.getPage(path, member.session);
  const html = await response.text();
  const text = textOf(html);
  const shown = [...text.matchAll(/Message (\d{3})\./g)].map((match) => Number(match[1]));
  const link = (name: string) => linkByText(html, name);
  return {
    status: response.status,
    html,
    text,
    shown,
    older: link('← Older messages'),
    newer: link('Newer messages →'),
  };
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, index) => from + index);

const unreadFor = async (member: TestMember) =>
  (await t.storedMessages(id)).filter((row) => row.sender_id !== member.accountId && !row.read_at)
    .length;

describe('a conversation of 120 messages', () => {
  test('an older page does not mark anything read; the newest page does', async () => {
    expect(await unreadFor(poster)).toBe(60);
    const older = await open(`${conversationPath(id)}?before=${ids[70]}`);
    expect(older.status).toBe(200);
    expect(await unreadFor(poster)).toBe(60);
  });

  test('the first page is the newest 50, with #latest, the reply form and a link to older ones', async () => {
    const page = await open(conversationPath(id));
    expect(page.status).toBe(200);
    expect(page.shown).toEqual(range(71, 120));
    expect(page.text).toContain('Messages 71–120 of 120');
    // The page opens at the newest message: its item carries the anchor #latest.
    expect(page.html).toMatch(
      /<li class="message[^"]*" id="latest">(?:(?!<\/li>).)*Message 120\./s,
    );
    expect(page.html).toContain(`action="${replyApiPath(id)}"`);
    expect(page.older).toBe(`${conversationPath(id)}?before=${ids[70]}`);
    expect(page.newer).toBeUndefined();
    // Opening the newest page read the other side's messages, as a one-page conversation does.
    expect(await unreadFor(poster)).toBe(0);
  });

  test('older, then older again, then back to newer: each page is whole and in order', async () => {
    const second = await open(`${conversationPath(id)}?before=${ids[70]}`);
    expect(second.shown).toEqual(range(21, 70));
    expect(second.text).toContain('Messages 21–70 of 120');
    expect(second.html).not.toContain('id="latest"');
    expect(second.html).not.toContain(`action="${replyApiPath(id)}"`);
    expect(second.text).toContain('These are older messages. Go to the newest messages to reply');
    expect(second.html).toContain(`href="${conversationPath(id)}#latest"`);
    // The page after it is the newest one, whose address has no `before`.
    expect(second.newer).toBe(conversationPath(id));
    expect(second.older).toBe(`${conversationPath(id)}?before=${ids[20]}`);

    const third = await open(second.older!);
    expect(third.shown).toEqual(range(1, 20));
    expect(third.text).toContain('Messages 1–20 of 120');
    expect(third.older).toBeUndefined();
    expect(third.newer).toBe(`${conversationPath(id)}?before=${ids[70]}`);

    const back = await open(third.newer!);
    expect(back.shown).toEqual(range(21, 70));
    expect((await open(back.newer!)).shown).toEqual(range(71, 120));
  });

  test('new messages do not move an older page: the same link shows the same messages', async () => {
    const path = `${conversationPath(id)}?before=${ids[70]}`;
    const before = await open(path, replier);
    for (let n = 0; n < 5; n += 1)
      expect((await t.replyIn(replier, id, `A newer word ${n}`)).status).toBe(303);
    const after = await open(path, replier);
    expect(after.shown).toEqual(before.shown);
    expect(after.text).toContain('Messages 21–70 of 125');
    // Its newer page is now 50 messages on, not the newest page.
    const newer = await open(after.newer!, replier);
    expect(newer.shown).toEqual(range(71, 120));
    expect(newer.text).toContain('Messages 71–120 of 125');
    expect(newer.newer).toBe(conversationPath(id));
    const newest = await open(conversationPath(id), replier);
    expect(newest.shown).toEqual(range(76, 120));
    expect(newest.text).toContain('A newer word 4');
    expect(newest.text).toContain('Messages 76–125 of 125');
  });

  test('a reply from the newest page lands on #latest; a refused one comes back on the newest page', async () => {
    const sent = await t.replyIn(poster, id, 'The newest word');
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')).toBe(`${conversationPath(id)}#latest`);
    const page = await open(conversationPath(id));
    expect(page.html).toMatch(/id="latest">(?:(?!<\/li>).)*The newest word/s);

    const refused = await t.replyIn(poster, id, '   ');
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain(`action="${replyApiPath(id)}"`);
    expect(textOf(html)).toContain('The newest word');
  });

  test('a `before` that names no page: 404 past the beginning, 400 when malformed; never 500', async () => {
    for (const before of [String(ids[0]), '1']) {
      const page = await open(`${conversationPath(id)}?before=${before}`);
      expect(page.status).toBe(404);
      expect(page.text).toContain('No such page of this conversation');
      expect(page.text).toContain('There are no messages before that one');
      expect(page.html).toContain(`href="${conversationPath(id)}"`);
    }
    for (const before of ['abc', '0', '-5', '1.5', '', '1234567890123456789', '%00']) {
      const page = await open(`${conversationPath(id)}?before=${before}`);
      expect(page.status, before).toBe(400);
      expect(page.text).toContain('The link to this page of the conversation is not right');
    }
    // Far past the newest message: the newest page.
    const past = await open(`${conversationPath(id)}?before=999999999999`);
    expect(past.status).toBe(200);
    expect(past.newer).toBeUndefined();
  });

  test('someone else asking for a page gets the same 404 as for any conversation not theirs', async () => {
    const stranger = await t.makeMember();
    const page = await open(`${conversationPath(id)}?before=${ids[70]}`, stranger);
    expect(page.status).toBe(404);
    expect(page.text).toContain('Conversation not found');
    expect(page.text).not.toContain('Message 0');
  });
});
