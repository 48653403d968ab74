// Reports that survive the other side leaving (docs/product.md section 7, issue 54), in-process on
// either engine, the clock faked where 30 days are the point: a member who deletes their account
// leaves their messages to the member they wrote to, who still reads them, is told in words that
// this member has left and until when, and reports the conversation; the moderator reads the
// departed member's messages in the report. 30 days later the hourly sweep deletes them. A banned
// member's conversation says so too, with its Report button. Delete my account says so before.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { conversationPath, deleteAccountPath, moderateReportsPath } from '../../../core/paths.ts';
import { signInAgain as signInAgainAs } from '../../helpers/moderation.ts';
import { formatDate } from '../../../core/format.ts';
import { forgetDepartedMessages } from '../../../server/messages/departed-messages.ts';
import {
  conversationIdOf,
  insertLiveAd,
  replyIn,
  startConversation,
  storedMessages,
} from '../../helpers/messages.ts';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { deleteAccountOf, makeMember, type TestMember } from '../../helpers/posting.ts';
import { conversationReportRows, reportForm, textOf } from '../../helpers/reports.ts';

const t = moderationWorld({ moderators: 1, publishedAds: true });
const [moderator] = t.moderators;
const DAY = 86_400_000;

afterEach(() => {
  vi.useRealTimers();
});

const pageText = async (path: string, session: string) => {
  const page = await t.getPage(path, session);
  expect(page.status, `${path}: ${page.headers.get('location')}`).toBe(200);
  return textOf(await page.text());
};

/** The member signs in again (their session of 30 days is over once the clock moved past it). */
const signInAgain = (member: TestMember) => signInAgainAs(t.app, member);

/** A poster and a member who wrote to them, in a conversation both wrote in. */
async function conversationWithWriter() {
  const poster = await makeMember(t);
  const writer = await makeMember(t);
  const adId = await insertLiveAd(t, poster, 'Quiet evenings');
  const id = conversationIdOf(
    await startConversation(t, writer, adId, 'Hello, I liked your ad about quiet evenings.'),
  );
  expect((await replyIn(t, poster, id, 'Thanks! Tell me about you.')).status).toBe(303);
  expect((await replyIn(t, writer, id, 'You will regret ignoring me.')).status).toBe(303);
  return { poster, writer, id };
}

describe('the other member deletes their account', () => {
  test('this member still reads their messages, is told they left, and reports them for 30 days; then they are gone', async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const { poster, writer, id } = await conversationWithWriter();
    await deleteAccountOf(t, writer.accountId);
    const keptUntil = formatDate(new Date(start + 30 * DAY).toISOString().slice(0, 10));

    const page = await pageText(conversationPath(id), poster.session);
    expect(page).toContain('This member has left');
    expect(page).toContain(
      `They deleted their account. Their messages stay here for you until ${keptUntil}, so that you can report them if you need to; then they are deleted.`,
    );
    expect(page).toMatch(
      /The member who replied .*Hello, I liked your ad about quiet evenings\. .*You .*Thanks! Tell me about you\. .*The member who replied .*You will regret ignoring me\./,
    );
    expect(page).toContain(
      'The other member deleted their account, so this conversation is closed.',
    );
    expect(page).not.toContain(writer.email);
    // The Report button leads to the report form about this conversation, a plain post.
    const html = await (await t.getPage(conversationPath(id), poster.session)).text();
    expect(html).toContain(`href="/report?conversation=${id}"`);
    const sent = await reportForm(
      t.app,
      { conversation: String(id), reason: 'harassment', note: 'Threats, then deleted.' },
      { session: poster.session },
    );
    expect(sent.status).toBe(303);
    const [report] = await conversationReportRows(t.sql, id);
    expect(report).toMatchObject({ reason: 'harassment', reported_account_id: null });
    expect(JSON.parse(report!.thread!)).toEqual([
      expect.objectContaining({
        from: 'reported',
        body: 'Hello, I liked your ad about quiet evenings.',
      }),
      expect.objectContaining({ from: 'reporter', body: 'Thanks! Tell me about you.' }),
      expect.objectContaining({ from: 'reported', body: 'You will regret ignoring me.' }),
    ]);
    // The moderator reads the departed member's messages in the report.
    const reports = await pageText(moderateReportsPath(), moderator.session);
    expect(reports).toContain('Conversation about “Quiet evenings”');
    expect(reports).toContain('You will regret ignoring me.');

    // A day before the 30 days are up: still there, whoever sweeps.
    vi.setSystemTime(start + 29 * DAY);
    expect(await forgetDepartedMessages(t.store, new Date())).toBe(0);
    expect(await pageText(conversationPath(id), poster.session)).toContain(
      'You will regret ignoring me.',
    );
    // Then gone, as the account's deletion would have taken them; the member's own stay.
    vi.setSystemTime(start + 30 * DAY + 60_000);
    expect(await forgetDepartedMessages(t.store, new Date())).toBe(2);
    expect((await storedMessages(t, id)).map((row) => row.body)).toEqual([
      'Thanks! Tell me about you.',
    ]);
    const session = await signInAgain(poster);
    const after = await pageText(conversationPath(id), session);
    expect(after).toContain('This member has left');
    expect(after).toContain('They deleted their account, and their messages are deleted.');
    expect(after).not.toContain('You will regret ignoring me.');
    // The report keeps its copy for the moderators.
    expect(await pageText(moderateReportsPath(), await signInAgain(moderator))).toContain(
      'You will regret ignoring me.',
    );
  });

  test('a conversation only the departed member wrote in is theirs alone once the days are up', async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const poster = await makeMember(t);
    const writer = await makeMember(t);
    const adId = await insertLiveAd(t, poster, 'Morning runs');
    const id = conversationIdOf(await startConversation(t, writer, adId, 'Run with me?'));
    await deleteAccountOf(t, writer.accountId);
    expect(await pageText('/messages?folder=requests', poster.session)).toContain('Morning runs');
    // Left: no longer said to be a request whose writer waits for an answer.
    const page = await pageText(conversationPath(id), poster.session);
    expect(page).toContain('This member has left');
    expect(page).not.toContain('This is a request');
    vi.setSystemTime(start + 31 * DAY);
    await forgetDepartedMessages(t.store, new Date());
    const session = await signInAgain(poster);
    expect(await pageText('/messages?folder=requests', session)).not.toContain('Morning runs');
    expect((await t.getPage(conversationPath(id), session)).status).toBe(200);
  });

  test('Delete my account says the other side keeps the messages 30 days, to report them', async () => {
    const member = await makeMember(t);
    const page = await pageText(deleteAccountPath(), member.session);
    expect(page).toContain(
      'The members you wrote with keep your messages in their conversations for 30 days',
    );
  });
});

describe('the other member is banned', () => {
  test('the conversation says this member has left, with the Report button', async () => {
    const { poster, writer, id } = await conversationWithWriter();
    expect(
      await t.store.moderation.ban(writer.accountId, writer.email, new Date().toISOString()),
    ).toBe(true);
    const page = await pageText(conversationPath(id), poster.session);
    expect(page).toContain('This member has left');
    expect(page).toContain('Our moderators closed their account.');
    expect(page).toContain('You will regret ignoring me.');
    const html = await (await t.getPage(conversationPath(id), poster.session)).text();
    expect(html).toContain(`href="/report?conversation=${id}"`);
  });
});
