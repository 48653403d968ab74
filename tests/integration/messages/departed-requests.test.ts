// A request whose writer has left (docs/product.md section 7, "A member who leaves"), as plain page
// loads without JavaScript, on SQLite and, in the postgres suite, PostgreSQL: it stays in the
// poster's Requests, readable and reportable, the list saying in the conversation page's words
// that the member deleted their account (or that our moderators closed it) and until when their
// messages stay; but it is no longer a new request: not in the header's count (GET /api/me), not
// in /messages's "new" line and folder link, not in the daily digest.
import { describe, expect, test } from 'vitest';
import { formatDate } from '../../../core/format.ts';
import {
  conversationPath,
  meApiPath,
  reportConversationPath,
  requestMessagesPath,
} from '../../../core/paths.ts';
import { banAccount } from '../../../server/moderation/accounts.ts';
import { sendRequestDigests } from '../../../server/messages/request-digest.ts';
import { mailsTo, TEST_MAIL_SITE } from '../../helpers/mail.ts';
import { conversationIdOf, textOf } from '../../helpers/messages.ts';
import { messagesWorld } from '../../helpers/messages-world.ts';
import type { TestMember } from '../../helpers/posting.ts';
import { signUpModerator } from '../../helpers/moderation.ts';

const t = messagesWorld();

const DAY = 86_400_000;

/** What the header asks (GET /api/me): the new chats and requests, and the unread messages. */
async function news(member: TestMember) {
  const me = (await (await t.getPage(meApiPath(), member.session)).json()) as Record<
    string,
    unknown
  >;
  return { newChats: me.newChats, newRequests: me.newRequests, unread: me.unread };
}

/** The Requests page as a browser without JavaScript gets it, in words. */
async function requestsPage(member: TestMember) {
  const page = await t.getPage(requestMessagesPath(), member.session);
  expect(page.status).toBe(200);
  return textOf(await page.text());
}

/** A poster with two requests about two of their ads, from two members. */
async function posterWithTwoRequests() {
  const poster = await t.makeMember();
  const leaver = await t.makeMember();
  const stayer = await t.makeMember();
  const hikes = await t.insertLiveAd(poster, 'Sunday hikes');
  const tacos = await t.insertLiveAd(poster, 'Tacos on Tuesday', { city: 'San Diego' });
  const left = conversationIdOf(
    await t.startConversation(leaver, hikes, 'Hello, I liked your ad about Sunday hikes.'),
  );
  conversationIdOf(await t.startConversation(stayer, tacos, 'Tacos are life.'));
  expect(await news(poster)).toEqual({ newChats: 0, newRequests: 2, unread: 2 });
  return { poster, leaver, stayer, left };
}

describe('a request whose writer deleted their account', () => {
  test('stays in Requests, says so in words, is readable and reportable, and is not new', async () => {
    const { poster, leaver, left } = await posterWithTwoRequests();
    await t.deleteAccountOf(leaver.accountId);
    const keptUntil = formatDate(new Date(Date.now() + 30 * DAY).toISOString().slice(0, 10));

    // Not new: the header counts the other request alone.
    expect(await news(poster)).toEqual({ newChats: 0, newRequests: 1, unread: 1 });
    const list = await requestsPage(poster);
    expect(list).toContain('1 new request');
    expect(list).toContain('Requests (2) · 1 new');
    // Still listed, saying what the conversation page says.
    expect(list).toMatch(
      new RegExp(
        `Sunday hikes This member has left\\. They deleted their account\\. Their messages stay here for you until ${keptUntil}, so that you can report them if you need to; then they are deleted\\.`,
      ),
    );
    expect(list).toContain('Tacos on Tuesday A member replied to your ad');
    // Readable, with its Report button.
    const page = await t.getPage(conversationPath(left), poster.session);
    const html = await page.text();
    expect(textOf(html)).toContain('Hello, I liked your ad about Sunday hikes.');
    expect(html).toContain(`href="${reportConversationPath(left)}"`);

    // The digest tells of the request whose writer stays, and of it alone.
    await sendRequestDigests(
      { store: t.store, mailer: t.mailer, site: TEST_MAIL_SITE },
      new Date(),
    );
    await t.mailer.settled();
    const digests = mailsTo(t.outboxDir, poster.email).filter((mail) =>
      mail.subject.includes('message request'),
    );
    expect(digests.map((mail) => mail.subject)).toEqual(['1 new message request on Localboard']);
    expect(digests[0]!.text).toContain('“Tacos on Tuesday” (1 message)');
    expect(digests[0]!.text).not.toContain('Sunday hikes');
  });
});

describe('a request whose writer was banned', () => {
  test('stays in Requests, says our moderators closed their account, and is not new', async () => {
    const { poster, stayer } = await posterWithTwoRequests();
    const moderator = await signUpModerator(t.app, t.store);
    const by = { accountId: moderator.accountId, email: moderator.email };
    const why = { reason: 'Spam or duplicate' };
    expect(await banAccount(t.store, by, stayer.accountId, why, new Date())).toMatchObject({
      kind: 'done',
    });
    expect(await news(poster)).toEqual({ newChats: 0, newRequests: 1, unread: 1 });
    const list = await requestsPage(poster);
    expect(list).toContain('Requests (2) · 1 new');
    expect(list).toContain(
      'Tacos on Tuesday This member has left. Our moderators closed their account. They can no longer write to you, and their messages stay here.',
    );
    expect(list).toContain('Sunday hikes A member replied to your ad');
  });
});
