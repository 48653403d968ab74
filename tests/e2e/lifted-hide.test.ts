// A hide by reports lifted while its appeal waited (issue 30), in Chromium on the production build
// with a real SQLite file: a report hides a member's ad; the member appeals it from the decision's
// page (a plain form post, without JavaScript); a moderator dismisses the reports; the member's
// decision page then says the hide was lifted and the appeal closed, with no appeal form, and the
// moderators' appeal list is empty. The page at 390 and 1280 px, with axe-core, as screenshots for
// a person to look at.
import { describe, expect, test } from 'vitest';
import { moderatorContext, signUpAndVerify } from '../helpers/e2e-members.ts';
import { approveInStore, insertAdInReview } from '../helpers/moderation.ts';
import {
  overflowWidth,
  screenshot,
  screenshotPath,
  seriousAxeViolations,
} from '../helpers/page-checks.ts';
import { chromiumAndPublishingSite } from '../helpers/publishing-site.ts';
import { textOf } from './support.ts';
import { moderateReportsApiPath, reportsApiPath } from '../../core/paths.ts';
import { storedRow } from '../helpers/stored-rows.ts';

const today = new Date().toISOString().slice(0, 10);
const in30Days = new Date(Date.parse(`${today}T00:00:00Z`) + 30 * 86_400_000)
  .toISOString()
  .slice(0, 10);

const world = chromiumAndPublishingSite({ label: 'lifted-hide' });

/** A live ad of the member's, posted and approved through the server's store; its id. */
async function liveAdOf(email: string, title: string) {
  const { id: accountId } = (await world.site.store.accounts.findByEmail(email))!;
  const id = await insertAdInReview(world.site, {
    accountId,
    city: 'Fresno',
    age: 29,
    title,
    description: 'Coffee and a long walk on Sundays.',
  });
  await approveInStore(world.site, id, { postedOn: today, expiresOn: in30Days });
  return id;
}

describe('a hide lifted while its appeal waited', () => {
  for (const width of [390, 1280])
    test(`the member reads that it was lifted and the appeal closed, at ${width} px`, async () => {
      const member = await world.browser.newContext({
        viewport: { width, height: 900 },
        javaScriptEnabled: false,
        bypassCSP: true,
      });
      const email = await signUpAndVerify(member, world.site, `lifted-${width}`);
      const adId = await liveAdOf(email, `Sunday coffee ${width}`);
      // A visitor reports it as possibly under 18: one such report hides it.
      const reported = await fetch(`${world.site.url}${reportsApiPath()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: world.site.url },
        body: JSON.stringify({ ad: String(adId), reason: 'under-18' }),
      });
      expect(reported.status).toBeLessThan(400);

      const page = await member.newPage();
      await page.goto(`${world.site.url}/account`);
      expect(textOf(await page.content())).toContain('was taken off the site after reports.');
      await page.getByRole('link', { name: 'Appeal this decision' }).first().click();
      await page.waitForURL(/\/account\/decisions\/\d+$/);
      const decisionUrl = page.url();
      await page.getByLabel('Your appeal').fill('Everyone in my ad is over 30.');
      await page.getByRole('button', { name: 'Send my appeal' }).click();
      await page.waitForURL(/done=appealed$/);

      const moderator = await moderatorContext(world.browser, world.site, true, {
        width,
        height: 900,
      });
      const { seen } = (await storedRow<{ seen: number }>(
        world.site,
        'SELECT max(id) AS seen FROM reports WHERE ad_id = ?',
        adId,
      ))!;
      const dismissed = await moderator.context.request.post(
        `${world.site.url}${moderateReportsApiPath()}`,
        {
          data: { group: `ad:${adId}`, seen, action: 'dismiss' },
        },
      );
      expect(dismissed.status()).toBe(200);

      await page.goto(decisionUrl);
      const text = textOf(await page.content());
      expect(text).toContain('a moderator found no breach.');
      expect(text).toContain('Your appeal is closed.');
      expect(await page.getByRole('button', { name: 'Send my appeal' }).count()).toBe(0);
      await screenshot(page, screenshotPath(`lifted-hide-${width}`), { fullPage: true });
      // axe-core runs as a script: the same page, signed in the same, with JavaScript on.
      const look = await world.browser.newContext({
        viewport: { width, height: 900 },
        bypassCSP: true,
      });
      await look.addCookies(await member.cookies());
      const lookPage = await look.newPage();
      await lookPage.goto(decisionUrl);
      expect(await seriousAxeViolations(lookPage)).toEqual([]);
      expect(await overflowWidth(lookPage)).toBeLessThanOrEqual(0);

      const appeals = await moderator.context.newPage();
      await appeals.goto(`${world.site.url}/moderate/appeals`);
      expect(textOf(await appeals.content())).not.toContain('Everyone in my ad is over 30.');
      await Promise.all([member.close(), look.close(), moderator.context.close()]);
    });
});
