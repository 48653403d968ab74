// The moderators' side of reports (docs/product.md section 8) in-process: /moderate/reports
// (moderators only, grouped by ad, hidden and urgent first, never who reported), and its actions
// as plain form posts and JSON: dismiss (a hidden ad goes back), remove (a member's ad, an
// editor's), ban; each logged; of two moderators one wins and the other gets 409. The /moderate
// queue's block of hidden ads and the poster's reports count.
import { describe, expect, test } from 'vitest';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { emailPattern, oneWentThrough } from '../../helpers/moderation.ts';
import { bannerOf, headingOf } from '../../helpers/pages.ts';
import {
  reportTaken,
  editorAdIds,
  hiddenRows,
  insertConversation,
  insertLiveAd,
  reportForm,
  reportRows,
  textOf,
  conversationReportRows,
} from '../../helpers/reports.ts';
import { moderatePath, moderateReportsApiPath, moderateReportsPath } from '../../../core/paths.ts';

const t = moderationWorld({ moderators: 2, publishedAds: true, trustProxy: 1 });
const [moderator, second] = t.moderators;

let addressCounter = 0;
const newAddress = () => `192.0.2.${++addressCounter}`;

/** Reports the ad from `count` new addresses, with these reasons in turn. */
async function reportFrom(adId: number, reasons: string[], note = '') {
  for (const reason of reasons) {
    const response = await reportForm(
      t.app,
      { ad: String(adId), reason, note },
      { address: newAddress() },
    );
    expect(response.status).toBe(303);
  }
}

async function reportsPage(session = moderator.session) {
  const response = await t.getPage(moderateReportsPath(), session);
  expect(response.status).toBe(200);
  return response.text();
}

/** The group's form fields as the page shows them. */
function groupFields(html: string, key: string) {
  const id = key.replace(/:/g, '-');
  const start = html.indexOf(`id="${id}"`);
  expect(start, `group ${key} on the page`).toBeGreaterThan(-1);
  const seen = /name="seen" value="(\d+)"/.exec(html.slice(start))![1]!;
  return { group: key, seen };
}

const resolve = (fields: Record<string, string>, session = moderator.session) =>
  t.postForm(moderateReportsApiPath(), fields, session);

describe('who sees it', () => {
  test("anyone but a moderator: the site's not-found page, and the action is an unknown API path", async () => {
    const member = await t.signUpMember('curious');
    for (const session of [undefined, member.session]) {
      const page = await t.getPage(moderateReportsPath(), session);
      expect(page.status).toBe(404);
      expect(headingOf(await page.text())).toBe('Page Not Found');
      const action = await t.postJson(
        moderateReportsApiPath(),
        { group: 'ad:1', seen: 1, action: 'dismiss' },
        session,
      );
      expect(action.status).toBe(404);
      expect(await action.json()).toEqual({ error: 'There is no such API endpoint.' });
    }
  });
});

