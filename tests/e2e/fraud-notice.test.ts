// The fraud notice on the production build, in Chromium (docs/product.md section 7, issue 29): a
// moderator bans, from the confirmation step, an account that wrote to two members, choosing "Scam
// or fraud"; the member who answered it reads the warning in their inbox and on the conversation
// (in words, with the guide, no serious axe-core violation, nothing wider than a phone), and has
// one mail; the member who never answered sees nothing. The same ban as a plain post, and the
// rules of who is told, are the integration tests' (tests/integration/moderation/fraud-notices.test.ts).
import type { BrowserContext } from 'playwright-core';
import { expect, test } from 'vitest';
import { gotoEnhanced } from '../helpers/browser-waits.ts';
import { moderatorContext, signUpWithApi, uniqueEmail } from '../helpers/e2e-members.ts';
import { mailsTo } from '../helpers/mail.ts';
import { insertConversation, insertLiveAd, insertMessage } from '../helpers/messages.ts';
import { chromiumAndServerForFile } from '../helpers/moderation-browser.ts';
import {
  overflowWidth,
  screenshot,
  screenshotPath,
  seriousAxeViolations,
} from '../helpers/page-checks.ts';

const world = chromiumAndServerForFile();

/** A member signed up in their own browser context; their id and address. */
async function member(
  label: string,
): Promise<{ context: BrowserContext; email: string; accountId: number }> {
  const context = await world.browser.newContext({
    viewport: { width: 390, height: 844 },
    bypassCSP: true,
  });
  const email = uniqueEmail(label);
  await signUpWithApi(context, world.server.url, email);
  const { id } = (await world.server.store.accounts.findByEmail(email))!;
  return { context, email, accountId: id };
}

test('banned for scam or fraud in Chromium: the member who answered reads the warning and gets one mail', async () => {
  const scammer = await member('scammer');
  const answered = await member('answered');
  const silent = await member('silent');
  const threads: number[] = [];
  for (const [victim, title] of [
    [answered, 'Jazz nights downtown'],
    [silent, 'Sunday market mornings'],
  ] as const) {
    const adId = await insertLiveAd(world.server, victim, title);
    const thread = await insertConversation(world.server, {
      adId,
      adTitle: title,
      posterId: victim.accountId,
      replierId: scammer.accountId,
    });
    await insertMessage(world.server, thread, scammer.accountId, 'Hi! Your ad caught my eye.', 30);
    threads.push(thread);
  }
  await insertMessage(
    world.server,
    threads[0]!,
    answered.accountId,
    'Hi, thanks! Tell me more.',
    20,
  );

  const { context: moderation } = await moderatorContext(world.browser, world.server, true);
  const page = await moderation.newPage();
  await gotoEnhanced(page, `${world.server.url}/moderate?ban=${scammer.accountId}#ban`, true);
  const confirm = page.locator('#ban');
  await confirm.getByLabel('Reason').selectOption({ label: 'Scam or fraud' });
  await confirm.getByRole('button', { name: 'Ban the account' }).click();
  await page.waitForURL(/done=banned/);
  await moderation.close();

  const inbox = await answered.context.newPage();
  await gotoEnhanced(inbox, `${world.server.url}/messages`, true);
  expect(await inbox.locator('.inbox-item__fraud').textContent()).toBe(
    'Warning: this member was banned for scam or fraud. Open the conversation to read what to do.',
  );
  await inbox.getByRole('link', { name: 'Jazz nights downtown' }).click();
  await inbox.waitForURL(`${world.server.url}/messages/${threads[0]}`);
  const notice = inbox.getByRole('alert');
  expect(await notice.getByRole('heading').textContent()).toBe(
    'Warning: this member was banned for scam or fraud',
  );
  expect(await notice.textContent()).toContain(
    'Our moderators banned the member who wrote to you about your ad “Jazz nights downtown” for scam or fraud.',
  );
  expect(await seriousAxeViolations(inbox)).toEqual([]);
  expect(await overflowWidth(inbox)).toBeLessThanOrEqual(0);
  await screenshot(inbox, screenshotPath('fraud-notice-390'), { fullPage: true });
  await notice.getByRole('link', { name: 'Read our guide to recognizing scams' }).click();
  await inbox.waitForURL(`${world.server.url}/about/recognising-scams`);
  expect(await inbox.getByRole('heading', { level: 1 }).textContent()).toBe('Recognizing Scams');

  const elsewhere = await silent.context.newPage();
  await gotoEnhanced(elsewhere, `${world.server.url}/messages/${threads[1]}`, true);
  expect(await elsewhere.getByRole('alert').count()).toBe(0);
  expect(await elsewhere.locator('.fraud-notice').count()).toBe(0);

  await expect
    .poll(
      () =>
        mailsTo(world.server.outboxDir, answered.email).filter((mail) =>
          mail.subject.startsWith('Safety warning'),
        ).length,
    )
    .toBe(1);
  expect(
    mailsTo(world.server.outboxDir, silent.email).filter((mail) =>
      mail.subject.startsWith('Safety warning'),
    ),
  ).toEqual([]);
  for (const each of [scammer, answered, silent]) await each.context.close();
});
