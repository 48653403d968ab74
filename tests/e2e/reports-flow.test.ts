// Reports end to end (issue 11) on the production build, with the real publisher and a real SQLite
// file, as tests/e2e/member-ad-flow.test.ts runs it: a visitor reports a member's ad three times
// from three addresses and it leaves the site (404 after the publish); one "May involve someone
// under 18" report hides an editor's ad at once; a moderator dismisses the reports and both come
// back (200). Once in Chromium with JavaScript and once without it (every step a plain form post).
// Ban on /moderate/reports asks first, as the queue does: its confirmation step, in Chromium with
// and without JavaScript, and as plain HTTP (the page, then its form posted).
// The server trusts one proxy hop, so each browser context's X-Forwarded-For is its address.
// Then screenshots of /report, /moderate/reports and its ban confirmation at 390 and 1280 px,
// with axe-core.
import type { BrowserContext } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import type { BuildPublisher } from '../../server/publishing/build-publisher.ts';
import {
  adPath,
  moderatePath,
  moderateReportsApiPath,
  moderateReportsPath,
  reportsApiPath,
} from '../../core/paths.ts';
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import { bothWays } from '../helpers/both-ways.ts';
import { gotoEnhanced } from '../helpers/browser-waits.ts';
import { heading, moderatorContext } from '../helpers/e2e-members.ts';
import { approveInStore, insertAdInReview } from '../helpers/moderation.ts';
import {
  overflowWidth,
  screenshot,
  screenshotPath,
  seriousAxeViolations,
} from '../helpers/page-checks.ts';
import { formOf } from '../helpers/pages.ts';
import { chromiumAndPublishingSite, type PublishingSite } from '../helpers/publishing-site.ts';
import { builtAds, textOf } from './support.ts';
import { accountInStore } from '../helpers/store-accounts.ts';
import { storedRow } from '../helpers/stored-rows.ts';

