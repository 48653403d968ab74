// Fraud bans tell the people who talked with the account (docs/product.md section 7), on
// either store (this folder runs on SQLite and again on PostgreSQL): a ban or a live ad's removal
// with the reason "Scam or fraud", as a moderator posts it without JavaScript, gives every member
// who answered the account (and only them) a notice on those conversations, a mark in their inbox
// and one mail; a second ban, a later ban after a removal, and the sweep send nothing more; a mail
// that fails is given back and the sweep sends it; two instances sweeping at once mail it once.
import { describe, expect, test } from 'vitest';
import { banAccount } from '../../../server/moderation/accounts.ts';
import { removeAd } from '../../../server/moderation/ads.ts';
import { sweepFraudNotices } from '../../../server/moderation/fraud-notices.ts';
import {
  banAccountApiPath,
  conversationPath,
  messagesPath,
  moderateAdApiPath,
  moderatePath,
  moderateReportsApiPath,
  moderateReportsPath,
  reportsApiPath,
} from '../../../core/paths.ts';
import { unreachableMailer, mailsTo, TEST_MAIL_SITE, type ReadMail } from '../../helpers/mail.ts';
import { conversationIdOf, textOf } from '../../helpers/messages.ts';
import { recordingPublisher, type TestMember } from '../../helpers/moderation.ts';
import { messagesWorld } from '../../helpers/messages-world.ts';
import { onPostgres, openTestStore } from '../../helpers/test-store.ts';
import { deleteAccountOf } from '../../helpers/member-data.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const t = messagesWorld({ publisher: recordingPublisher() });

const FIRST = 'Hi! I saw your ad and would love to hear more about you.';
const ANSWER = 'Hello, thanks for writing. Tell me about yourself?';

let moderatorMember: TestMember | undefined;
const moderator = async () => (moderatorMember ??= await t.signUpModerator());

/** The fraud notice mails a member got (after every mail queued so far is sent). */
async function noticesTo(member: TestMember): Promise<ReadMail[]> {
  await t.mailer.settled();
  return mailsTo(t.outboxDir, member.email).filter((mail) =>
    mail.subject.startsWith('Safety warning'),
  );
}

async function pageOf(member: TestMember, path: string): Promise<string> {
  const response = await t.getPage(path, member.session);
  expect(response.status).toBe(200);
  return textOf(await response.text());
}

const noticeRows = (accountId: number) =>
  storedRows<{ member_id: number; action: string; mailed_at: string | null }>(
    t,
    'SELECT member_id, action, mailed_at FROM fraud_notices WHERE banned_account_id = ? ORDER BY member_id',
    accountId,
  );

/**
 * The scammer writes first to the ad of each member (through the real message form); `answering`
 * of them write back. The conversations' ids, in the order of `members`.
 */
async function scammerWritesTo(
  scammer: TestMember,
  members: readonly TestMember[],
  answering: readonly TestMember[],
  title = (index: number) => `Evening walks by the river ${index}`,
): Promise<number[]> {
  const ids: number[] = [];
  for (const [index, member] of members.entries()) {
    const adId = await t.insertLiveAd(member, title(index));
    const started = await t.startConversation(scammer, adId, FIRST);
    expect(started.status).toBe(303);
    ids.push(conversationIdOf(started));
  }
  for (const [index, member] of members.entries())
    if (answering.includes(member))
      expect((await t.replyIn(member, ids[index]!, ANSWER)).status).toBe(303);
  return ids;
}

/** A ban with a reason, as the ban form posts it without JavaScript. */
async function ban(account: TestMember, reason = 'scam') {
  return t.postForm(
    banAccountApiPath(account.accountId),
    { reason, note: '' },
    (await moderator()).session,
  );
}

