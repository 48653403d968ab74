// Moderation actions in-process on a real SQLite file: approve, reject with a reason, remove and
// ban, each as a plain form post (303 back to the queue with a notice) and as JSON; what they
// change in the rows, the log rows they write, the mails the member gets and the publishing they
// ask for. The queue itself: oldest first, marks highlighted, the poster's history.
import { describe, expect, test } from 'vitest';
import { ACCOUNT_CLOSED } from '../../../server/accounts/sign-in.ts';
import {
  cookieHeader,
  ORIGIN,
  PASSWORD,
  postJson,
  signupBody,
  todayUtc,
} from '../../helpers/api.ts';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { insertAdInReview, insertLiveAdWithEdit } from '../../helpers/moderation.ts';
import { bannerOf } from '../../helpers/pages.ts';
import { deleteAccountOf } from '../../helpers/posting.ts';
import { textOf } from '../../helpers/html-text.ts';
import {
  banAccountApiPath,
  meApiPath,
  moderateAdApiPath,
  moderatePath,
  moderationLogPath,
  signinApiPath,
  signupApiPath,
} from '../../../core/paths.ts';

const t = moderationWorld({ moderators: 1 });
const [moderator] = t.moderators;

const plusDays = (day: string, days: number) => {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

/** The text of the page without tags, white space folded. */

async function queueHtml() {
  const response = await t.getPage(moderatePath(), moderator.session);
  expect(response.status).toBe(200);
  return response.text();
}

describe('the queue', () => {
  test('lists ads in review oldest first, as they will look, with the marks highlighted and the poster', async () => {
    const { poster, id: newer } = await t.adInReview('queue', {
      title: 'Newer ad title',
      submittedMinutesAgo: 100_000,
    });
    const older = await insertAdInReview(t, {
      accountId: poster.accountId,
      title: 'Flower arrangement class partner',
      description: 'Generous with my time.\nLooking for a friend for the flower arrangement class.',
      marks: [
        { field: 'title', term: 'arrangement', start: 7, end: 18 },
        { field: 'description', term: 'generous', start: 0, end: 8 },
      ],
      submittedMinutesAgo: 200_000,
    });
    const html = await queueHtml();
    expect(html.indexOf(`id="ad-${older}"`)).toBeGreaterThan(-1);
    expect(html.indexOf(`id="ad-${older}"`)).toBeLessThan(html.indexOf(`id="ad-${newer}"`));
    const item = html.slice(html.indexOf(`id="ad-${older}"`), html.indexOf(`id="ad-${newer}"`));
    // The ad page's own markup (AdDetail), with the scanner's words in <mark>.
    // The class is what is checked here: the queue shows the ad through the ad page's component.
    expect(item).toContain('class="ad-detail"');
    expect(item).toMatch(/Flower <mark\b[^>]*>arrangement<\/mark> class partner/);
    expect(item).toMatch(/<mark\b[^>]*>Generous<\/mark> with my time\./);
    const flags = item.slice(
      item.indexOf('queue-item__flags'),
      item.indexOf('</p>', item.indexOf('queue-item__flags')),
    );
    expect(textOf(flags)).toContain('Flagged for a closer look:');
    expect(flags).toMatch(/<mark\b[^>]*>arrangement<\/mark>/);
    expect(flags).toMatch(/<mark\b[^>]*>generous<\/mark>/);
    expect(textOf(item)).toContain(`Posted in Los Angeles, California`);
    // The poster: email, when they joined, their history (nothing decided yet).
    expect(textOf(item)).toContain(poster.email);
    expect(textOf(item)).toContain('(today)');
    expect(textOf(item)).toContain('0 ads approved, 0 rejected, 0 removed');
    // Plain forms that work without JavaScript, each carrying the revision shown.
    expect(item).toContain(`action="${moderateAdApiPath(older, 'approve')}"`);
    expect(item).toContain(`action="${moderateAdApiPath(older, 'reject')}"`);
    expect(item).toContain('name="revision" value="1"');
    expect(item).toContain('<option value="under-18">Appears to involve someone under 18</option>');
    expect(item).toContain(`href="/moderate?ban=${poster.accountId}#ban"`);
  });

  test('names the scam signals in an ad by family, in words, beside the marked words', async () => {
    const { id } = await t.adInReview('scam-signals', {
      title: 'Coffee and a walk',
      description: 'Add me on kik first.',
      marks: [
        {
          field: 'description',
          term: 'off-site contact',
          family: 'off-site-contact',
          start: 10,
          end: 13,
        },
      ],
    });
    const html = await queueHtml();
    const item = html.slice(html.indexOf(`id="ad-${id}"`));
    const text = textOf(item.slice(0, item.indexOf('</li>')));
    expect(text).toContain('The policy scanner flagged no words.');
    expect(text).toContain(
      'Scam signals: off-site contact . Scammers use these to ask for money or move people off the site',
    );
    expect(item).toMatch(
      /Add me on <mark\b[^>]*title="Scam signal: off-site contact">kik<\/mark> first\./,
    );
  });

  test('is answered with no-store, never cached', async () => {
    const response = await t.getPage(moderatePath(), moderator.session);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await t.getPage(moderationLogPath(), moderator.session)).toHaveProperty('status', 200);
  });
});

