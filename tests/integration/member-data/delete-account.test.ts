// Delete my account (docs/product.md section 8): /account/delete asks for the password again; a wrong
// one changes nothing; the right one deletes the account row and with it the sessions, ads,
// messages and blocks, leaves the other side's thread (its side NULL), the reports and the
// moderation log (shown as a deleted account), asks to publish when an ad was live, clears the
// cookies and mails the address once. Afterwards the email and password sign in no more, and the
// address can sign up again — unless a moderator banned it.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  cookieHeader,
  limitsWith,
  makeTestApp,
  ORIGIN,
  PASSWORD,
  postJson,
  setCookies,
  signupBody,
} from '../../helpers/api.ts';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { mailsTo, outboxMails } from '../../helpers/mail.ts';
import {
  blockAndReport,
  addThread,
  addReport,
  countRows,
  deleteAccountOf,
} from '../../helpers/member-data.ts';
import {
  insertAdInReview,
  postModerationForm,
  signUpMember,
  type TestMember,
} from '../../helpers/moderation.ts';
import { bannerOf, headingOf, privatePage, useFixtureContent } from '../../helpers/pages.ts';
import { textOf } from '../../helpers/html-text.ts';
import {
  accountDataApiPath,
  accountPath,
  deleteAccountApiPath,
  deleteAccountPath,
  meApiPath,
  moderatePath,
  moderationLogPath,
  signinApiPath,
  signupApiPath,
} from '../../../core/paths.ts';
import { storedRow, storedRows } from '../../helpers/stored-rows.ts';

const t = moderationWorld();

const deleteForm = (session: string | undefined, password: string) =>
  t.postForm(deleteAccountApiPath(), { password }, session);

const accountRow = (id: number) => storedRow(t, 'SELECT id FROM accounts WHERE id = ?', id);

/** Approves an ad as a moderator does, through the queue's form. */
async function approve(moderator: TestMember, adId: number) {
  expect((await t.decideOnAd(adId, 'approve', {}, moderator.session)).status).toBe(303);
}

describe('/account/delete, the page', () => {
  test('members only: signed out, to sign in and back', async () => {
    const response = await t.getPage(deleteAccountPath());
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/signin?next=%2Faccount%2Fdelete');
  });

  test('says what goes and what stays, and asks for the password', async () => {
    const member = await t.signUpMember();
    const response = await t.getPage(deleteAccountPath(), member.session);
    const html = await privatePage(response, 'Delete my account');
    const text = textOf(html);
    expect(text).toContain('What is deleted');
    expect(text).toContain('What stays');
    expect(text).toContain('moderators see the account as a deleted account');
    expect(text).toContain('An address banned by a moderator stays banned');
    expect(html).toContain(`action="${deleteAccountApiPath()}"`);
    expect(html).toMatch(/<input id="delete-password"[^>]*type="password"/);
  });

  test('/account offers Download my data and Delete my account as plain links', async () => {
    const member = await t.signUpMember();
    const html = await (await t.getPage(accountPath(), member.session)).text();
    expect(html).toContain(`href="${accountDataApiPath()}"`);
    expect(html).toContain('href="/account/delete"');
    expect(textOf(html)).toContain('Download my data');
  });
});

