// Moderation on the production build, in Chromium with JavaScript and again without it (every
// action a plain form post): a moderator (made as `npm run moderator -- add` makes one) opens the
// queue, approves one ad, rejects another with a reason, bans an account after confirming, and
// reads the log; the rows, the mails and the publishing asked for follow; the banned member is
// told at sign-in. Then axe-core and screenshots of /moderate and /moderate/log at 390 and 1280 px.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ACCOUNT_CLOSED } from '../../server/accounts/sign-in.ts';
import { bothWays } from '../helpers/both-ways.ts';
import { gotoEnhanced, shownText, submitWithFetch } from '../helpers/browser-waits.ts';
import {
  mailTo,
  moderatorContext,
  PASSWORD,
  signUpWithApi,
  uniqueEmail,
} from '../helpers/e2e-members.ts';
import { mailsTo } from '../helpers/mail.ts';
import {
  insertAdInReview,
  insertLiveAdWithEdit,
  storedAd,
  logRows,
} from '../helpers/moderation.ts';
import { chromiumAndServerForFile } from '../helpers/moderation-browser.ts';
import {
  overflowWidth,
  screenshot,
  screenshotPath,
  seriousAxeViolations,
} from '../helpers/page-checks.ts';
import {
  moderateAdApiPath,
  moderatePath,
  moderationLogPath,
  signinApiPath,
} from '../../core/paths.ts';

const world = chromiumAndServerForFile();

/** Signs up in this browser context (its cookie jar keeps the session); returns the account id. */
async function signUp(context: BrowserContext, label: string) {
  const email = uniqueEmail(label);
  await signUpWithApi(context, world.server.url, email);
  const { id } = (await world.server.store.accounts.findByEmail(email))!;
  return { email, accountId: id };
}

/** A member with ads in review (inserted as the posting code stores them). */
async function posterWithAds(titles: string[]) {
  const context = await world.browser.newContext();
  const poster = await signUp(context, 'poster');
  await context.close();
  const description = 'About me: I grow roses and like long walks.';
  const start = description.indexOf('roses');
  const ids: number[] = [];
  for (const [index, title] of titles.entries())
    ids.push(
      await insertAdInReview(world.server, {
        accountId: poster.accountId,
        title,
        description: `${description}\nAd ${index + 1}.`,
        marks: [{ field: 'description', term: 'roses', start, end: start + 5 }],
        submittedMinutesAgo: 10_000 - index,
      }),
    );
  return { ...poster, ids };
}

const banner = (page: Page) => page.locator('.banner').first().textContent();
const item = (page: Page, id: number) => page.locator(`#ad-${id}`);