const today = new Date().toISOString().slice(0, 10);
const daysFrom = (days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

let sql: PublishingSite['sql'];
let publisher: BuildPublisher;
let url = '';

const world = chromiumAndPublishingSite({
  label: 'reports-flow',
  trustProxy: 1,
  // Every member ad the tests report, live from the start: one publish, not one per ad.
  beforePublish: async (started) => {
    // The poster of the member ads (as the posting code stores an approved ad).
    const poster = 'reported-poster@example.org';
    const posterId = await accountInStore(started.store, poster);
    for (const [key, title, city] of [
      ['reported-0', 'Reported three times (0)', 'Fresno'],
      ['reported-1', 'Reported three times (1)', 'Modesto'],
      ['screenshot', 'Screenshot ad', 'Stockton'],
    ] as const)
      memberAds.set(key, {
        ...(await approvedMemberAd(started, title, city, posterId)),
        email: poster,
        accountId: posterId,
      });
    // The ban tests' members, an ad each.
    for (const [label, city] of [
      ['ban-js', 'Bakersfield'],
      ['ban-nojs', 'Riverside'],
      ['ban-http', 'Oxnard'],
    ] as const) {
      const email = `${label}@example.org`;
      const accountId = await accountInStore(started.store, email);
      const ad = await approvedMemberAd(started, `Reported member ${label}`, city, accountId);
      memberAds.set(label, { ...ad, email, accountId });
    }
  },
});
beforeAll(() => {
  ({ url, sql, publisher } = world.site);
});

interface MemberAd {
  id: number;
  path: string;
  email: string;
  accountId: number;
}
const memberAds = new Map<string, MemberAd>();

/** A member ad posted and approved through the store (the start-up publish puts it live). */
async function approvedMemberAd(
  started: PublishingSite,
  title: string,
  city: string,
  accountId: number,
): Promise<{ id: number; path: string }> {
  const id = await insertAdInReview(started, {
    accountId,
    city,
    age: 31,
    title,
    description: 'Coffee, a long walk and a good bookshop.',
  });
  await approveInStore(started, id, { postedOn: today, expiresOn: daysFrom(30) });
  return { id, path: adPath('California', city, id) };
}

/** The live member ad made for `key` at start-up (its page answers 200). */
async function liveMemberAd(key: string): Promise<MemberAd> {
  const ad = memberAds.get(key);
  if (!ad) throw new Error(`No member ad ${key}`);
  expect(await status(ad.path)).toBe(200);
  return ad;
}

const status = async (path: string) => (await fetch(`${url}${path}`)).status;

/** An editor's ad live today, the `index`-th of them. */
function editorAd(index: number): CompiledAd {
  const live = builtAds().filter(
    (ad) => ad.postedAt <= today && ad.expiresAt > today && ad.state === 'Texas',
  );
  const ad = live[index];
  if (!ad) throw new Error('Not enough live editor ads in Texas for the test');
  return ad;
}

/** A browser context of a visitor at `address` (behind the trusted proxy). */
const visitorAt = (address: string, javaScriptEnabled: boolean) =>
  world.browser.newContext({ javaScriptEnabled, extraHTTPHeaders: { 'x-forwarded-for': address } });

async function report(
  context: BrowserContext,
  javaScriptEnabled: boolean,
  adPagePath: string,
  reason: string,
  note = '',
) {
  const page = await context.newPage();
  await gotoEnhanced(page, `${url}${adPagePath}`, javaScriptEnabled);
  await page.getByRole('link', { name: 'Report this ad' }).click();
  await page.waitForURL(/\/report\?ad=\d+$/);
  expect(await heading(page)).toBe('Report this ad');
  await page.getByLabel(reason).check();
  if (note) await page.getByLabel('Anything the moderators should know (optional)').fill(note);
  await page.getByRole('button', { name: 'Send the report' }).click();
  await page.waitForURL(`${url}/report?sent=1`);
  expect(textOf(await page.content())).toContain('Thank you, a moderator will look at it.');
  await page.close();
}

async function dismiss(context: BrowserContext, javaScriptEnabled: boolean, adId: number) {
  const page = await context.newPage();
  await gotoEnhanced(page, `${url}/moderate/reports`, javaScriptEnabled);
  const group = page.locator(`#ad-${adId}`);
  await group.getByRole('button', { name: 'Dismiss' }).click();
  await page.waitForURL(/\/moderate\/reports\?done=dismissed/);
  expect(await page.getByRole('status').first().textContent()).toContain(
    'The ad goes back on the site within a minute.',
  );
  await page.close();
}

describe.each([
  ['in Chromium with JavaScript', true, 0],
  ['without JavaScript', false, 1],
])('reports, %s', (_, javaScriptEnabled, run) => {
  const octet = run === 0 ? 10 : 20;

  test('three reporters from three addresses: the ad leaves the site; a dismissal brings it back', async () => {
    const ad = await liveMemberAd(`reported-${run}`);
    for (const [index, reason] of ['Scam or spam', 'Something else', 'Scam or spam'].entries()) {
      const visitor = await visitorAt(`203.0.113.${octet + index}`, javaScriptEnabled);
      await report(
        visitor,
        javaScriptEnabled,
        ad.path,
        reason,
        index === 1 ? 'Looks copied from elsewhere.' : '',
      );
      await visitor.close();
      if (index < 2) expect(await status(ad.path)).toBe(200);
    }
    // The fourth try from the first address is refused: one report per reporter.
    const again = await visitorAt(`203.0.113.${octet}`, javaScriptEnabled);
    const page = await again.newPage();
    await gotoEnhanced(page, `${url}/report?ad=${ad.id}`, javaScriptEnabled);
    await page.getByLabel('Scam or spam').check();
    await page.getByRole('button', { name: 'Send the report' }).click();
    await page.waitForLoadState('load');
    expect(await page.getByRole('alert').textContent()).toContain(
      'You have already reported this.',
    );
    await again.close();

    await publisher.idle();
    expect(await status(ad.path)).toBe(404);
    expect(
      await storedRow(sql, 'SELECT COUNT(*) AS n FROM reports WHERE ad_id = ?', ad.id),
    ).toEqual({
      n: 3,
    });

    const { context: moderator } = await moderatorContext(
      world.browser,
      world.site,
      javaScriptEnabled,
    );
    await dismiss(moderator, javaScriptEnabled, ad.id);
    await moderator.close();
    await publisher.idle();
    expect(await status(ad.path)).toBe(200);
  });

  test('one "May involve someone under 18" hides an editor\'s ad at once; dismissed, it returns', async () => {
    const ad = editorAd(run);
    const path = adPath(ad.state, ad.city, ad.id);
    expect(await status(path)).toBe(200);
    const visitor = await visitorAt(`198.51.100.${octet}`, javaScriptEnabled);
    await report(visitor, javaScriptEnabled, path, 'May involve someone under 18');
    await visitor.close();
    await publisher.idle();
    expect(await status(path)).toBe(404);

    const { context: moderator } = await moderatorContext(
      world.browser,
      world.site,
      javaScriptEnabled,
    );
    const page = await moderator.newPage();
    await gotoEnhanced(page, `${url}/moderate`, javaScriptEnabled);
    expect(await page.locator('.urgent-reports').textContent()).toContain('hidden by reports');
    await page.close();
    await dismiss(moderator, javaScriptEnabled, ad.id);
    await moderator.close();
    await publisher.idle();
    expect(await status(path)).toBe(200);
  });
});

/** A member's live ad reported once (a plain post, as a visitor's browser sends it): its group. */
async function reportedAccount(label: string) {
  const ad = await liveMemberAd(label);
  const posted = await fetch(`${url}${reportsApiPath()}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: url,
      'x-forwarded-for': `192.0.2.${100 + (ad.id % 100)}`,
    },
    body: new URLSearchParams({ ad: String(ad.id), reason: 'harassment' }).toString(),
    redirect: 'manual',
  });
  expect(posted.status).toBe(303);
  const seen = (await storedRow<{ id: number }>(
    sql,
    'SELECT MAX(id) AS id FROM reports WHERE ad_id = ?',
    ad.id,
  ))!.id;
  return { email: ad.email, accountId: ad.accountId, ad, seen };
}

const bannedAt = async (accountId: number) =>
  (await world.site.store.accounts.findById(accountId))!.bannedAt;

describe.each(bothWays())('Ban on /moderate/reports asks first, %s', (_, javaScriptEnabled) => {
  test('Ban the account… opens the confirmation; Cancel bans nobody; confirming bans', async () => {
    const target = await reportedAccount(javaScriptEnabled ? 'ban-js' : 'ban-nojs');
    const { context } = await moderatorContext(world.browser, world.site, javaScriptEnabled);
    const page = await context.newPage();
    await gotoEnhanced(page, `${url}/moderate/reports`, javaScriptEnabled);
    const group = page.locator(`#ad-${target.ad.id}`);
    await group.getByRole('link', { name: 'Ban the account…' }).click();
    await page.waitForURL(/\/moderate\/reports\?ban=/);
    const confirm = page.getByRole('region', { name: `Ban ${target.email}?` });
    expect(await confirm.textContent()).toContain(`The 1 open report about ad ${target.ad.id} in`);
    // Cancel: back to the group, nothing done.
    await confirm.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(`${url}/moderate/reports#ad-${target.ad.id}`);
    expect(await bannedAt(target.accountId)).toBeNull();

    await group.getByRole('link', { name: 'Ban the account…' }).click();
    await page.waitForURL(/\/moderate\/reports\?ban=/);
    // Without a reason the browser asks for one (the select is required); with one, it bans.
    await confirm.getByLabel('Reason').selectOption('spam');
    await confirm.getByRole('button', { name: 'Ban the account' }).click();
    await page.waitForURL(/\/moderate\/reports\?done=banned/);
    expect(await page.getByRole('status').first().textContent()).toContain('The account is banned');
    expect(await bannedAt(target.accountId)).not.toBeNull();
    await context.close();
    await publisher.idle();
    expect(await status(target.ad.path)).toBe(404);
  });
});