describe('approve', () => {
  test('a new ad: live, approved now, posted today, expires in 30 days; logged; mailed; published', async () => {
    const { poster, id } = await t.adInReview('approve', { title: 'Board games on Sunday' });
    const response = await t.postForm(
      moderateAdApiPath(id, 'approve'),
      { revision: '1' },
      moderator.session,
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/moderate?done=approved&ad=${id}`);

    const ad = await t.storedAd(id);
    expect(ad.status).toBe('live');
    expect(ad.posted_on).toBe(todayUtc());
    expect(ad.expires_on).toBe(plusDays(todayUtc(), 30));
    expect(Date.now() - Date.parse(ad.approved_at!)).toBeLessThan(60_000);
    expect(ad.revision).toBe(2);

    const log = (await t.logRows()).filter((row) => row.ad_id === id);
    expect(log).toEqual([
      expect.objectContaining({
        action: 'approve',
        moderator_id: moderator.accountId,
        moderator_email: moderator.email,
        account_id: poster.accountId,
        account_email: poster.email,
        reason: null,
      }),
    ]);
    expect(t.publisher.reasons).toContain(`approved ad ${id}`);

    const [mail, ...more] = await t.mailsOf(poster.email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('Your ad is approved');
    expect(mail!.text).toContain('“Board games on Sunday”');
    expect(mail!.text).toContain(`http://localhost/city/California/Los%20Angeles/ad/${id}`);
    expect(mail!.raw).not.toContain(moderator.email);

    // The queue after the redirect: the notice, and the ad gone from it.
    const after = await t.getPage(`/moderate?done=approved&ad=${id}`, moderator.session);
    const html = await after.text();
    expect(bannerOf(html)).toBe(
      `Ad ${id} approved. The member has been emailed, and the site shows it within a minute.`,
    );
    expect(html).not.toContain(`id="ad-${id}"`);
  });

  test('a pending edit of a live ad: the edit becomes the ad, pending cleared, expiry kept', async () => {
    const { poster, id } = await t.liveAdWithEdit('edit', {
      title: 'Old title',
      pendingTitle: 'New title with roses',
      pendingMarks: [{ field: 'title', term: 'roses', start: 15, end: 20 }],
    });
    const before = await t.storedAd(id);
    const item = await queueHtml();
    const shown = item.slice(item.indexOf(`id="ad-${id}"`));
    expect(textOf(shown)).toContain('Edit of a live ad');
    expect(textOf(shown)).toContain('The edit changes the title.');
    expect(shown).toMatch(/New title with <mark\b[^>]*>roses<\/mark>/);
    expect(textOf(shown)).toContain('The live ad as it is now Old title');

    const response = await t.postJson(
      moderateAdApiPath(id, 'approve'),
      { revision: before.revision },
      moderator.session,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ adId: id, status: 'live', edit: true });
    const ad = await t.storedAd(id);
    expect(ad).toMatchObject({
      status: 'live',
      title: 'New title with roses',
      pending_title: null,
      pending_description: null,
      expires_on: before.expires_on,
      posted_on: before.posted_on,
      marks: JSON.stringify([{ field: 'title', term: 'roses', start: 15, end: 20 }]),
    });
    expect((await t.logRows()).filter((row) => row.ad_id === id).map((row) => row.action)).toEqual([
      'approve-edit',
    ]);
    expect(t.publisher.reasons).toContain(`approved the edit of ad ${id}`);
    expect((await t.mailsOf(poster.email)).map((mail) => mail.subject)).toEqual([
      'Your changes are live',
    ]);
  });
});

