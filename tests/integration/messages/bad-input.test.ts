// The bad-input and abuse table of issue 11 for messages: each a clear answer (the form page again
// with the message and what was typed, or `{ error }` for JSON), never a 500, and nothing stored
// that should not be. Someone else's conversation and an unknown one answer alike (404).
import { beforeAll, describe, expect, test } from 'vitest';
import { conversationPath, replyApiPath } from '../../../core/paths.ts';
import { conversationOnNewAd } from '../../helpers/conversation-on-new-ad.ts';
import { bannerOf } from '../../helpers/pages.ts';
import {
  insertLiveAd,
  messagesTestApp,
  textOf,
  replyIn,
  startConversation,
  storedConversations,
  storedMessages,
  takeAdDown,
} from '../../helpers/messages.ts';
import { insertAdInReview } from '../../helpers/moderation.ts';
import {
  dayFromToday,
  getPage,
  makeMember,
  submit,
  type TestMember,
} from '../../helpers/posting.ts';

const t = messagesTestApp();

let poster: TestMember;
let stranger: TestMember;
let adId: number;
let conversationId: number;

beforeAll(async () => {
  ({ poster, adId, conversationId } = await conversationOnNewAd(t, {
    title: 'Board games on Sundays',
  }));
  stranger = await makeMember(t);
});

const rows = async () => ({
  messages: (await storedMessages(t)).length,
  conversations: (await storedConversations(t)).length,
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
      () => startConversation(t, stranger, adId, ''),
      400,
      'Write a message before sending it.',
    );
    await refused(
      () => replyIn(t, poster, conversationId, ' \r\n\t '),
      400,
      'Write a message before sending it.',
    );
  });

  test('over 2,000 characters (counted as characters, as the database does), what was typed kept', async () => {
    const long = 'é'.repeat(2001);
    await refused(
      () => replyIn(t, poster, conversationId, long),
      400,
      'A message can be 2,000 characters at most; yours has 2,001. Shorten it, or send it in two messages.',
      long,
    );
    // 2,000 characters of four-byte UTF-8 fit, and are stored whole.
    const emoji = '🙂'.repeat(2000);
    expect((await replyIn(t, poster, conversationId, emoji)).status).toBe(303);
    expect((await storedMessages(t, conversationId)).at(-1)!.body).toBe(emoji);
  });

  test('to one’s own ad', async () => {
    await refused(() => startConversation(t, poster, adId, 'Me again'), 403, /This is your own ad/);
    const page = textOf(
      await (await getPage(t, `/messages/new?ad=${adId}`, poster.session)).text(),
    );
    expect(page).toContain('This is your own ad');
    expect(page).not.toContain('Send message');
  });

  test('to a removed, deleted, expired, rejected or unknown ad', async () => {
    const live = (title: string, expiresOn?: string) =>
      insertLiveAd(t, poster, `An ad that is ${title}`, expiresOn ? { expiresOn } : {});
    const inReview = (title: string) =>
      insertAdInReview(t, { accountId: poster.accountId, title: `An ad that is ${title}` });
    const takenDown = async (made: Promise<number>, by: 'poster' | 'moderator') => {
      const id = await made;
      await takeAdDown(t, id, by);
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
      await refused(() => startConversation(t, stranger, id, 'Hello'), status, message);
      const page = await getPage(t, `/messages/new?ad=${id}`, stranger.session);
      expect(page.status).toBe(status === 404 ? 404 : 200);
      expect(textOf(await page.text())).toMatch(message);
    }
    await refused(
      () => startConversation(t, stranger, 999_999_999, 'Hello'),
      404,
      /couldn't find (that|the) ad/,
    );
    await refused(
      () => startConversation(t, stranger, 'abc', 'Hello'),
      404,
      /couldn't find (that|the) ad/,
    );
    expect((await getPage(t, '/messages/new?ad=999999999', stranger.session)).status).toBe(404);
  });

  test('someone else’s conversation, and an unknown one: the same 404, nothing confirmed', async () => {
    const theirs = await replyIn(t, stranger, conversationId, 'Let me in');
    const unknown = await replyIn(t, stranger, 987_654, 'Let me in');
    expect(theirs.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(textOf(await theirs.text())).toBe(textOf(await unknown.text()));
    const pageTheirs = await getPage(t, conversationPath(conversationId), stranger.session);
    const pageUnknown = await getPage(t, conversationPath(987_654), stranger.session);
    expect(pageTheirs.status).toBe(404);
    expect(pageUnknown.status).toBe(404);
    const text = textOf(await pageTheirs.text());
    expect(text).toBe(textOf(await pageUnknown.text()));
    expect(text).toContain('Conversation not found');
    expect(text).not.toContain('Hello');
    for (const action of ['block', 'unblock']) {
      const response = await submit(
        t,
        `/api/messages/${conversationId}/${action}`,
        {},
        stranger.session,
      );
      expect(response.status).toBe(404);
    }
    expect(await t.sql.all('SELECT * FROM blocks')).toEqual([]);
    // Reading someone else's thread marks nothing read.
    expect((await storedMessages(t, conversationId))[0]!.read_at).toBeNull();
  });

  test('as JSON: { error } with the status, for each', async () => {
    const cases: Array<[() => Promise<Response>, number, string]> = [
      [
        () => replyIn(t, poster, conversationId, '', 'json'),
        400,
        'Write a message before sending it.',
      ],
      [
        () => replyIn(t, stranger, conversationId, 'x', 'json'),
        404,
        "We couldn't find that conversation.",
      ],
      [
        () => startConversation(t, poster, adId, 'x', 'json'),
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
    const huge = await submit(
      t,
      replyApiPath(conversationId),
      { body: 'x'.repeat(40_000) },
      poster.session,
    );
    expect(huge.status).toBe(413);
    expect(bannerOf(await huge.text())).toMatch(/too large/);
    const get = await t.app.request(`http://localhost${replyApiPath(conversationId)}`);
    expect(get.status).toBe(405);
    const crossSite = await submit(
      t,
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
      () => replyIn(t, poster, conversationId, '\u0000'),
      400,
      'Write a message before sending it.',
    );
    expect((await replyIn(t, poster, conversationId, 'a\u0000b\u0007c')).status).toBe(303);
    expect((await storedMessages(t, conversationId)).at(-1)!.body).toBe('abc');
  });
});
