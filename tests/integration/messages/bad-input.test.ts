// The bad-input and abuse table of issue 11 for messages: each a clear answer (the form page again
// with the message and what was typed, or `{ error }` for JSON), never a 500, and nothing stored
// that should not be. Someone else's conversation and an unknown one answer alike (404).
import { beforeAll, describe, expect, test } from 'vitest';
import { conversationPath, replyApiPath } from '../../../core/paths.ts';
import { messagesWorld } from '../../helpers/messages-world.ts';
import { conversationOnNewAd } from '../../helpers/conversation-on-new-ad.ts';
import { bannerOf } from '../../helpers/pages.ts';
import { textOf } from '../../helpers/messages.ts';
import { insertAdInReview } from '../../helpers/moderation.ts';
import { dayFromToday, type TestMember } from '../../helpers/posting.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const t = messagesWorld();

let poster: TestMember;
let stranger: TestMember;
let adId: number;
let conversationId: number;

beforeAll(async () => {
  ({ poster, adId, conversationId } = await conversationOnNewAd(t, {
    title: 'Board games on Sundays',
  }));
  stranger = await t.makeMember();
});

const rows = async () => ({
  messages: (await t.storedMessages()).length,
  conversations: (await t.storedConversations()).length,
});

/** Posts, expects the status and the banner, and that nothing was stored. */
async function refused(
  post: () => Promise<Response>,
  status: number,
  message: string | RegExp,
  typed?: string,
) {
  const before = await rows();
  const response = await post();
  expect(response.status).toBe(status);
  const html = await response.text();
  expect(textOf(html)).toMatch(message);
  expect(html).toMatch(/role="(alert|status)"/);
  if (typed !== undefined) expect(html).toContain(`>${typed}</textarea>`);
  expect(await rows()).toEqual(before);
  return html;
}