describe('a ban for scam or fraud', () => {
  test('a scammer wrote to three members, two answered: exactly those two get the notice on their conversation and one mail each', async () => {
    const scammer = await t.makeMember();
    const [ana, ben, cai] = [await t.makeMember(), await t.makeMember(), await t.makeMember()];
    const [anaThread, benThread, caiThread] = await scammerWritesTo(
      scammer,
      [ana, ben, cai],
      [ana, ben],
    );

    const banned = await ban(scammer);
    expect(banned.status).toBe(303);

    const rows = await noticeRows(scammer.accountId);
    expect(rows.map((row) => [row.member_id, row.action])).toEqual([
      [ana.accountId, 'banned'],
      [ben.accountId, 'banned'],
    ]);
    expect(rows.every((row) => row.mailed_at !== null)).toBe(true);

    for (const [member, thread, index] of [
      [ana, anaThread, 0],
      [ben, benThread, 1],
    ] as const) {
      const mails = await noticesTo(member);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      expect(mail.subject).toBe(
        'Safety warning: a member you talked with on Localboard was banned for scam or fraud',
      );
      expect(mail.text).toContain(
        `Our moderators banned the member who wrote to you about your ad “Evening walks by the river ${index}” for scam or fraud.`,
      );
      expect(mail.text).toContain('Never send money, gift cards or codes');
      expect(mail.text).toContain(`${TEST_MAIL_SITE.baseUrl}${conversationPath(thread!)}`);
      expect(mail.text).toContain(`${TEST_MAIL_SITE.baseUrl}/about/recognising-scams`);
      // No message's text, no other member's address.
      for (const secret of [FIRST, ANSWER, scammer.email]) {
        expect(mail.text).not.toContain(secret);
        expect(mail.html).not.toContain(secret);
      }

      const text = await pageOf(member, conversationPath(thread!));
      expect(text).toContain('Warning: this member was banned for scam or fraud');
      expect(text).toContain(
        `Our moderators banned the member who wrote to you about your ad “Evening walks by the river ${index}” for scam or fraud. They can no longer write to you.`,
      );
      expect(text).toContain(
        'Never send money, gift cards or codes (such as a code sent to your phone) to anyone you met here, whatever the story: no genuine member needs them.',
      );
      expect(text).toContain('Read our guide to recognizing scams');
      expect(
        (await (await t.getPage(conversationPath(thread!), member.session)).text()).includes(
          'href="/about/recognising-scams"',
        ),
      ).toBe(true);
      const inbox = await pageOf(member, messagesPath());
      expect(inbox).toContain(
        'Warning: this member was banned for scam or fraud. Open the conversation to read what to do.',
      );
    }

    // Received, never answered: nothing.
    expect(await noticesTo(cai)).toEqual([]);
    expect(await pageOf(cai, conversationPath(caiThread!))).not.toContain('Warning');
    expect(await pageOf(cai, messagesPath())).not.toContain('Warning');
  });

  test('a member who answered in two conversations gets one mail naming both, and the notice on both', async () => {
    const scammer = await t.makeMember();
    const dana = await t.makeMember();
    const threads = await scammerWritesTo(scammer, [dana, dana], [dana], (index) =>
      index === 0 ? 'Salsa on Fridays' : 'Board games and tea',
    );
    expect((await ban(scammer)).status).toBe(303);

    const mails = await noticesTo(dana);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`${TEST_MAIL_SITE.baseUrl}${conversationPath(threads[0]!)}`);
    expect(mails[0]!.text).toContain(
      `You also talked with them about your ad “Board games and tea”: ${TEST_MAIL_SITE.baseUrl}${conversationPath(threads[1]!)}`,
    );
    for (const thread of threads)
      expect(await pageOf(dana, conversationPath(thread))).toContain(
        'Warning: this member was banned for scam or fraud',
      );
    expect(await noticeRows(scammer.accountId)).toHaveLength(1);
  });

  test('who wrote first and was answered but never wrote again gets nothing; nor a banned or deleted member', async () => {
    const scammer = await t.makeMember();
    const scammerAd = await t.insertLiveAd(scammer, 'Weekend hikes, no drama');
    // Wrote first, the scammer answered, never wrote again: received, never answered.
    const silent = await t.makeMember();
    const silentThread = conversationIdOf(
      await t.startConversation(silent, scammerAd, 'Hi, I like hikes too.'),
    );
    expect((await t.replyIn(scammer, silentThread, ANSWER)).status).toBe(303);
    // Answered, then banned for something else, or gone.
    const bannedMember = await t.makeMember();
    const leaving = await t.makeMember();
    await scammerWritesTo(scammer, [bannedMember, leaving], [bannedMember, leaving]);
    expect((await ban(bannedMember, 'spam')).status).toBe(303);
    const deleted = await deleteAccountOf(t, leaving);
    expect(deleted.status).toBe(200);

    expect((await ban(scammer)).status).toBe(303);
    expect(await noticeRows(scammer.accountId)).toEqual([]);
    for (const member of [silent, bannedMember]) expect(await noticesTo(member)).toEqual([]);
    expect(await pageOf(silent, conversationPath(silentThread))).not.toContain('Warning');
  });

  test('a ban for another reason tells nobody', async () => {
    const spammer = await t.makeMember();
    const erin = await t.makeMember();
    await scammerWritesTo(spammer, [erin], [erin]);
    expect((await ban(spammer, 'spam')).status).toBe(303);
    expect(await noticeRows(spammer.accountId)).toEqual([]);
    expect(await noticesTo(erin)).toEqual([]);
  });

  test('a second ban is refused and sends nothing more; nor does the sweep', async () => {
    const scammer = await t.makeMember();
    const finn = await t.makeMember();
    await scammerWritesTo(scammer, [finn], [finn]);
    expect((await ban(scammer)).status).toBe(303);
    expect(await noticesTo(finn)).toHaveLength(1);

    expect((await ban(scammer)).status).toBe(409);
    expect(
      await sweepFraudNotices(
        { store: t.store, mailer: t.mailer, site: TEST_MAIL_SITE },
        new Date(),
      ),
    ).toEqual({
      mailed: 0,
      failed: 0,
    });
    expect(await noticesTo(finn)).toHaveLength(1);
  });
});