describe('the list', () => {
  test('grouped by ad, under 18 first, then hidden; reasons, notes and times, never the reporter', async () => {
    const { poster, id: plain } = await t.liveAd('listed', { title: 'Plain report' });
    const hidden = await insertLiveAd(t, {
      accountId: poster.accountId,
      title: 'Hidden by three',
    });
    const urgent = await insertLiveAd(t, { accountId: poster.accountId, title: 'Urgent one' });
    await reportFrom(plain, ['spam'], 'Seen it twice.');
    await reportFrom(hidden, ['spam', 'commercial', 'other']);
    const member = await t.signUpMember('member-reporter');
    await reportTaken(
      t.app,
      { ad: String(urgent), reason: 'under-18' },
      { session: member.session },
    );

    const html = await reportsPage();
    expect(headingOf(html)).toBe('Reports');
    const order = [urgent, hidden, plain].map((id) => html.indexOf(`id="ad-${id}"`));
    expect(order.every((at) => at > -1)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const text = textOf(html);
    expect(text).toContain('Hidden: may involve someone under 18');
    expect(text).toContain('Hidden: reported by 3 people');
    expect(text).toContain('Scam or spam');
    expect(text).toContain('Seen it twice.');
    expect(text).toContain('From a visitor');
    expect(text).toContain('From a member');
    expect(text).not.toContain(member.email);
    expect(text).toContain(poster.email);
    // The /moderate queue: the block of hidden ads, the Reports link, the poster's reports.
    const queue = textOf(await (await t.getPage(moderatePath(), moderator.session)).text());
    expect(queue).toMatch(
      /\d+ ads? hidden by reports waits? for a decision ?, (\d+ of them |all )?reported as possibly involving someone under 18/,
    );
    expect(queue).toMatch(/Reports \(\d+\)/);
  });

  test("the queue shows the poster's reports beside their history", async () => {
    const { poster, id: live } = await t.liveAd('history');
    await reportFrom(live, ['spam', 'other']);
    const { insertAdInReview } = await import('../../helpers/moderation.ts');
    const waiting = await insertAdInReview(t, {
      accountId: poster.accountId,
      title: 'Waiting',
    });
    const html = await (await t.getPage(moderatePath(), moderator.session)).text();
    const start = html.indexOf(`id="ad-${waiting}"`);
    expect(textOf(html.slice(start, html.indexOf('</li>', start)))).toContain(
      '1 ad approved, 0 rejected, 0 removed; 2 reports against their ads and messages',
    );
  });
});

describe('actions', () => {
  test('dismiss: reports resolved, a hidden ad unhidden and published back, logged', async () => {
    const { id } = await t.liveAd('dismissed');
    await reportFrom(id, ['under-18']);
    expect(await hiddenRows(t.sql, id)).toHaveLength(1);
    const published = t.publisher.reasons.length;
    const response = await t.decideOnReports(`ad:${id}`, { action: 'dismiss' }, moderator.session);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `/moderate/reports?done=dismissed&count=1&ad=${id}&back=1`,
    );
    const after = await t.getPage(response.headers.get('location')!, moderator.session);
    const html = await after.text();
    expect(bannerOf(html)).toBe(
      `1 report about ad ${id} dismissed. The ad goes back on the site within a minute.`,
    );
    expect(html).not.toContain(`id="ad-${id}"`);
    expect(await hiddenRows(t.sql, id)).toHaveLength(0);
    expect(await reportRows(t.sql, id)).toEqual([
      expect.objectContaining({ resolution: 'dismissed', resolved_by: moderator.accountId }),
    ]);
    expect(t.publisher.reasons.slice(published)).toEqual([`dismissed the reports of ad ${id}`]);
    expect((await t.storedAd(id)).status).toBe('live');
    expect((await t.logRows()).filter((row) => row.ad_id === id).map((row) => row.action)).toEqual([
      'hide',
      'dismiss',
    ]);
  });

  test("remove a member's ad: removed as the queue removes, mailed, logged, published", async () => {
    const { poster, id } = await t.liveAd('removed', { title: 'To be removed' });
    await reportFrom(id, ['commercial']);
    const published = t.publisher.reasons.length;
    const response = await t.decideOnReports(
      `ad:${id}`,
      { action: 'remove', reason: 'commercial', note: 'Asks for gifts.' },
      moderator.session,
    );
    expect(response.status).toBe(303);
    expect(await t.storedAd(id)).toMatchObject({
      status: 'removed',
      rejected_reason: 'Commercial or paid content',
    });
    expect((await reportRows(t.sql, id))[0]).toMatchObject({ resolution: 'removed' });
    expect(t.publisher.reasons.slice(published)).toEqual([`removed ad ${id} after reports`]);
    expect((await t.logRows()).filter((row) => row.ad_id === id).map((row) => row.action)).toEqual([
      'remove',
    ]);
    const mails = (await t.mailsOf(poster.email)).filter(
      (mail) => mail.subject === 'Your ad was removed',
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('Asks for gifts.');
  });

  test("remove an editor's ad: hidden for good, with a note for content/ads/", async () => {
    const id = editorAdIds()[0]!;
    await reportFrom(id, ['spam']);
    const response = await t.decideOnReports(
      `ad:${id}`,
      { action: 'remove', reason: 'spam' },
      moderator.session,
    );
    expect(response.status).toBe(303);
    expect(await hiddenRows(t.sql, id)).toEqual([
      expect.objectContaining({ kind: 'editor', why: 'removed' }),
    ]);
    const html = await (
      await t.getPage(response.headers.get('location')!, moderator.session)
    ).text();
    expect(bannerOf(html)).toContain('delete its row from content/ads/ too');
    const log = (await t.logRows()).filter((row) => row.ad_id === id);
    expect(log.at(-1)).toMatchObject({ action: 'remove', account_id: null });
    expect(log.at(-1)!.note).toContain('content/ads/');
    // Ban is not offered for an editor's ad, and refused if asked.
    const ban = await t.postJson(
      moderateReportsApiPath(),
      { group: `ad:${editorAdIds()[1]!}`, seen: 1, action: 'ban', reason: 'spam' },
      moderator.session,
    );
    expect([400, 404, 409]).toContain(ban.status);
  });

  test('ban: the account banned, its ads removed, reports closed, all logged', async () => {
    const { poster, id } = await t.liveAd('banned');
    await reportFrom(id, ['harassment']);
    const response = await t.decideOnReports(
      `ad:${id}`,
      { action: 'ban', reason: 'spam' },
      moderator.session,
    );
    expect(response.status).toBe(303);
    const account = (await t.store.accounts.findById(poster.accountId))!;
    expect(account.bannedAt).not.toBeNull();
    expect((await t.storedAd(id)).status).toBe('removed');
    expect((await reportRows(t.sql, id))[0]).toMatchObject({ resolution: 'banned' });
    const actions = (await t.logRows())
      .filter((row) => row.account_id === poster.accountId)
      .map((row) => row.action);
    expect(actions).toEqual(['ban', 'remove']);
  });

  test('a reported conversation: the thread shown, the reported member banned', async () => {
    const poster = await t.signUpMember('thread-poster');
    const replier = await t.signUpMember('thread-replier');
    const adId = await insertLiveAd(t, { accountId: poster.accountId, title: 'Book club' });
    const conversation = await insertConversation(t, {
      adId,
      posterId: poster.accountId,
      replierId: replier.accountId,
      messages: [[replier.accountId, 'You will regret ignoring me.']],
    });
    await reportTaken(
      t.app,
      { conversation: String(conversation), reason: 'harassment' },
      { session: poster.session },
    );
    const key = `conversation:${conversation}:${replier.accountId}`;
    const html = await reportsPage();
    const text = textOf(html);
    expect(text).toContain('Conversation about “Book club”');
    expect(text).toContain('You will regret ignoring me.');
    expect(text).toContain(replier.email);
    expect(text).not.toContain(poster.email);
    const response = await resolve({
      ...groupFields(html, key),
      action: 'ban',
      reason: 'other',
      note: 'Threats.',
    });
    expect(response.status).toBe(303);
    expect((await conversationReportRows(t.sql, conversation))[0]).toMatchObject({
      resolution: 'banned',
    });
    const banned = (await t.store.accounts.findById(replier.accountId))!;
    expect(banned.bannedAt).not.toBeNull();
    expect((await t.storedAd(adId)).status).toBe('live');
  });

  test('two moderators on one group: one wins, the other gets 409 "already handled"; nothing twice', async () => {
    const { id } = await t.liveAd('race');
    await reportFrom(id, ['spam', 'spam', 'spam']);
    const fields = groupFields(await reportsPage(), `ad:${id}`);
    const published = t.publisher.reasons.length;
    const [dismiss, remove] = await Promise.all([
      resolve({ ...fields, action: 'dismiss' }, moderator.session),
      resolve({ ...fields, action: 'remove', reason: 'spam' }, second.session),
    ]);
    const { winner, refused } = oneWentThrough([dismiss, remove], [moderator, second], 303);
    const html = await refused.text();
    expect(headingOf(html)).toBe('Reports');
    expect(bannerOf(html)).toMatch(
      new RegExp(`^These reports were already handled by ${emailPattern(winner)}, who `),
    );
    const decisions = (await t.logRows()).filter(
      (row) => row.ad_id === id && row.action !== 'hide',
    );
    expect(decisions).toHaveLength(1);
    // Dismissing brings the hidden ad back: one publish. Removing it keeps it off the site, where
    // it already is: none. Which of the two wins is the race's (on PostgreSQL either may).
    expect(t.publisher.reasons.slice(published)).toEqual(
      dismiss.status === 303 ? [`dismissed the reports of ad ${id}`] : [],
    );
    expect(new Set((await reportRows(t.sql, id)).map((row) => row.resolution)).size).toBe(1);
  });

  test('a report that arrived after the page was opened: 409, nothing changed', async () => {
    const { id } = await t.liveAd('stale');
    await reportFrom(id, ['spam']);
    const fields = groupFields(await reportsPage(), `ad:${id}`);
    await reportFrom(id, ['other']);
    const response = await resolve({ ...fields, action: 'dismiss' });
    expect(response.status).toBe(409);
    expect(bannerOf(await response.text())).toMatch(
      /^New reports arrived since you opened the page/,
    );
    expect((await reportRows(t.sql, id)).every((row) => row.resolved_at === null)).toBe(true);
  });

  test('bad input: no reason for remove, an unknown group: clear answers', async () => {
    const { id } = await t.liveAd('bad-input');
    await reportFrom(id, ['spam']);
    const fields = groupFields(await reportsPage(), `ad:${id}`);
    const noReason = await resolve({ ...fields, action: 'remove' });
    expect(noReason.status).toBe(400);
    expect(bannerOf(await noReason.text())).toBe('Choose a reason: the member is told why.');
    const unknown = await t.postJson(
      moderateReportsApiPath(),
      { group: 'ad:123456789', seen: 5, action: 'dismiss' },
      moderator.session,
    );
    expect(unknown.status).toBe(404);
    expect((await t.storedAd(id)).status).toBe('live');
  });
});