describe('refused messages, as plain form posts', () => {
  test('empty, or only spaces and line breaks', async () => {
    await refused(
      () => t.startConversation(stranger, adId, ''),
      400,
      'Write a message before sending it.',
    );
    await refused(
      () => t.replyIn(poster, conversationId, ' \r\n\t '),
      400,
      'Write a message before sending it.',
    );
  });

  test('over 2,000 characters (counted as characters, as the database does), what was typed kept', async () => {
    const long = 'é'.repeat(2001);
    await refused(
      () => t.replyIn(poster, conversationId, long),
      400,
      'A message can be 2,000 characters at most; yours has 2,001. Shorten it, or send it in two messages.',
      long,
    );
    // 2,000 characters of four-byte UTF-8 fit, and are stored whole.
    const emoji = '🙂'.repeat(2000);
    expect((await t.replyIn(poster, conversationId, emoji)).status).toBe(303);
    expect((await t.storedMessages(conversationId)).at(-1)!.body).toBe(emoji);
  });

  test('to one’s own ad', async () => {
    await refused(() => t.startConversation(poster, adId, 'Me again'), 403, /This is your own ad/);
    const page = textOf(await (await t.getPage(`/messages/new?ad=${adId}`, poster.session)).text());
    expect(page).toContain('This is your own ad');
    expect(page).not.toContain('Send message');
  });

  test('to a removed, deleted, expired, rejected or unknown ad', async () => {
    const live = (title: string, expiresOn?: string) =>
      t.insertLiveAd(poster, `An ad that is ${title}`, expiresOn ? { expiresOn } : {});
    const inReview = (title: string) =>
      insertAdInReview(t, { accountId: poster.accountId, title: `An ad that is ${title}` });
    const takenDown = async (made: Promise<number>, by: 'poster' | 'moderator') => {
      const id = await made;
      await t.takeAdDown(id, by);
      return id;
    };
    const cases: Array<[string, () => Promise<number>, number, RegExp]> = [
      [
        'removed',
        () => takenDown(live('removed'), 'moderator'),
        410,
        /A moderator removed this ad/,
      ],
      ['deleted', () => takenDown(live('deleted'), 'poster'), 410, /The poster deleted this ad/],
      ['expired', () => live('expired', dayFromToday(0)), 410, /This ad expired on/],
      [
        'rejected',
        () => takenDown(inReview('rejected'), 'moderator'),
        404,
        /couldn't find (that|the) ad/,
      ],
      ['in review', () => inReview('in review'), 404, /couldn't find (that|the) ad/],
    ];
    for (const [, made, status, message] of cases) {
      const id = await made();
      await refused(() => t.startConversation(stranger, id, 'Hello'), status, message);
      const page = await t.getPage(`/messages/new?ad=${id}`, stranger.session);
      expect(page.status).toBe(status === 404 ? 404 : 200);
      expect(textOf(await page.text())).toMatch(message);
    }
    await refused(
      () => t.startConversation(stranger, 999_999_999, 'Hello'),
      404,
      /couldn't find (that|the) ad/,
    );
    await refused(
      () => t.startConversation(stranger, 'abc', 'Hello'),
      404,
      /couldn't find (that|the) ad/,
    );
    expect((await t.getPage('/messages/new?ad=999999999', stranger.session)).status).toBe(404);
  });

  test('someone else’s conversation, and an unknown one: the same 404, nothing confirmed', async () => {
    const theirs = await t.replyIn(stranger, conversationId, 'Let me in');
    const unknown = await t.replyIn(stranger, 987_654, 'Let me in');
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(textOf(await theirs.text())).toBe(textOf(await unknown.text()));
    const pageTheirs = await t.getPage(conversationPath(conversationId), stranger.session);
    const pageUnknown = await t.getPage(conversationPath(987_654), stranger.session);
    expect(pageTheirs.status).toBe(404);
    expect(pageUnknown.status).toBe(404);
    const text = textOf(await pageTheirs.text());
    expect(text).toBe(textOf(await pageUnknown.text()));
    expect(text).toContain('Conversation not found');
    expect(text).not.toContain('Hello');
    for (const action of ['block', 'unblock']) {
      const response = await t.submit(
        `/api/messages/${conversationId}/${action}`,
        {},
        stranger.session,
      );
      expect(response.status).toBe(404);
    }
    expect(await storedRows(t, 'SELECT * FROM blocks')).toEqual([]);
    // Reading someone else's thread marks nothing read.
    expect((await t.storedMessages(conversationId))[0]!.read_at).toBeNull();
  });

  test('as JSON: { error } with the status, for each', async () => {
    const cases: Array<[() => Promise<Response>, number, string]> = [
      [
        () => t.replyIn(poster, conversationId, '', 'json'),
        400,
        'Write a message before sending it.',
      ],
      [
        () => t.replyIn(stranger, conversationId, 'x', 'json'),
        404,
        "We couldn't find that conversation.",
      ],
      [
        () => t.startConversation(poster, adId, 'x', 'json'),
        403,
        'This is your own ad: members reply to it, and their messages appear in your Messages.',
      ],
    ];
    for (const [post, status, error] of cases) {
      const response = await post();
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ error });
    }
  });

  test('a body over the size limit, a GET on a post endpoint, a post from another site', async () => {
    const huge = await t.submit(
      replyApiPath(conversationId),
      { body: 'x'.repeat(40_000) },
      poster.session,
    );
    expect(huge.status).toBe(413);
    expect(bannerOf(await huge.text())).toMatch(/too large/);
    const get = await t.app.request(`http://localhost${replyApiPath(conversationId)}`);
    expect(get.status).toBe(405);
    const crossSite = await t.submit(
      replyApiPath(conversationId),
      { body: 'hi' },
      poster.session,
      'form',
      { origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    expect(bannerOf(await crossSite.text())).toBe(
      'This request came from another site and was refused.',
    );
  });

  test('control characters are left out; a NUL alone is an empty message, not a 500', async () => {
    await refused(
      () => t.replyIn(poster, conversationId, '\u0000'),
      400,
      'Write a message before sending it.',
    );
    expect((await t.replyIn(poster, conversationId, 'a\u0000b\u0007c')).status).toBe(303);
    expect((await t.storedMessages(conversationId)).at(-1)!.body).toBe('abc');
  });
});
