// Statements of reasons and appeals (issue 30 items 1–3), in-process on a real store, every form as
// a plain POST: a moderator removes a member's live ad, the member reads the clause, the facts, the
// trigger and the appeal link on /account and in the mail, appeals, the same moderator is refused
// (403, and not offered the buttons), another reverses it: the ad is live again, published, and the
// member is mailed. The same for a ban (the banned member reads and appeals through the mail's
// link, then signs in again). An appeal upheld with a reason; two moderators deciding one appeal
// at once; a hide by reports explained as automatic; reporters hearing back on /account.
import { describe, expect, test } from 'vitest';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { cookieHeader, ORIGIN, PASSWORD, postJson } from '../../helpers/api.ts';
import { signUpModerator } from '../../helpers/moderation.ts';
import { reportTaken } from '../../helpers/reports.ts';
import { bannerOf } from '../../helpers/pages.ts';
import { textOf } from '../../helpers/html-text.ts';
import {
  accountPath,
  appealApiPath,
  decideAppealApiPath,
  moderateAppealsPath,
  moderatePath,
  signinApiPath,
} from '../../../core/paths.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

const t = moderationWorld({ moderators: 2, publishedAds: true });
const [moderatorA, moderatorB] = t.moderators;

/** The text of a page without tags, white space folded. */

async function pageOf(path: string, session?: string) {
  const response = await t.getPage(path, session);
  return { status: response.status, html: await response.text() };
}

const statementIdOf = (html: string) => Number(/\/account\/decisions\/(\d+)/.exec(html)?.[1]);

describe('an ad removed, appealed and reversed', () => {
  test('the member sees the clause, facts, trigger and appeal link; another moderator reverses', async () => {
    const { poster, id: adId } = await t.liveAd('removed-poster', {
      title: 'Dinner and a walk by the river',
      description: 'Generous gentleman seeks company for dinners.',
    });
    const removed = await t.decideOnAd(
      adId,
      'remove',
      { reason: 'commercial', note: 'Reads as paid company.' },
      moderatorA.session,
    );
    expect(removed.status).toBe(303);

    // On /account: the statement, whole.
    const account = await pageOf(accountPath(), poster.session);
    expect(account.status).toBe(200);
    const text = textOf(account.html);
    expect(text).toContain('Your ad “Dinner and a walk by the river” was removed.');
    expect(account.html).toContain('href="/terms#clause-4-1"');
    expect(text).toContain('Clause 4.1 of the terms: No commercial sexual services');
    expect(text).toContain('Generous gentleman seeks company for dinners.');
    expect(text).toContain('Reads as paid company.');
    expect(text).toContain("A moderator's own review.");
    expect(text).toContain('Decided by a moderator, not by automatic means.');
    expect(text).toMatch(/You can appeal until \w+ \d+, \d{4}/);
    const statementId = statementIdOf(account.html);
    expect(statementId).toBeGreaterThan(0);

    // The mail: the clause's link and the appeal's.
    const [mail] = (await t.mailsOf(poster.email)).filter(
      (m) => m.subject === 'Your ad was removed',
    );
    expect(mail!.text).toContain('http://localhost/terms#clause-4-1');
    expect(mail!.text).toContain(`http://localhost/account/decisions/${statementId}?key=`);
    expect(mail!.text).toContain("What prompted it: A moderator's own review.");

    // Only the member: anyone else finds nothing.
    const stranger = await t.signUpMember('stranger');
    expect((await pageOf(`/account/decisions/${statementId}`, stranger.session)).status).toBe(404);
    expect((await pageOf(`/account/decisions/${statementId}`)).status).toBe(404);
    expect((await t.appeal(statementId, 'Not mine but let me try', stranger.session)).status).toBe(
      404,
    );
    const own = await pageOf(`/account/decisions/${statementId}`, poster.session);
    expect(own.status).toBe(200);
    expect(own.html).toContain(`action="${appealApiPath(statementId)}"`);

    // Appeals, once; a second is refused on the form page.
    const filed = await t.appeal(statementId, 'It is a dinner date, nothing paid.', poster.session);
    expect(filed.status).toBe(303);
    expect(filed.headers.get('location')).toBe(`/account/decisions/${statementId}?done=appealed`);
    const again = await t.appeal(statementId, 'Once more.', poster.session);
    expect(again.status).toBe(409);
    expect(bannerOf(await again.text())).toContain('appealed this decision already');
    expect(textOf((await pageOf(accountPath(), poster.session)).html)).toContain('In review');

    // The moderator who decided: not offered to decide, and refused.
    const appealId = await t.appealIdOf(statementId);
    const listA = await pageOf(moderateAppealsPath(), moderatorA.session);
    expect(textOf(listA.html)).toContain('It is a dinner date, nothing paid.');
    expect(textOf(listA.html)).toContain('You made this decision');
    expect(listA.html).not.toContain(decideAppealApiPath(appealId));
    const refused = await t.decideAppeal(appealId, { outcome: 'reversed' }, moderatorA.session);
    expect(refused.status).toBe(403);
    expect(textOf((await pageOf(moderatePath(), moderatorB.session)).html)).toMatch(
      /\d+ appeals? waits? for a moderator/,
    );

    // Another reverses: live again at once, published, mailed, logged.
    const listB = await pageOf(moderateAppealsPath(), moderatorB.session);
    expect(listB.html).toContain(decideAppealApiPath(appealId));
    t.publisher.reasons.length = 0;
    const reversed = await t.decideAppeal(appealId, { outcome: 'reversed' }, moderatorB.session);
    expect(reversed.status).toBe(303);
    expect((await t.storedAd(adId)).status).toBe('live');
    expect(t.publisher.reasons).toEqual([`reversed on appeal: ad ${adId} live again`]);
    const outcome = (await t.mailsOf(poster.email)).find(
      (m) => m.subject === 'Your appeal succeeded',
    );
    expect(outcome?.text).toContain('The decision is undone.');
    const last = (await t.logRows()).at(-1)!;
    expect(last).toMatchObject({ action: 'reverse-appeal', ad_id: adId });
    expect(last.moderator_email).toBe(moderatorB.email);
    expect(textOf((await pageOf(accountPath(), poster.session)).html)).toContain('Reversed');
    // Decided once.
    expect(
      (await t.decideAppeal(appealId, { outcome: 'upheld', reply: 'x' }, moderatorB.session))
        .status,
    ).toBe(409);
  });
});