describe('a live ad removed for scam or fraud', () => {
  test('tells the members who answered its poster; a later ban of the account says so on the page but mails nothing more', async () => {
    const scammer = await t.makeMember();
    const adId = await t.insertLiveAd(scammer, 'Travel buddy wanted');
    const gina = await t.makeMember();
    const hugo = await t.makeMember();
    const ginaThread = conversationIdOf(await t.startConversation(gina, adId, 'Hi! Where to?'));
    const hugoThread = conversationIdOf(await t.startConversation(hugo, adId, 'Hello there.'));
    for (const thread of [ginaThread, hugoThread])
      expect((await t.replyIn(scammer, thread, ANSWER)).status).toBe(303);
    expect((await t.replyIn(gina, ginaThread, 'Lisbon, maybe?')).status).toBe(303);

    const { revision } = (await t.store.memberAds.find(adId))!;
    const removed = await t.postForm(
      moderateAdApiPath(adId, 'remove'),
      { revision: String(revision), reason: 'scam', note: '' },
      (await moderator()).session,
    );
    expect(removed.status).toBe(303);

    const mails = await noticesTo(gina);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(
      'Safety warning: a member you talked with on Localboard had an ad removed for scam or fraud',
    );
    expect(mails[0]!.text).toContain(
      'Our moderators removed an ad of the poster of the ad “Travel buddy wanted” for scam or fraud.',
    );
    const page = await pageOf(gina, conversationPath(ginaThread));
    expect(page).toContain("Warning: this member's ad was removed for scam or fraud");
    expect(page).toContain(
      'Our moderators removed an ad of the poster of the ad “Travel buddy wanted” for scam or fraud.',
    );
    expect(await noticesTo(hugo)).toEqual([]);
    expect(await pageOf(hugo, conversationPath(hugoThread))).not.toContain('Warning');

    // The account banned for it after: the notice says so; the one mail stays the one.
    expect((await ban(scammer)).status).toBe(303);
    expect((await noticeRows(scammer.accountId)).map((row) => row.action)).toEqual(['banned']);
    expect(await pageOf(gina, conversationPath(ginaThread))).toContain(
      'Warning: this member was banned for scam or fraud',
    );
    expect(await noticesTo(gina)).toHaveLength(1);
  });
});

