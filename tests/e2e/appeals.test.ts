// Appeals in Chromium (issue 30 item 2) on the production build, with the real publisher and a real
// SQLite file: a moderator removes a member's live ad (its page 404 after the publish); the member
// reads the statement of reasons on /account, follows "Appeal this decision", writes the appeal and
// sends it (without JavaScript: a plain form post); the moderator who decided sees the appeal
// without the buttons; another reverses it from /moderate/appeals, and after the publish the ad's
// page answers 200 again. Then the decision page and /moderate/appeals at 390 and 1280 px, with
// axe-core, as screenshots for a person to look at.
import type { BrowserContext } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { adPath, moderateAdApiPath } from '../../core/paths.ts';
import { heading, moderatorContext, signUpAndVerify } from '../helpers/e2e-members.ts';
import { approveInStore, insertAdInReview } from '../helpers/moderation.ts';
import {
  overflowWidth,
  screenshot,
  screenshotPath,
  seriousAxeViolations,
} from '../helpers/page-checks.ts';
import { chromiumAndPublishingSite, type PublishingSite } from '../helpers/publishing-site.ts';
import { textOf } from './support.ts';

const today = new Date().toISOString().slice(0, 10);
const daysFrom = (days: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The member who appeals, signed in (without JavaScript), and their live ad. */
let appealing: { member: BrowserContext; ad: { id: number; path: string } };

const world = chromiumAndPublishingSite({
  label: 'appeals',
  // The appealing member's ad is live from the start-up publish: no publish of its own.
  beforePublish: async (started) => {
    const member = await world.browser.newContext({ javaScriptEnabled: false });
    const email = await signUpAndVerify(member, started, 'appealing');
    appealing = { member, ad: await approvedAdOf(started, email, 'Dinner by the river') };
  },
});

const status = async (path: string) => (await fetch(`${world.site.url}${path}`)).status;

/** An ad of the member, posted and approved through the store; its id and path. */
async function approvedAdOf(on: PublishingSite, email: string, title: string) {
  const { id: accountId } = (await on.store.accounts.findByEmail(email))!;
  const id = await insertAdInReview(on, {
    accountId,
    city: 'Fresno',
    age: 33,
    title,
    description: 'Generous with my time: dinners, walks.',
  });
  await approveInStore(on, id, { postedOn: today, expiresOn: daysFrom(30) });
  return { id, path: adPath('California', 'Fresno', id) };
}

describe('an appeal in Chromium', () => {
  test('the member appeals from /account; another moderator reverses; the ad is back', async () => {
    const { member, ad } = appealing;
    expect(await status(ad.path)).toBe(200);

    const a = await moderatorContext(world.browser, world.site, true);
    const removed = await a.context.request.post(
      `${world.site.url}${moderateAdApiPath(ad.id, 'remove')}`,
      {
        data: { revision: 2, reason: 'commercial', note: 'Reads as paid company.' },
      },
    );
    expect(removed.status()).toBe(200);
    await world.site.publisher.idle();
    expect(await status(ad.path)).toBe(404);

    const page = await member.newPage();
    await page.goto(`${world.site.url}/account`);
    const account = textOf(await page.content());
    expect(account).toContain('Your ad “Dinner by the river” was removed.');
    expect(account).toContain('Clause 4.1 of the terms: No commercial sexual services');
    expect(account).toContain("A moderator's own review.");
    await page.getByRole('link', { name: 'Appeal this decision' }).first().click();
    await page.waitForURL(/\/account\/decisions\/\d+$/);
    expect(await heading(page)).toBe('A moderation decision');
    await page.getByLabel('Your appeal').fill('It is a dinner date; nothing is paid.');
    await page.getByRole('button', { name: 'Send my appeal' }).click();
    await page.waitForURL(/done=appealed$/);
    expect(textOf(await page.content())).toContain('Your appeal is sent. It is in review');

    // The moderator who decided: the appeal, without its buttons.
    const aPage = await a.context.newPage();
    await aPage.goto(`${world.site.url}/moderate/appeals`);
    expect(textOf(await aPage.content())).toContain('You made this decision');
    expect(await aPage.getByRole('button', { name: 'Reverse it' }).count()).toBe(0);

    // Another moderator reverses it.
    const b = await moderatorContext(world.browser, world.site, true);
    const bPage = await b.context.newPage();
    await bPage.goto(`${world.site.url}/moderate`);
    await bPage.getByRole('link', { name: 'Review the appeals' }).click();
    await bPage.waitForURL(`${world.site.url}/moderate/appeals`);
    expect(textOf(await bPage.content())).toContain('It is a dinner date; nothing is paid.');
    await bPage.getByRole('button', { name: 'Reverse it' }).click();
    await bPage.waitForURL(/done=reversed$/);
    expect(textOf(await bPage.content())).toContain('The decision is reversed and undone.');
    await world.site.publisher.idle();
    expect(await status(ad.path)).toBe(200);

    await page.goto(`${world.site.url}/account`);
    expect(textOf(await page.content())).toContain('Reversed');
    await Promise.all([member.close(), a.context.close(), b.context.close()]);
  });

  for (const width of [390, 1280])
    test(`the decision page and /moderate/appeals at ${width} px: no serious axe violation`, async () => {
      const member = await world.browser.newContext({
        viewport: { width, height: 900 },
        bypassCSP: true,
      });
      const email = await signUpAndVerify(member, world.site, `look-${width}`);
      // The pages read the decision, not the ad's page: its approval is not published.
      const ad = await approvedAdOf(world.site, email, `A walk in the park ${width}`);
      const a = await moderatorContext(world.browser, world.site, true, { width, height: 900 });
      const removed = await a.context.request.post(
        `${world.site.url}${moderateAdApiPath(ad.id, 'remove')}`,
        {
          data: { revision: 2, reason: 'spam', note: 'Posted in three cities.' },
        },
      );
      expect(removed.status()).toBe(200);
      const page = await member.newPage();
      await page.goto(`${world.site.url}/account`);
      await page.getByRole('link', { name: 'Appeal this decision' }).first().click();
      await page.waitForURL(/\/account\/decisions\/\d+$/);
      for (const [name, target] of [
        ['decision', page],
        ['account', page],
      ] as const) {
        if (name === 'account') {
          await page.getByLabel('Your appeal').fill('I live near all three; they are one area.');
          await page.getByRole('button', { name: 'Send my appeal' }).click();
          await page.waitForURL(/done=appealed$/);
          await page.goto(`${world.site.url}/account`);
        }
        await screenshot(target, screenshotPath(`appeals-${name}-${width}`), { fullPage: true });
        expect(await seriousAxeViolations(target), name).toEqual([]);
        expect(await overflowWidth(target), name).toBeLessThanOrEqual(0);
      }
      const b = await moderatorContext(world.browser, world.site, true, { width, height: 900 });
      const bPage = await b.context.newPage();
      await bPage.goto(`${world.site.url}/moderate/appeals`);
      await screenshot(bPage, screenshotPath(`appeals-moderate-${width}`), { fullPage: true });
      expect(await seriousAxeViolations(bPage)).toEqual([]);
      expect(await overflowWidth(bPage)).toBeLessThanOrEqual(0);
      await Promise.all([member.close(), a.context.close(), b.context.close()]);
    });
});