describe('a ban, appealed through its mail and reversed', () => {
  test('the banned member reads and appeals by the link, another moderator unbans', async () => {
    const { poster, id: adId } = await t.liveAd('banned-poster', { title: 'Board games' });
    const banned = await t.ban(
      poster.accountId,
      { reason: 'spam', note: 'Mass posting.' },
      moderatorA.session,
    );
    expect(banned.status).toBe(303);
    const [mail] = (await t.mailsOf(poster.email)).filter((m) => m.subject.endsWith('was closed'));
    expect(mail!.text).toContain('http://localhost/terms#clause-4-5');
    const link = /http:\/\/localhost(\/account\/decisions\/(\d+)\?key=(\w+))/.exec(mail!.text)!;
    const [, path, id, key] = link;
    const statementId = Number(id);

    // The member cannot sign in; the link shows the statement, without it nothing.
    const page = await pageOf(path!);
    expect(page.status).toBe(200);
    expect(textOf(page.html)).toContain('Your account was closed.');
    expect(textOf(page.html)).toContain('Clause 4.5 of the terms: No spam');
    expect((await pageOf(`/account/decisions/${statementId}`)).status).toBe(404);
    expect((await pageOf(`/account/decisions/${statementId}?key=${'0'.repeat(32)}`)).status).toBe(
      404,
    );
    expect((await t.appeal(statementId, 'I posted once per city.')).status).toBe(404);
    const filed = await t.appeal(statementId, 'I posted once per city.', undefined, key);
    expect(filed.status).toBe(303);
    expect(textOf((await pageOf(path!)).html)).toContain('In review');

    const appealId = await t.appealIdOf(statementId);
    expect(
      (await t.decideAppeal(appealId, { outcome: 'reversed' }, moderatorA.session)).status,
    ).toBe(403);
    t.publisher.reasons.length = 0;
    expect(
      (await t.decideAppeal(appealId, { outcome: 'reversed' }, moderatorB.session)).status,
    ).toBe(303);

    const account = (await t.store.accounts.findById(poster.accountId))!;
    expect(account.bannedAt).toBeNull();
    expect(
      await storedRow(t, 'SELECT email FROM banned_emails WHERE email = ?', poster.email),
    ).toBeUndefined();
    expect((await t.storedAd(adId)).status).toBe('live');
    expect(t.publisher.reasons[0]).toContain(`account ${poster.accountId} unbanned`);
    expect((await t.mailsOf(poster.email)).some((m) => m.subject === 'Your appeal succeeded')).toBe(
      true,
    );
    const signedIn = await postJson(t.app, signinApiPath(), {
      email: poster.email,
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(200);
    const session = /lb_session=([^;]+)/.exec(signedIn.headers.get('set-cookie') ?? '')![1]!;
    const home = await t.app.request(`${ORIGIN}/account`, { headers: cookieHeader(session) });
    expect(textOf(await home.text())).toContain('Reversed');
  });
});

describe('an appeal upheld, and two moderators at once', () => {
  test('upheld: the member reads the reason; a reply is required to uphold', async () => {
    const { poster, id: adId } = await t.adInReview('upheld-poster', {
      title: 'Call me',
      description: 'Text me on five five five.',
    });
    await t.decideOnAd(adId, 'reject', { reason: 'contact' }, moderatorA.session);
    const statementId = statementIdOf((await pageOf(accountPath(), poster.session)).html);
    expect(textOf((await pageOf(accountPath(), poster.session)).html)).toContain(
      'Your ad “Call me” was not approved.',
    );
    // The ad's own screen links to the statement too.
    const edit = await pageOf(`/account/ads/${adId}/edit`, poster.session);
    expect(edit.html).toContain(`href="/account/decisions/${statementId}"`);
    await t.appeal(statementId, 'There is no number in it.', poster.session);
    const appealId = await t.appealIdOf(statementId);
    const noReply = await t.decideAppeal(appealId, { outcome: 'upheld' }, moderatorB.session);
    expect(noReply.status).toBe(400);
    expect(bannerOf(await noReply.text())).toContain('Say why the decision stands');
    const upheld = await t.decideAppeal(
      appealId,
      { outcome: 'upheld', reply: 'A number spelled out is still a number.' },
      moderatorB.session,
    );
    expect(upheld.status).toBe(303);
    expect((await t.storedAd(adId)).status).toBe('rejected');
    const text = textOf((await pageOf(accountPath(), poster.session)).html);
    expect(text).toContain('Upheld');
    expect(text).toContain('A number spelled out is still a number.');
  });

  test('two moderators deciding one appeal at once: exactly one succeeds', async () => {
    const moderatorC = await signUpModerator(t.app, t.store);
    const { poster, id: adId } = await t.liveAd('race-poster', { title: 'Race ad' });
    await t.decideOnAd(adId, 'remove', { reason: 'spam' }, moderatorA.session);
    const statementId = statementIdOf((await pageOf(accountPath(), poster.session)).html);
    await t.appeal(statementId, 'Please look again.', poster.session);
    const appealId = await t.appealIdOf(statementId);
    const statuses = await Promise.all([
      t.decideAppeal(appealId, { outcome: 'reversed' }, moderatorB.session),
      t.decideAppeal(appealId, { outcome: 'upheld', reply: 'It stands.' }, moderatorC.session),
    ]).then((answers) => answers.map((answer) => answer.status).sort());
    expect(statuses).toEqual([303, 409]);
    const decisions = (await t.logRows()).filter(
      (row) => row.action.endsWith('-appeal') && row.note?.startsWith(`Appeal ${appealId} `),
    );
    expect(decisions).toHaveLength(1);
  });
});

describe('reports: the automatic hide explained, and reporters hearing back', () => {
  test('a hide by reports is an automatic rule; reporters see open, then action taken', async () => {
    const { poster, id: adId } = await t.liveAd('hidden-poster', { title: 'Reported ad' });
    const reporters = await Promise.all([1, 2, 3].map((n) => t.signUpMember(`reporter-${n}`)));
    for (const reporter of reporters)
      await reportTaken(t.app, { ad: String(adId), reason: 'spam' }, { session: reporter.session });
    const text = textOf((await pageOf(accountPath(), poster.session)).html);
    expect(text).toContain('was taken off the site after reports.');
    expect(text).toContain('Clause 7 of the terms: Reporting');
    expect(text).toContain('Scam or spam (3). We never say who reported.');
    expect(text).toContain('An automatic rule, after reports from members.');
    expect(text).toContain('Automatic: no person decided.');
    for (const reporter of reporters) expect(text).not.toContain(reporter.email);

    const mine = textOf((await pageOf(accountPath(), reporters[0]!.session)).html);
    expect(mine).toContain('You reported the ad “Reported ad”');
    expect(mine).toContain('Open: a moderator will look at it');
    expect(mine).not.toContain(poster.email);

    const removed = await t.decideOnReports(
      `ad:${adId}`,
      { action: 'remove', reason: 'spam' },
      moderatorA.session,
    );
    expect(removed.status).toBe(303);
    expect(textOf((await pageOf(accountPath(), reporters[1]!.session)).html)).toContain(
      'Action taken',
    );
    // The removal's statement names the reports as its trigger.
    expect(textOf((await pageOf(accountPath(), poster.session)).html)).toContain(
      'Reports from members, which a moderator reviewed.',
    );
  });

  test("a visitor's report confirmation says they will not be told; a member's points to /account", async () => {
    const visitor = await pageOf('/report?sent=1');
    expect(textOf(visitor.html)).toContain('we cannot tell you what becomes of your report');
    const member = await t.signUpMember('confirmed');
    const signedIn = await pageOf('/report?sent=1', member.session);
    expect(textOf(signedIn.html)).toContain('shows what becomes of it');
  });
});