describe('the mails', () => {
  test('a mail that cannot be sent is given back and sent by the next sweep, once', async () => {
    const scammer = await t.makeMember();
    const ivy = await t.makeMember();
    const jon = await t.makeMember();
    await scammerWritesTo(scammer, [ivy, jon], [ivy, jon]);
    // The ban's unit of work alone: as an instance that stopped before its mails.
    const by = { accountId: (await moderator()).accountId, email: (await moderator()).email };
    const banned = await banAccount(
      t.store,
      by,
      scammer.accountId,
      { reason: 'Scam or fraud' },
      new Date(),
    );
    expect(banned).toMatchObject({ kind: 'done', fraudNotices: 2 });
    expect((await noticeRows(scammer.accountId)).map((row) => row.mailed_at)).toEqual([null, null]);

    // The mail server is down.
    const down = unreachableMailer(t.outboxDir);
    const lines: string[] = [];
    const failed = await sweepFraudNotices(
      {
        store: t.store,
        mailer: down,
        site: TEST_MAIL_SITE,
        log: (line) => lines.push(line),
      },
      new Date(),
    );
    expect(failed.mailed).toBe(0);
    expect(failed.failed).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^The fraud notice of member \d+ about account \d+ was not sent: /);
    expect((await noticeRows(scammer.accountId)).some((row) => row.mailed_at === null)).toBe(true);

    const sweep = () =>
      sweepFraudNotices({ store: t.store, mailer: t.mailer, site: TEST_MAIL_SITE }, new Date());
    const sent = await sweep();
    expect(sent.failed).toBe(0);
    expect((await noticeRows(scammer.accountId)).every((row) => row.mailed_at !== null)).toBe(true);
    expect(await sweep()).toEqual({ mailed: 0, failed: 0 });
    expect(await noticesTo(ivy)).toHaveLength(1);
    expect(await noticesTo(jon)).toHaveLength(1);
  });

  test('two instances sweeping at once mail each notice once', async () => {
    const scammers = [await t.makeMember(), await t.makeMember()];
    const members = [await t.makeMember(), await t.makeMember(), await t.makeMember()];
    for (const scammer of scammers) await scammerWritesTo(scammer, members, members);
    const by = { accountId: (await moderator()).accountId, email: (await moderator()).email };
    for (const scammer of scammers)
      await banAccount(t.store, by, scammer.accountId, { reason: 'Scam or fraud' }, new Date());

    // On PostgreSQL a second store on the same schema, as a second instance; SQLite has one.
    const other = onPostgres() ? (await openTestStore(t.dir)).store : t.store;
    try {
      const runs = await Promise.all(
        [t.store, other].map((store) =>
          sweepFraudNotices({ store, mailer: t.mailer, site: TEST_MAIL_SITE }, new Date()),
        ),
      );
      expect(runs[0]!.mailed + runs[1]!.mailed).toBe(6);
    } finally {
      if (other !== t.store) await other.close();
    }
    for (const member of members) expect(await noticesTo(member)).toHaveLength(2);
  });
});