describe('Ban on /moderate/reports as plain HTTP', () => {
  test('the confirmation page is whole HTML, and its form posted bans (303)', async () => {
    const target = await reportedAccount('ban-http');
    const { context } = await moderatorContext(world.browser, world.site, false);
    const session = (await context.cookies()).find((cookie) => cookie.name === 'lb_session')!;
    const cookie = `lb_session=${session.value}`;
    await context.close();
    const list = await fetch(`${url}/moderate/reports`, { headers: { cookie } });
    const listed = await list.text();
    expect(listed).toContain(
      `href="/moderate/reports?ban=ad%3A${target.ad.id}&amp;seen=${target.seen}#ban"`,
    );
    const step = await fetch(
      `${url}/moderate/reports?ban=ad%3A${target.ad.id}&seen=${target.seen}`,
      { headers: { cookie } },
    );
    expect(step.status).toBe(200);
    const html = await step.text();
    const start = html.search(/<section [^>]*id="ban" aria-labelledby="ban-title">/);
    expect(start).toBeGreaterThan(-1);
    expect(formOf(html.slice(start), moderateReportsApiPath())?.attributes.method).toBe('post');
    expect(textOf(html)).toContain(`Ban ${target.email}?`);
    const form = { group: `ad:${target.ad.id}`, seen: String(target.seen), action: 'ban' };
    const post = (fields: Record<string, string>) =>
      fetch(`${url}${moderateReportsApiPath()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url, cookie },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual',
      });
    // No reason: the step again, with the message beside nothing else done.
    const refused = await post({ ...form, reason: '' });
    expect(refused.status).toBe(400);
    const again = await refused.text();
    expect(again).toContain('id="ban"');
    expect(textOf(again)).toContain('Choose a reason: the member is told why.');
    expect(await bannedAt(target.accountId)).toBeNull();
    const banned = await post({ ...form, reason: 'spam', note: 'Threats in the ad.' });
    expect(banned.status).toBe(303);
    expect(banned.headers.get('location')).toBe(
      `/moderate/reports?done=banned&count=1&ad=${target.ad.id}`,
    );
    expect(await bannedAt(target.accountId)).not.toBeNull();
    await publisher.idle();
  });
});

describe('as plain form posts without a browser', () => {
  test('the form page is whole HTML; a post answers 303 to the thank-you page', async () => {
    const ad = editorAd(2);
    const form = await fetch(`${url}/report?ad=${ad.id}`, {
      headers: { 'x-forwarded-for': '192.0.2.200' },
    });
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(formOf(html, reportsApiPath())?.attributes.method).toBe('post');
    expect(textOf(html)).toContain(ad.title);
    const posted = await fetch(`${url}${reportsApiPath()}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: url,
        'x-forwarded-for': '192.0.2.200',
      },
      body: new URLSearchParams({ ad: String(ad.id), reason: 'spam' }).toString(),
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/report?sent=1');
    const missing = await fetch(`${url}${reportsApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
      body: new URLSearchParams({ ad: '999999999', reason: 'spam' }).toString(),
    });
    expect(missing.status).toBe(404);
    expect(textOf(await missing.text())).toContain('Ad not found');
  });
});

describe('the report pages at 390 and 1280 px', () => {
  // What the moderators' pages show at both widths: a member's ad reported once, from a browser
  // without JavaScript (its hide published in the background).
  let member: MemberAd;
  let seen = 0;
  beforeAll(async () => {
    member = await liveMemberAd('screenshot');
    const visitor = await visitorAt('192.0.2.31', false);
    await report(
      visitor,
      false,
      member.path,
      'May involve someone under 18',
      'The photo looks young.',
    );
    await visitor.close();
    seen = (await storedRow<{ id: number }>(
      sql,
      'SELECT MAX(id) AS id FROM reports WHERE ad_id = ?',
      member.id,
    ))!.id;
  });

  for (const width of [390, 1280]) {
    test(`no serious or critical axe violation, and screenshots, at ${width} px`, async () => {
      const { context } = await moderatorContext(world.browser, world.site, true, {
        width,
        height: 900,
      });
      const page = await context.newPage();
      for (const [name, path] of [
        ['report', `/report?ad=${editorAd(3).id}`],
        ['report-sent', '/report?sent=1'],
        ['moderate-reports', moderateReportsPath()],
        ['moderate-reports-ban', `/moderate/reports?ban=ad%3A${member.id}&seen=${seen}#ban`],
        ['moderate-queue', moderatePath()],
      ] as const) {
        await gotoEnhanced(page, `${url}${path}`);
        await screenshot(page, screenshotPath(`reports-${name}-${width}`), { fullPage: true });
        expect(await seriousAxeViolations(page), name).toEqual([]);
        expect(await overflowWidth(page), name).toBeLessThanOrEqual(0);
      }
      await context.close();
    });
  }
});