describe('reject', () => {
  test('a new ad with a reason and a note: rejected, both stored, logged and mailed; nothing published', async () => {
    const { poster, id } = await t.adInReview('reject');
    const published = t.publisher.reasons.length;
    const response = await t.postForm(
      moderateAdApiPath(id, 'reject'),
      { revision: '1', reason: 'contact', note: 'Please remove the phone number.' },
      moderator.session,
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/moderate?done=rejected&ad=${id}`);
    expect(await t.storedAd(id)).toMatchObject({
      status: 'rejected',
      rejected_reason: 'Contact details in the ad',
      rejected_note: 'Please remove the phone number.',
    });
    expect((await t.logRows()).filter((row) => row.ad_id === id)).toEqual([
      expect.objectContaining({
        action: 'reject',
        reason: 'Contact details in the ad',
        note: 'Please remove the phone number.',
      }),
    ]);
    expect(t.publisher.reasons).toHaveLength(published);
    const [mail] = await t.mailsOf(poster.email);
    expect(mail!.subject).toBe('Your ad was not approved');
    expect(mail!.text).toContain('Reason: Contact details in the ad.');
    expect(mail!.text).toContain("Moderator's note: Please remove the phone number.");
    expect(mail!.text).toContain('http://localhost/account');
  });

  test('a pending edit: the edit is dropped, the live ad stays as it was, the reason stored', async () => {
    const { poster, id } = await t.liveAdWithEdit('reject-edit', {
      title: 'Live title',
      pendingTitle: 'Edited title',
    });
    const before = await t.storedAd(id);
    const response = await t.postJson(
      moderateAdApiPath(id, 'reject'),
      { revision: before.revision, reason: 'spam' },
      moderator.session,
    );
    expect(response.status).toBe(200);
    expect(await t.storedAd(id)).toMatchObject({
      status: 'live',
      title: 'Live title',
      pending_title: null,
      expires_on: before.expires_on,
      rejected_reason: 'Spam or duplicate',
      rejected_note: null,
    });
    expect((await t.logRows()).filter((row) => row.ad_id === id).map((row) => row.action)).toEqual([
      'reject-edit',
    ]);
    const [mail] = await t.mailsOf(poster.email);
    expect(mail!.subject).toBe('Your changes were not approved');
    expect(mail!.text).toContain('stays live as it was');
  });
});

describe('remove a live ad', () => {
  test('takes it off the site: removed, logged, mailed, published', async () => {
    const { poster, id } = await t.liveAdWithEdit('remove', { pendingTitle: 'x' });
    const response = await t.postForm(
      moderateAdApiPath(id, 'remove'),
      { revision: String((await t.storedAd(id)).revision), reason: 'commercial' },
      moderator.session,
    );
    expect(response.status).toBe(303);
    expect(await t.storedAd(id)).toMatchObject({
      status: 'removed',
      pending_title: null,
      rejected_reason: 'Commercial or paid content',
    });
    expect(t.publisher.reasons).toContain(`removed ad ${id}`);
    expect((await t.mailsOf(poster.email)).map((mail) => mail.subject)).toEqual([
      'Your ad was removed',
    ]);
  });
});

describe('ban', () => {
  test('asks to confirm first, with what the ban does', async () => {
    const { poster } = await t.adInReview('confirm');
    const html = await (
      await t.getPage(`/moderate?ban=${poster.accountId}`, moderator.session)
    ).text();
    expect(textOf(html)).toContain(`Ban ${poster.email}?`);
    expect(textOf(html)).toContain('removes its 1 ad in review and 0 live ads');
    expect(html).toContain(`action="${banAccountApiPath(poster.accountId)}"`);
  });

  test('removes all its ads, revokes its sessions, refuses its sign-in and its address at sign-up', async () => {
    const { poster, id: inReview } = await t.adInReview('ban');
    const live = await insertLiveAdWithEdit(t, {
      accountId: poster.accountId,
      pendingTitle: 'y',
    });
    const response = await t.ban(
      poster.accountId,
      { reason: 'commercial', note: 'Offers paid meetings.' },
      moderator.session,
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `/moderate?done=banned&account=${poster.accountId}&removed=2`,
    );
    expect((await t.storedAd(inReview)).status).toBe('removed');
    expect(await t.storedAd(live)).toMatchObject({ status: 'removed', pending_title: null });
    const banned = (await t.store.accounts.findById(poster.accountId))!;
    expect(banned.bannedAt).not.toBeNull();
    expect(t.publisher.reasons).toContain(
      `banned account ${poster.accountId}: removed ads ${live}`,
    );
    const log = (await t.logRows()).filter((row) => row.account_id === poster.accountId);
    expect(log.map((row) => [row.action, row.ad_id])).toEqual([
      ['ban', null],
      ['remove', inReview],
      ['remove', live],
    ]);
    expect(log[0]).toMatchObject({
      reason: 'Commercial or paid content',
      note: 'Offers paid meetings.',
      account_email: poster.email,
    });

    // Signed out everywhere: the old session is no longer anyone.
    const me = await t.app.request(`${ORIGIN}${meApiPath()}`, {
      headers: cookieHeader(poster.session),
    });
    expect(me.status).toBe(401);
    // Sign-in with the right password: told the account is closed, no session.
    const signin = await postJson(t.app, signinApiPath(), {
      email: poster.email,
      password: PASSWORD,
    });
    expect(signin.status).toBe(403);
    expect(await signin.json()).toEqual({ error: ACCOUNT_CLOSED });
    expect(signin.headers.getSetCookie().join()).not.toContain('lb_session=');
    // With a wrong password: the same answer as for anyone.
    const wrong = await postJson(t.app, signinApiPath(), {
      email: poster.email,
      password: 'nope nope',
    });
    expect(wrong.status).toBe(401);
    // The address cannot sign up again (answered as any taken address).
    const again = await postJson(t.app, signupApiPath(), signupBody({ email: poster.email }));
    expect(again.status).toBe(409);

    const notice = await t.getPage(
      `/moderate?done=banned&account=${poster.accountId}&removed=2`,
      moderator.session,
    );
    expect(bannerOf(await notice.text())).toBe(
      `${poster.email} is banned: signed out everywhere, 2 ads removed, and the address cannot sign up again.`,
    );
  });

  test('a banned address stays refused at sign-up even once its account is gone', async () => {
    const poster = await t.signUpMember('gone');
    await t.postJson(banAccountApiPath(poster.accountId), { reason: 'spam' }, moderator.session);
    await deleteAccountOf(t, poster.accountId);
    const again = await postJson(t.app, signupApiPath(), signupBody({ email: poster.email }));
    expect(again.status).toBe(409);
  });
});

describe('the log', () => {
  test('lists every action newest first, with who, what, which ad and account, and why', async () => {
    const html = await (await t.getPage(moderationLogPath(), moderator.session)).text();
    const rows = await t.logRows();
    const newest = rows.at(-1)!;
    const firstRow = html.slice(
      html.indexOf('<tbody>'),
      html.indexOf('</tr>', html.indexOf('<tbody>')),
    );
    expect(textOf(firstRow)).toContain(newest.moderator_email);
    expect(textOf(firstRow)).toContain(`#${newest.account_id}`);
    expect(textOf(html)).toContain('Made a moderator');
    expect(textOf(html)).toContain('operator');
    expect(textOf(html)).toContain('Contact details in the ad Please remove the phone number.');
    expect(textOf(html)).toContain(`(${rows.length} entries)`);
  });

  test('refuses any change or deletion of its rows', async () => {
    expect((await t.logRows()).length).toBeGreaterThan(0);
    // Raw SQL on purpose: what is checked is that the database itself refuses the change.
    await expect(t.sql.run("UPDATE moderation_log SET reason = 'edited'")).rejects.toThrow(
      'the moderation log is append-only',
    );
    await expect(t.sql.run('DELETE FROM moderation_log')).rejects.toThrow(
      'the moderation log is append-only',
    );
    expect((await t.logRows()).some((row) => row.reason === 'edited')).toBe(false);
  });
});