describe.each(bothWays('in Chromium'))('moderation %s', (_label, javaScriptEnabled) => {
  let context: BrowserContext;
  let page: Page;
  let moderatorEmail: string;
  beforeAll(async () => {
    ({ context, email: moderatorEmail } = await moderatorContext(
      world.browser,
      world.server,
      javaScriptEnabled,
    ));
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  test('the queue → Approve: the ad goes live, the member is mailed, publishing is asked for', async () => {
    const poster = await posterWithAds(['Sunday board games']);
    const [id] = poster.ids as [number];
    await gotoEnhanced(page, `${world.server.url}/moderate`, javaScriptEnabled);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Moderation queue');
    const entry = item(page, id);
    // Shown as the ad page shows it, the scanner's word highlighted where it is.
    expect(await entry.locator('.ad-detail__description mark').textContent()).toBe('roses');
    expect(await entry.locator('.ad-detail__description').textContent()).toMatch(
      /^About me: I grow roses and like long walks\.\s*Ad 1\.$/,
    );
    await entry.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.waitForURL(`${world.server.url}/moderate?done=approved&ad=${id}`);
    expect(await banner(page)).toBe(
      `Ad ${id} approved. The member has been emailed, and the site shows it within a minute.`,
    );
    expect(await item(page, id).count()).toBe(0);
    expect((await storedAd(world.server.sql, id)).status).toBe('live');
    expect(world.server.published).toContain(`approved ad ${id}`);
    await mailTo(world.server.outboxDir, poster.email, 'Your ad is approved');
    expect(mailsTo(world.server.outboxDir, poster.email).map((mail) => mail.subject)).toContain(
      'Your ad is approved',
    );
  });

  test('Reject with a reason and a note: the member is told both', async () => {
    const poster = await posterWithAds(['Coffee and a chat']);
    const [id] = poster.ids as [number];
    await gotoEnhanced(page, `${world.server.url}/moderate`, javaScriptEnabled);
    const entry = item(page, id);
    await entry.getByLabel('Reason').selectOption({ label: 'Spam or duplicate' });
    await entry.getByLabel('Note to the member (optional)').fill('Posted twice today.');
    await entry.getByRole('button', { name: 'Reject', exact: true }).click();
    await page.waitForURL(`${world.server.url}/moderate?done=rejected&ad=${id}`);
    expect(await banner(page)).toBe(`Ad ${id} rejected. The member has been emailed the reason.`);
    expect(await storedAd(world.server.sql, id)).toMatchObject({
      status: 'rejected',
      rejected_reason: 'Spam or duplicate',
      rejected_note: 'Posted twice today.',
    });
    await mailTo(world.server.outboxDir, poster.email, 'Your ad was not approved');
    const text =
      mailsTo(world.server.outboxDir, poster.email).find(
        (mail) => mail.subject === 'Your ad was not approved',
      )?.text ?? '';
    expect(text).toContain('Reason: Spam or duplicate.');
    expect(text).toContain("Moderator's note: Posted twice today.");
  });

  test('Reject without a reason is refused: the queue again with the message, nothing changed', async () => {
    const poster = await posterWithAds(['A walk in the park']);
    const [id] = poster.ids as [number];
    await gotoEnhanced(page, `${world.server.url}/moderate`, javaScriptEnabled);
    const entry = item(page, id);
    // The browser asks for the reason first (required): a post without it, as a page that did
    // not ask would send it, is refused by the server.
    if (!javaScriptEnabled) {
      const response = await context.request.post(
        `${world.server.url}${moderateAdApiPath(id, 'reject')}`,
        {
          form: { revision: '1', reason: '' },
          headers: { origin: world.server.url },
        },
      );
      expect(response.status()).toBe(400);
      expect(await response.text()).toContain('Choose a reason.');
    } else {
      await entry.getByLabel('Reason').evaluate((select) => select.removeAttribute('required'));
      await entry.getByRole('button', { name: 'Reject', exact: true }).click();
      await page.waitForLoadState('load');
      expect(await banner(page)).toBe('Choose a reason.');
    }
    expect((await storedAd(world.server.sql, id)).status).toBe('review');
  });

  test('Ban the account: a confirmation, then all its ads removed, and its sign-in refused', async () => {
    const poster = await posterWithAds(['First ad', 'Second ad']);
    await gotoEnhanced(page, `${world.server.url}/moderate`, javaScriptEnabled);
    await item(page, poster.ids[0]!).getByRole('link', { name: 'Ban this account…' }).click();
    await page.waitForURL(`${world.server.url}/moderate?ban=${poster.accountId}#ban`);
    const confirm = page.locator('#ban');
    expect(await confirm.getByRole('heading').textContent()).toBe(`Ban ${poster.email}?`);
    await confirm.getByLabel('Reason').selectOption({ label: 'Commercial or paid content' });
    await confirm.getByRole('button', { name: 'Ban the account' }).click();
    await page.waitForURL(/done=banned/);
    expect(await banner(page)).toBe(
      `${poster.email} is banned: signed out everywhere, 2 ads removed, and the address cannot sign up again.`,
    );
    for (const id of poster.ids)
      expect((await storedAd(world.server.sql, id)).status).toBe('removed');

    const visitor = await world.browser.newContext({ javaScriptEnabled });
    const signin = await visitor.newPage();
    await gotoEnhanced(signin, `${world.server.url}/signin`, javaScriptEnabled);
    await signin.fill('#signin-email', poster.email);
    await signin.fill('#signin-password', PASSWORD);
    const button = signin.getByRole('button', { name: 'Sign In' });
    if (javaScriptEnabled) await submitWithFetch(button, signinApiPath());
    else await button.click();
    expect(await shownText(signin.locator('.banner--error'))).toBe(ACCOUNT_CLOSED);
    await visitor.close();
  });

  test('the log lists those actions, newest first, with who and why', async () => {
    await gotoEnhanced(page, `${world.server.url}/moderate`, javaScriptEnabled);
    await page.getByRole('link', { name: 'Moderation log' }).click();
    await page.waitForURL(`${world.server.url}/moderate/log`);
    const firstRow = page.locator('tbody tr').first();
    const newest = (await logRows(world.server.sql)).at(-1)!;
    expect(await firstRow.locator('td[data-label="Who"]').textContent()).toBe(
      newest.moderator_email,
    );
    expect(newest.moderator_email).toBe(moderatorEmail);
    const text = (await page.locator('tbody').textContent()) ?? '';
    expect(text).toContain('Approved the ad');
    expect(text).toContain('Rejected the ad');
    expect(text).toContain('Posted twice today.');
    expect(text).toContain('Banned the account');
  });
});

describe('the moderation pages at 390 and 1280 px', () => {
  for (const width of [390, 1280]) {
    test(`no serious or critical axe violation, and screenshots, at ${width} px`, async () => {
      const { context } = await moderatorContext(world.browser, world.server, true, {
        width,
        height: 900,
      });
      const poster = await posterWithAds(['Looking for a hiking partner in the hills']);
      await insertLiveAdWithEdit(world.server, {
        accountId: poster.accountId,
        title: 'Bookish and kind',
        pendingTitle: 'Bookish, kind and new in town',
        pendingMarks: [{ field: 'title', term: 'new in town', start: 18, end: 29 }],
        pendingDescription:
          'Just moved here. I like early starts, long trails and a coffee afterwards.',
      });
      const page = await context.newPage();
      for (const [name, path] of [
        ['queue', moderatePath()],
        ['ban', `/moderate?ban=${poster.accountId}#ban`],
        ['log', moderationLogPath()],
      ] as const) {
        await gotoEnhanced(page, `${world.server.url}${path}`);
        await screenshot(page, screenshotPath(`moderation-${name}-${width}`), { fullPage: true });
        expect(await seriousAxeViolations(page), name).toEqual([]);
        // Nothing wider than the screen.
        expect(await overflowWidth(page), name).toBeLessThanOrEqual(0);
      }
      await context.close();
    });
  }
});
