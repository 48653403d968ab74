// Reports end to end (issue 11) on the production build, with the real publisher and a real SQLite
// file, as tests/e2e/member-ad-flow.test.ts runs it: a visitor reports a member's ad three times
// from three addresses and it leaves the site (404 after the publish); one "May involve someone
// under 18" report hides an editor's ad at once; a moderator dismisses the reports and both come
// back (200). Once in Chromium with JavaScript and once without it (every step a plain form post).
// The server trusts one proxy hop, so each browser context's X-Forwarded-For is its address.
// Then screenshots of /report and /moderate/reports at 390 and 1280 px, with axe-core.
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '../../server/db/database.ts';
import type { BuildPublisher } from '../../server/publishing/build-publisher.ts';
import { adPath } from '../../src/paths.ts';
import type { CompiledAd } from '../../src/schemas/compiled-content.ts';
import { gotoEnhanced } from '../helpers/browser-waits.ts';
import { heading, moderatorContext } from '../helpers/e2e-members.ts';
import { overflowWidth, screenshotPath, seriousAxeViolations } from '../helpers/page-checks.ts';
import { startPublishingSite, type PublishingSite } from '../helpers/publishing-site.ts';
import { builtAds, launchChromium, textOf } from './support.ts';

const today = new Date().toISOString().slice(0, 10);
const daysFrom = (days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

let browser: Browser;
let site: PublishingSite;
let db: Db;
let publisher: BuildPublisher;
let url = '';
let posterId = 0;

beforeAll(async () => {
  site = await startPublishingSite({ label: 'reports-flow', trustProxy: 1 });
  ({ url, db, publisher } = site);
  // The poster of the member ads (as the posting code stores an approved ad).
  const now = new Date().toISOString();
  posterId = Number(
    db
      .prepare(
        `INSERT INTO accounts (email, password_hash, date_of_birth, terms_accepted_at, created_at,
           email_verified_at) VALUES ('reported-poster@example.org', 'x', '1990-01-01', ?, ?, ?)`,
      )
      .run(now, now, now).lastInsertRowid,
  );
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** A live member ad, published; its path. */
async function liveMemberAd(title: string, city: string): Promise<{ id: number; path: string }> {
  const now = new Date().toISOString();
  const id = Number(
    db
      .prepare(
        `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description, status,
           created_at, submitted_at, approved_at, posted_on, expires_on, updated_at, revision)
         VALUES (?, 'California', ?, 31, 'w4m', ?, 'Coffee, a long walk and a good bookshop.',
           'live', ?, ?, ?, ?, ?, ?, 2)`,
      )
      .run(posterId, city, title, now, now, now, today, daysFrom(30), now).lastInsertRowid,
  );
  expect(await publisher.publish(`approved ad ${id}`)).toEqual({ ok: true });
  const path = adPath('California', city, id);
  expect(await status(path)).toBe(200);
  return { id, path };
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
  browser.newContext({ javaScriptEnabled, extraHTTPHeaders: { 'x-forwarded-for': address } });

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
    const ad = await liveMemberAd(
      `Reported three times (${run})`,
      run === 0 ? 'Fresno' : 'Modesto',
    );
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
    expect(db.prepare('SELECT COUNT(*) AS n FROM reports WHERE ad_id = ?').get(ad.id)).toEqual({
      n: 3,
    });

    const { context: moderator } = await moderatorContext(browser, site, javaScriptEnabled);
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

    const { context: moderator } = await moderatorContext(browser, site, javaScriptEnabled);
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

describe('as plain form posts without a browser', () => {
  test('the form page is whole HTML; a post answers 303 to the thank-you page', async () => {
    const ad = editorAd(2);
    const form = await fetch(`${url}/report?ad=${ad.id}`, {
      headers: { 'x-forwarded-for': '192.0.2.200' },
    });
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('<form class="form report-form" action="/api/reports" method="post">');
    expect(textOf(html)).toContain(ad.title);
    const posted = await fetch(`${url}/api/reports`, {
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
    const missing = await fetch(`${url}/api/reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
      body: new URLSearchParams({ ad: '999999999', reason: 'spam' }).toString(),
    });
    expect(missing.status).toBe(404);
    expect(textOf(await missing.text())).toContain('Ad not found');
  });
});

describe('the report pages at 390 and 1280 px', () => {
  for (const width of [390, 1280]) {
    test(`no serious or critical axe violation, and screenshots, at ${width} px`, async () => {
      const member = await liveMemberAd(
        `Screenshot ad ${width}`,
        width === 390 ? 'Stockton' : 'Visalia',
      );
      const visitor = await visitorAt(`192.0.2.${width === 390 ? 31 : 32}`, false);
      await report(
        visitor,
        false,
        member.path,
        'May involve someone under 18',
        'The photo looks young.',
      );
      await visitor.close();
      const { context } = await moderatorContext(browser, site, true, { width, height: 900 });
      const page = await context.newPage();
      for (const [name, path] of [
        ['report', `/report?ad=${editorAd(3).id}`],
        ['report-sent', '/report?sent=1'],
        ['moderate-reports', '/moderate/reports'],
        ['moderate-queue', '/moderate'],
      ] as const) {
        await gotoEnhanced(page, `${url}${path}`);
        await page.screenshot({ path: screenshotPath(`reports-${name}-${width}`), fullPage: true });
        expect(await seriousAxeViolations(page), name).toEqual([]);
        expect(await overflowWidth(page), name).toBeLessThanOrEqual(0);
      }
      await context.close();
    });
  }
});
