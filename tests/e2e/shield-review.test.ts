// The moderators' review of the scam shield on the production build, in Chromium (docs/product.md
// section 7, issue 51 item 4), with and without JavaScript: a moderator follows "Scam shield" from
// the queue, reads a refusal in words (no serious axe-core violation, nothing wider than a phone),
// presses "Mark as mistaken" and is back on the page with the notice, the entry saying who marked
// it and when in words, and its text waiting for the editors; the other entry keeps its button.
// The plain post's answers (409, 404, JSON) and the rules are the integration tests'
// (tests/integration/moderation/shield-review.test.ts).
import { describe, expect, test } from 'vitest';
import { formatDate } from '../../core/format.ts';
import { bothWays } from '../helpers/both-ways.ts';
import { gotoEnhanced } from '../helpers/browser-waits.ts';
import { moderatorContext, uniqueEmail } from '../helpers/e2e-members.ts';
import { chromiumAndServerForFile } from '../helpers/moderation-browser.ts';
import {
  overflowWidth,
  screenshot,
  screenshotPath,
  seriousAxeViolations,
} from '../helpers/page-checks.ts';
import { accountInStore } from '../helpers/store-accounts.ts';

const world = chromiumAndServerForFile();

/** A refusal and a warning of first messages from a new account, as the message flow records them. */
async function twoDecisions(text: string): Promise<{ refused: number; warned: number }> {
  const { store } = world.server;
  const senderId = await accountInStore(store, uniqueEmail('sender'));
  const at = new Date().toISOString();
  const refused = await store.shieldDecisions.record({
    senderId,
    recipientId: null,
    text,
    outcome: 'refused',
    by: 'model',
    families: ['codes'],
    probability: 0.88,
    adjusted: 0.93,
    behaviour: ['account made today'],
    at,
  });
  const warned = await store.shieldDecisions.record({
    senderId,
    recipientId: null,
    text: 'Can you lend me $30 for the bus? I will pay you back when we meet',
    outcome: 'warned',
    by: 'signal',
    families: ['money'],
    probability: 0.41,
    adjusted: 0.52,
    behaviour: [],
    at,
  });
  return { refused, warned };
}

describe.each(bothWays('with JavaScript'))('Mark as mistaken %s', (label, javaScriptEnabled) => {
  test('marked from /moderate/shield: the notice, the entry in words, the text waits', async () => {
    const text = `My badge number is on my profile, I'm a nurse (${label})`;
    const { refused, warned } = await twoDecisions(text);
    const { context } = await moderatorContext(world.browser, world.server, javaScriptEnabled, {
      width: 390,
      height: 844,
    });
    const page = await context.newPage();
    await gotoEnhanced(page, `${world.server.url}/moderate`, javaScriptEnabled);
    await page.getByRole('link', { name: 'Scam shield' }).click();
    await page.waitForURL(`${world.server.url}/moderate/shield`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Scam shield');
    const entry = page.locator(`#decision-${refused}`);
    expect(await entry.getByRole('heading').textContent()).toBe(
      'Refused, decided by the learned model',
    );
    expect(await entry.locator('.shield-decision__facts').textContent()).toBe(
      'Familiesverification or code request' +
        "Probability of a scam88% by the model; 93% with the sender's behaviour" +
        "The sender's behaviouraccount made today",
    );
    if (javaScriptEnabled) {
      expect(await seriousAxeViolations(page)).toEqual([]);
      expect(await overflowWidth(page)).toBeLessThanOrEqual(0);
      await screenshot(page, screenshotPath('moderate-shield-390'), { fullPage: true });
    }

    await entry.getByRole('button', { name: 'Mark as mistaken' }).click();
    await page.waitForURL(`${world.server.url}/moderate/shield?done=marked#decision-${refused}`);
    expect(await page.locator('.moderation__status').textContent()).toBe(
      'Marked as mistaken. Its text waits for the editors as an ordinary message, without who sent it.',
    );
    const today = formatDate(new Date().toISOString().slice(0, 10));
    const marked = page.locator(`#decision-${refused}`);
    expect(await marked.locator('.shield-decision__marked').textContent()).toBe(
      `Marked mistaken by a moderator on ${today}.`,
    );
    expect(await marked.getByRole('button').count()).toBe(0);
    expect(
      await page
        .locator(`#decision-${warned}`)
        .getByRole('button', { name: 'Mark as mistaken' })
        .count(),
    ).toBe(1);
    expect(await world.server.store.shieldDecisions.unexportedCandidates()).toContainEqual(
      expect.objectContaining({ label: 'ordinary', text, reason: 'marked-mistaken' }),
    );
    await context.close();
  });
});