describe('across instances', () => {
  test('a ban and a removal for scam or fraud at once, on two instances: one notice a member, one mail', async () => {
    const scammer = await t.makeMember();
    const lena = await t.makeMember();
    const adId = await t.insertLiveAd(scammer, 'Coffee tasting partner');
    const thread = conversationIdOf(await t.startConversation(lena, adId, 'Hi there!'));
    expect((await t.replyIn(scammer, thread, ANSWER)).status).toBe(303);
    expect((await t.replyIn(lena, thread, 'Sounds lovely.')).status).toBe(303);
    const { revision } = (await t.store.memberAds.find(adId))!;
    // On PostgreSQL a second store on the same schema, as a second instance; SQLite has one.
    const other = onPostgres() ? (await openTestStore(t.dir)).store : t.store;
    try {
      const by = { accountId: (await moderator()).accountId, email: (await moderator()).email };
      const why = { reason: 'Scam or fraud' };
      const [banned, removed] = await Promise.all([
        banAccount(t.store, by, scammer.accountId, why, new Date()),
        removeAd(other, by, adId, revision, why, new Date()),
      ]);
      const written = [banned, removed].map((result) =>
        result.kind === 'done' ? result.fraudNotices : 0,
      );
      expect(written.reduce((sum, count) => sum + count, 0)).toBe(1);
      expect(await noticeRows(scammer.accountId)).toEqual([
        expect.objectContaining({ member_id: lena.accountId, mailed_at: null }),
      ]);
      // Each instance mails what it wrote, and sweeps: one mail.
      await Promise.all(
        [t.store, other].map((store) =>
          sweepFraudNotices({ store, mailer: t.mailer, site: TEST_MAIL_SITE }, new Date()),
        ),
      );
    } finally {
      if (other !== t.store) await other.close();
    }
    expect(await noticesTo(lena)).toHaveLength(1);
  });
});

describe('the reason in the forms', () => {
  test('the ban confirmation, and the reject and remove forms of the queue, offer "Scam or fraud"', async () => {
    const member = await t.makeMember();
    const page = await t.getPage(`/moderate?ban=${member.accountId}`, (await moderator()).session);
    expect(page.status).toBe(200);
    const html = await page.text();
    const banForm = html.slice(html.indexOf('id="ban"'));
    expect(banForm).toContain('<option value="scam">Scam or fraud</option>');

    const adId = await t.insertAdInReview({ accountId: member.accountId });
    const queue = await (await t.getPage(moderatePath(), (await moderator()).session)).text();
    const entry = queue.slice(queue.indexOf(`id="ad-${adId}"`));
    const reject = entry.slice(entry.indexOf(moderateAdApiPath(adId, 'reject')));
    expect(reject.slice(0, reject.indexOf('</form>'))).toContain(
      '<option value="scam">Scam or fraud</option>',
    );
  });

  test('a reported conversation banned for scam or fraud from the reports page tells who answered', async () => {
    const scammer = await t.makeMember();
    const kim = await t.makeMember();
    const [thread] = await scammerWritesTo(scammer, [kim], [kim]);
    const reported = await t.postForm(
      reportsApiPath(),
      { conversation: String(thread), reason: 'spam' },
      kim.session,
    );
    expect(reported.status).toBe(303);
    const session = (await moderator()).session;
    const html = await (await t.getPage(moderateReportsPath(), session)).text();
    const key = `conversation:${thread}:${scammer.accountId}`;
    const group = html.slice(html.indexOf(`id="${key.replace(/:/g, '-')}"`));
    expect(group).toContain('<option value="scam">Scam or fraud</option>');
    const seen = /name="seen" value="(\d+)"/.exec(group)![1]!;
    const banned = await t.postForm(
      moderateReportsApiPath(),
      { group: key, seen, action: 'ban', reason: 'scam' },
      session,
    );
    expect(banned.status).toBe(303);
    expect(await noticesTo(kim)).toHaveLength(1);
    expect(await pageOf(kim, conversationPath(thread!))).toContain(
      'Warning: this member was banned for scam or fraud',
    );
  });
});