describe('the wrong password', () => {
  test('the form again with the message; nothing deleted, still signed in', async () => {
    const member = await t.signUpMember();
    const response = await deleteForm(member.session, 'not my password at all');
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(headingOf(html)).toBe('Delete my account');
    expect(bannerOf(html)).toBe('That password is not right. Your account was not deleted.');
    expect(html).toContain('role="alert"');
    expect(await accountRow(member.accountId)).toBeDefined();
    expect((await t.getPage(meApiPath(), member.session)).status).toBe(200);
    expect(setCookies(response)).toEqual([]);
  });

  test('as JSON: 403 { error, field }; an empty password 400', async () => {
    const member = await t.signUpMember();
    const wrong = await deleteAccountOf(t, member, { password: 'nope nope nope' });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({
      error: 'That password is not right. Your account was not deleted.',
      field: 'password',
    });
    const empty = await deleteForm(member.session, '');
    expect(empty.status).toBe(400);
    expect(bannerOf(await empty.text())).toBe('Enter your password to delete your account.');
    expect(await accountRow(member.accountId)).toBeDefined();
  });

  test('signed out: to sign in (form) or 401 (JSON), nothing deleted', async () => {
    const form = await deleteForm(undefined, PASSWORD);
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/signin?next=%2Faccount%2Fdelete');
    const json = await postJson(t.app, deleteAccountApiPath(), { password: PASSWORD });
    expect(json.status).toBe(401);
  });

  test('from another site: refused, nothing deleted', async () => {
    const member = await t.signUpMember();
    const response = await t.app.request(`${ORIGIN}${deleteAccountApiPath()}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://elsewhere.example',
        ...cookieHeader(member.session),
      },
      body: new URLSearchParams({ password: PASSWORD }).toString(),
    });
    expect(response.status).toBe(403);
    expect(bannerOf(await response.text())).toBe(
      'This request came from another site and was refused.',
    );
    expect(await accountRow(member.accountId)).toBeDefined();
  });

  test('a moderator’s account is refused, even with the right password', async () => {
    const moderator = await t.signUpModerator();
    const response = await deleteAccountOf(t, moderator);
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toContain(
      'Ask an operator to take the moderator role away first',
    );
    expect(await accountRow(moderator.accountId)).toBeDefined();
  });
});

describe('the right password', () => {
  let moderator: TestMember;
  let member: TestMember;
  let other: TestMember;
  let liveAd: number;
  let reviewAd: number;
  let theirAd: number;
  let aboutMyAd: number;
  let aboutTheirAd: number;
  let theirMessages: number;
  let logBefore: number;
  let othersMailsBefore: ReturnType<typeof outboxMails>;
  let response: Response;
  const toMember = (mail: { to: string }) => mail.to.toLowerCase() === member.email;

  beforeAll(async () => {
    moderator = await t.signUpModerator();
    member = await t.signUpMember('leaving');
    other = await t.signUpMember('staying');
    liveAd = await insertAdInReview(t, { accountId: member.accountId, title: 'My live ad' });
    await approve(moderator, liveAd);
    reviewAd = await insertAdInReview(t, {
      accountId: member.accountId,
      city: 'San Diego',
      title: 'My ad still in review',
    });
    theirAd = await insertAdInReview(t, { accountId: other.accountId, title: 'Their ad' });
    await approve(moderator, theirAd);
    aboutMyAd = await addThread(
      t,
      { adId: liveAd, adTitle: 'My live ad' },
      { posterId: member.accountId, replierId: other.accountId },
      [
        ['replier', 'Hello from the other side.', 20],
        ['poster', 'Hello back, from me.', 10],
      ],
    );
    aboutTheirAd = await addThread(
      t,
      { adId: theirAd, adTitle: 'Their ad' },
      { posterId: other.accountId, replierId: member.accountId },
      [
        ['replier', 'I replied to their ad.', 9],
        ['poster', 'They answered me.', 8],
      ],
    );
    theirMessages = await countRows(t, 'messages', { column: 'sender_id', value: other.accountId });
    await blockAndReport(t, member.accountId, other.accountId, { adId: theirAd, reason: 'spam' });
    await addReport(t, {
      adId: liveAd,
      reporterId: other.accountId,
      reportedAccountId: member.accountId,
      conversationId: aboutMyAd,
      reason: 'harassment',
      thread: [{ from: 'reported', at: new Date().toISOString(), body: 'Hello back, from me.' }],
    });
    logBefore = await countRows(t, 'moderation_log');
    expect(
      await countRows(t, 'moderation_log', { column: 'account_id', value: member.accountId }),
    ).toBe(1);
    t.publisher.reasons.length = 0;
    // The outbox (no SMTP_URL): files that are not a mail to the member alone must stay.
    await t.mailer.settled();
    mkdirSync(t.outboxDir, { recursive: true });
    writeFileSync(join(t.outboxDir, 'notes.txt'), `To: ${member.email}\r\n\r\nNot a mail.\r\n`);
    writeFileSync(
      join(t.outboxDir, 'to-both.eml'),
      `From: a@example.org\r\nTo: ${member.email}, ${other.email}\r\nSubject: Both\r\n\r\nHi\r\n`,
    );
    writeFileSync(
      join(t.outboxDir, 'written-by-hand.eml'),
      `From: a@example.org\r\nTo: "The member"\r\n <${member.email.toUpperCase()}>\r\nSubject: Old\r\n\r\nHi\r\n`,
    );
    expect(mailsTo(t.outboxDir, member.email).length).toBeGreaterThan(0);
    othersMailsBefore = outboxMails(t.outboxDir).filter((mail) => !toMember(mail));
    // A mail on its way when the account is deleted goes too.
    t.mailer.send({ to: member.email, subject: 'On its way', text: 'Hi', html: '<p>Hi</p>' });
    response = await deleteForm(member.session, PASSWORD);
    await t.mailer.settled();
  });

  test('303 to the page that says so; the session and member cookies cleared', async () => {
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/account/delete?done=1');
    const cleared = new Map(setCookies(response).map((cookie) => [cookie.name, cookie]));
    for (const name of ['lb_session', 'lb_member']) {
      expect(cleared.get(name)?.value).toBe('');
      expect(cleared.get(name)?.attributes.get('max-age')).toBe('0');
    }
    const page = await t.getPage('/account/delete?done=1');
    expect(page.status).toBe(200);
    expect(headingOf(await page.text())).toBe('Your account is deleted');
  });

  test('the account row is gone, and its sessions: the old cookie no longer signs in', async () => {
    expect(await accountRow(member.accountId)).toBeUndefined();
    expect(await countRows(t, 'sessions', { column: 'account_id', value: member.accountId })).toBe(
      0,
    );
    expect((await t.getPage(meApiPath(), member.session)).status).toBe(401);
    const account = await t.getPage(accountPath(), member.session);
    expect(account.status).toBe(303);
    expect(account.headers.get('location')).toBe('/signin?next=%2Faccount');
  });

  test('its ads are gone, and a publish was asked for because one was live', async () => {
    expect(
      await countRows(t, 'member_ads', { column: 'account_id', value: member.accountId }),
    ).toBe(0);
    expect(await countRows(t, 'member_ads', { column: 'id', value: reviewAd })).toBe(0);
    expect(t.publisher.reasons).toEqual([`deleted account ${member.accountId}: ads ${liveAd}`]);
  });

  test('its messages stay 30 days for the other side, who keeps theirs, with this side NULL', async () => {
    // Kept for the member it wrote to, to read and report, until the sweep 30 days on.
    const kept = await storedRows<{ kept_until: string | null }>(
      t,
      'SELECT kept_until FROM messages WHERE sender_id = ?',
      member.accountId,
    );
    expect(kept.length).toBeGreaterThan(0);
    for (const { kept_until } of kept) {
      const days = (Date.parse(kept_until!) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29.9);
      expect(days).toBeLessThanOrEqual(30);
    }
    expect(await countRows(t, 'messages', { column: 'sender_id', value: other.accountId })).toBe(
      theirMessages,
    );
    const threads = await storedRows(
      t,
      'SELECT id, ad_id, ad_title, poster_id, replier_id FROM conversations WHERE id IN (?, ?) ORDER BY id',
      aboutMyAd,
      aboutTheirAd,
    );
    expect(threads).toEqual([
      {
        id: aboutMyAd,
        ad_id: null,
        ad_title: 'My live ad',
        poster_id: null,
        replier_id: other.accountId,
      },
      {
        id: aboutTheirAd,
        ad_id: theirAd,
        ad_title: 'Their ad',
        poster_id: other.accountId,
        replier_id: null,
      },
    ]);
    expect(await countRows(t, 'blocks', { column: 'blocker_id', value: member.accountId })).toBe(0);
  });

  test('reports stay with their copies, without the account', async () => {
    const reports = await storedRows<Record<string, string | number | null>>(
      t,
      'SELECT ad_id, reporter_account_id, reported_account_id, conversation_id, thread FROM reports WHERE ad_id IN (?, ?) ORDER BY id',
      theirAd,
      liveAd,
    );
    expect(reports).toHaveLength(2);
    expect(reports[0]).toMatchObject({ ad_id: theirAd, reporter_account_id: null });
    expect(reports[1]).toMatchObject({
      ad_id: liveAd,
      reported_account_id: null,
      conversation_id: aboutMyAd,
    });
    expect(reports[1]!.thread).toContain('Hello back, from me.');
  });

  test('the moderation log keeps every row and shows the account as deleted', async () => {
    expect(await countRows(t, 'moderation_log')).toBe(logBefore);
    expect(
      await countRows(t, 'moderation_log', { column: 'account_id', value: member.accountId }),
    ).toBe(1);
    const html = await (await t.getPage(moderationLogPath(), moderator.session)).text();
    expect(html).not.toContain(member.email);
    expect(html).toContain(other.email);
    const row = /<tr>(?:(?!<\/tr>).)*<\/tr>/gs;
    const rows = html.replace(/<!-- -->/g, '').match(row) ?? [];
    const mine = rows.filter((tr) => tr.includes(`#${member.accountId}<`));
    expect(mine).toHaveLength(1);
    expect(textOf(mine[0]!)).toContain('deleted account');
    // The queue does not break on it either.
    const queue = await t.getPage(moderatePath(), moderator.session);
    expect(queue.status).toBe(200);
    expect(await queue.text()).not.toContain('My ad still in review');
  });

  test("the outbox's mails to the address are removed, all but the account-deleted one; nothing else is", () => {
    expect(mailsTo(t.outboxDir, member.email).map((mail) => mail.subject)).toEqual([
      'Your Localboard account has been deleted',
    ]);
    expect(existsSync(join(t.outboxDir, 'written-by-hand.eml'))).toBe(false);
    expect(existsSync(join(t.outboxDir, 'notes.txt'))).toBe(true);
    expect(existsSync(join(t.outboxDir, 'to-both.eml'))).toBe(true);
    const others = outboxMails(t.outboxDir).filter((mail) => !toMember(mail));
    expect(others).toEqual(othersMailsBefore);
    expect(readdirSync(t.outboxDir).filter((name) => name.endsWith('.eml'))).toHaveLength(
      others.length + 1,
    );
  });

  test('one mail to the address, saying the account has been deleted', () => {
    const mails = mailsTo(t.outboxDir, member.email);
    const deleted = mails.filter(
      (mail) => mail.subject === 'Your Localboard account has been deleted',
    );
    expect(deleted).toHaveLength(1);
    expect(deleted[0]!.text).toContain('Your ads have left the site, your messages are removed');
    expect(deleted[0]!.text).not.toContain(other.email);
  });

  test('sign-in then fails as for any wrong email or password', async () => {
    const signin = await postJson(t.app, signinApiPath(), {
      email: member.email,
      password: PASSWORD,
    });
    expect(signin.status).toBe(401);
    expect(await signin.json()).toEqual({ error: 'Email or password is incorrect.' });
  });

  test('the address can sign up again, as a new account with a new id', async () => {
    const again = await postJson(t.app, signupApiPath(), signupBody({ email: member.email }));
    expect(again.status).toBe(201);
    const stored = await t.store.accounts.findByEmail(member.email);
    expect(stored!.id).not.toBe(member.accountId);
    const file = await t.app.request(`${ORIGIN}${accountDataApiPath()}`, {
      headers: cookieHeader(setCookies(again).find((c) => c.name === 'lb_session')!.value),
    });
    expect(((await file.json()) as { ads: unknown[] }).ads).toEqual([]);
  });
});

describe('ids and bans', () => {
  test('the newest account deleted: the next sign-up does not get its id', async () => {
    const newest = await t.signUpMember('newest');
    const highest = await storedRow<{ max: number }>(t, 'SELECT MAX(id) AS max FROM accounts');
    expect(newest.accountId).toBe(highest!.max);
    expect((await deleteForm(newest.session, PASSWORD)).status).toBe(303);
    const next = await t.signUpMember('next');
    expect(next.accountId).toBe(newest.accountId + 1);
  });

  test('an account with no live ad asks for no publish', async () => {
    const member = await t.signUpMember();
    await insertAdInReview(t, { accountId: member.accountId, city: 'San Jose' });
    t.publisher.reasons.length = 0;
    expect((await deleteForm(member.session, PASSWORD)).status).toBe(303);
    expect(t.publisher.reasons).toEqual([]);
  });

  test('a banned address is still refused at sign-up', async () => {
    const moderator = await t.signUpModerator();
    const banned = await t.signUpMember('banned');
    const ban = await t.ban(banned.accountId, { reason: 'spam' }, moderator.session);
    expect(ban.status).toBe(303);
    // Its session ended with the ban: it cannot reach the deletion at all.
    expect((await deleteForm(banned.session, PASSWORD)).status).toBe(303);
    expect(await accountRow(banned.accountId)).toBeDefined();
    const again = await postJson(t.app, signupApiPath(), signupBody({ email: banned.email }));
    expect(again.status).toBe(409);
  });
});

describe('guessing the password is slowed as sign-in is', () => {
  test('after the free failures, even the right password waits (429)', async () => {
    const cleanup = useFixtureContent();
    const limited = await makeTestApp({
      rateLimits: limitsWith({ signinPerClientAndEmail: { points: 2, duration: 900 } }),
    });
    try {
      const member = await signUpMember(limited.app, limited.store);
      const attempt = (password: string) =>
        postModerationForm(limited.app, deleteAccountApiPath(), { password }, member.session);
      for (const _ of [1, 2, 3]) expect((await attempt('a wrong guess')).status).toBe(403);
      const waiting = await attempt(PASSWORD);
      expect(waiting.status).toBe(429);
      expect(waiting.headers.get('retry-after')).not.toBeNull();
      expect(bannerOf(await waiting.text())).toMatch(/^Too many attempts/);
      expect(
        await storedRow(limited, 'SELECT id FROM accounts WHERE id = ?', member.accountId),
      ).toBeDefined();
    } finally {
      limited.remove();
      cleanup();
    }
  });
});
