// Messages on the production build (issues 11 and 54), in Chromium with JavaScript and again
// without it (every step a plain form post): two members sign up and verify through the mailed
// link, one posts two ads that a moderator approves and chooses on /account to be mailed each
// request at once, the other replies; the poster finds it in Requests, not Chats (header and
// /messages say "1 new request"), reads it, and the replier writing again leaves it there; the
// poster answers and it is a chat for both; the poster blocks the replier, whose reply and whose
// new conversation on the poster's other ad are refused. Then screenshots of Requests, Chats and
// a conversation at 390 and 1280 px, and axe-core on each.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  accountPath,
  conversationPath,
  messagesApiPath,
  messagesPath,
  newMessagePath,
  requestMessagesPath,
} from '../../core/paths.ts';
import { bothWays, desktopContext } from '../helpers/both-ways.ts';
import { gotoEnhanced, waitForEnhanced } from '../helpers/browser-waits.ts';
import {
  sendReply,
  heading,
  mailTo,
  signUpAndVerify as signUpAndVerifyOn,
} from '../helpers/e2e-members.ts';
import { liveAdThroughApi, moderationBrowserForFile } from '../helpers/moderation-browser.ts';
import { lookAtWidths } from '../helpers/page-checks.ts';
import { storedRow } from '../helpers/stored-rows.ts';

const SHOTS = process.env.MESSAGES_SCREENSHOTS_DIR ?? '/tmp/localboard-messages-screenshots';

const world = moderationBrowserForFile({ verifiedModerator: true });

/** Signs up in the context, opens the mailed verification link and verifies; the email. */
const signUpAndVerify = (context: BrowserContext, label: string) =>
  signUpAndVerifyOn(context, world.server, label);

/** A live ad of the context's member. */
const liveAd = (context: BrowserContext, city: string, title: string) =>
  liveAdThroughApi(world, context, {
    city,
    title,
    description: 'Long walks, old films and a good bookshop.',
  });

/** Screenshots at both widths; with JavaScript, axe-core too. */
const lookAt = (page: Page, name: string, javaScriptEnabled: boolean) =>
  lookAtWidths(page, SHOTS, name, javaScriptEnabled);

describe.each(bothWays())(
  'two members converse about an ad, then one blocks the other, %s',
  (_, javaScriptEnabled, run) => {
    let posterContext: BrowserContext;
    let replierContext: BrowserContext;
    let poster: Page;
    let replier: Page;
    let posterEmail = '';
    let replierEmail = '';
    let adId = 0;
    let otherAdId = 0;
    let conversationId = 0;
    const title = `Farmers market mornings (${run})`;

    beforeAll(async () => {
      posterContext = await desktopContext(world.browser, javaScriptEnabled);
      replierContext = await desktopContext(world.browser, javaScriptEnabled);
      posterEmail = await signUpAndVerify(posterContext, `poster-${run}`);
      replierEmail = await signUpAndVerify(replierContext, `replier-${run}`);
      const cities = javaScriptEnabled ? ['Fresno', 'Bakersfield'] : ['Modesto', 'Visalia'];
      adId = await liveAd(posterContext, cities[0]!, title);
      otherAdId = await liveAd(posterContext, cities[1]!, `Second ad (${run})`);
      poster = await posterContext.newPage();
      replier = await replierContext.newPage();
      poster.on('dialog', (dialog) => void dialog.accept());
    });
    afterAll(async () => {
      await posterContext?.close();
      await replierContext?.close();
    });

    test('the poster chooses each request mailed at once, on /account', async () => {
      await gotoEnhanced(poster, `${world.server.url}${accountPath()}`, javaScriptEnabled);
      const settings = poster.locator('#message-settings');
      expect(await settings.getByLabel('Once a day, in one mail').isChecked()).toBe(true);
      expect(await settings.getByRole('checkbox').isChecked()).toBe(false);
      await settings.getByLabel('At once, for each new request').check();
      await settings.getByRole('button', { name: 'Save message settings' }).click();
      await poster.waitForURL(/\/account\?done=messages-saved#message-settings$/);
      await waitForEnhanced(poster, javaScriptEnabled);
      expect(await poster.locator('#message-settings').getByRole('status').textContent()).toBe(
        'Your message settings are saved.',
      );
      expect(
        await poster
          .locator('#message-settings')
          .getByLabel('At once, for each new request')
          .isChecked(),
      ).toBe(true);
    });

    test('the replier writes from the reply screen; the poster is mailed without the text', async () => {
      await gotoEnhanced(replier, `${world.server.url}${newMessagePath(adId)}`, javaScriptEnabled);
      expect(
        await replier
          .getByRole('link', { name: 'online dating safety notice' })
          .getAttribute('href'),
      ).toBe('/about/dating-safety');
      expect(await heading(replier)).toBe('Reply to an ad');
      expect(await replier.locator('.reply-card__ad h2').textContent()).toBe(title);
      // Refused first: contact details in a first message; what was typed is kept.
      await replier.getByLabel('Your message').fill('Call me on 555-123-4567');
      await replier.getByRole('button', { name: 'Send message' }).click();
      await replier.waitForLoadState('load');
      expect(await replier.getByRole('alert').textContent()).toContain('Contact details');
      expect(await replier.getByLabel('Your message').inputValue()).toBe('Call me on 555-123-4567');
      // Refused by the scam shield: the part refused is quoted, the text kept to rephrase.
      const lure = 'Love your ad! I rarely log in here, add me on kik, my name there is jess22';
      await replier.getByLabel('Your message').fill(lure);
      await replier.getByRole('button', { name: 'Send message' }).click();
      await replier.waitForLoadState('load');
      const refusal = await replier.getByRole('alert').textContent();
      expect(refusal).toMatch(/Your message was not sent\. The part “[^”]+” reads as /);
      expect(refusal).toContain('say it in other words');
      expect(await replier.getByLabel('Your message').inputValue()).toBe(lure);

      await replier.getByLabel('Your message').fill('Hello! Which market do you go to?');
      await replier.getByRole('button', { name: 'Send message' }).click();
      await replier.waitForURL(/\/messages\/\d+\?done=started$/);
      conversationId = Number(/\/messages\/(\d+)/.exec(replier.url())![1]);
      expect(await replier.getByRole('status').first().textContent()).toContain(
        'Your message is sent.',
      );
      expect(await replier.locator('.message').last().textContent()).toContain(
        'Which market do you go to?',
      );
      expect(await replier.content()).not.toContain(posterEmail);

      const mail = await mailTo(world.server.outboxDir, posterEmail, 'new message');
      expect(mail.text).toContain(`${world.server.url}${conversationPath(conversationId)}`);
      expect(mail.raw).not.toContain('Which market');
      expect(mail.raw).not.toContain(replierEmail);
    });

    test('the poster finds it in Requests, not Chats, reads it; the replier writing again leaves it there', async () => {
      await gotoEnhanced(poster, `${world.server.url}/`, javaScriptEnabled);
      if (javaScriptEnabled) {
        const link = poster.locator('.member-bar__messages');
        expect(await link.textContent()).toBe('Messages 1 new request');
      }
      await gotoEnhanced(poster, `${world.server.url}${messagesPath()}`, javaScriptEnabled);
      expect(await heading(poster)).toBe('Messages');
      expect(await poster.locator('.inbox__new').textContent()).toBe('1 new request');
      expect(await poster.locator('.inbox__folders').textContent()).toBe(
        'ChatsRequests (1) · 1 newFiltered (0)',
      );
      expect(await poster.locator('.inbox-item', { hasText: title }).count()).toBe(0);
      expect(await poster.locator('.inbox__empty h2').textContent()).toBe('No chats yet');
      await lookAt(poster, `chats-empty-${run}`, javaScriptEnabled);
      await poster.getByRole('link', { name: 'Requests (1) · 1 new' }).click();
      await poster.waitForURL(`${world.server.url}${requestMessagesPath()}`);
      await waitForEnhanced(poster, javaScriptEnabled);
      expect(await heading(poster)).toBe('Message requests');
      const item = poster.locator('.inbox-item', { hasText: title });
      expect(await item.locator('.unread-count').textContent()).toBe('1 unread');
      expect(await poster.locator('.inbox__summary').textContent()).toBe(
        '1 conversation · 1 unread message',
      );
      await lookAt(poster, `requests-${run}`, javaScriptEnabled);
      await item.getByRole('link', { name: title }).click();
      await poster.waitForURL(`${world.server.url}${conversationPath(conversationId)}`);
      expect(await poster.locator('.message__from').first().textContent()).toBe(
        'The member who replied',
      );
      expect(await poster.getByText('This is a request').count()).toBe(1);
      expect(await poster.content()).not.toContain(replierEmail);

      await gotoEnhanced(poster, `${world.server.url}${requestMessagesPath()}`, javaScriptEnabled);
      expect(await poster.locator('.inbox__summary').textContent()).toBe(
        '1 conversation · all read',
      );
      expect(await poster.locator('.inbox-item .unread-count').count()).toBe(0);
      expect(await poster.locator('.inbox__new').count()).toBe(0);
      if (javaScriptEnabled)
        expect(await poster.locator('.member-bar__messages').textContent()).toBe('Messages');

      // The replier writing again: still a request.
      await sendReply(
        replier,
        `${world.server.url}${conversationPath(conversationId)}`,
        'Reply to the poster',
        'Or the one by the station?',
        javaScriptEnabled,
      );
      await gotoEnhanced(poster, `${world.server.url}${messagesPath()}`, javaScriptEnabled);
      expect(await poster.locator('.inbox__folders').textContent()).toBe(
        'ChatsRequests (1) · 1 newFiltered (0)',
      );
    });

    test('the poster answers: a chat for both, the replier told in the header', async () => {
      await sendReply(
        poster,
        `${world.server.url}${conversationPath(conversationId)}`,
        'Reply to the member',
        'The one on Main Street, Saturdays.',
        javaScriptEnabled,
      );
      expect(await poster.locator('.message').last().textContent()).toContain('Main Street');
      await lookAt(poster, `conversation-${run}`, javaScriptEnabled);

      // The replier: a chat, mailed at once, and the header says so.
      const mail = await mailTo(world.server.outboxDir, replierEmail, 'new message');
      expect(mail.raw).not.toContain('Main Street');
      if (javaScriptEnabled) {
        await gotoEnhanced(replier, `${world.server.url}/`, javaScriptEnabled);
        expect(await replier.locator('.member-bar__messages').textContent()).toBe(
          'Messages 1 new chat',
        );
      }
      await gotoEnhanced(
        replier,
        `${world.server.url}${conversationPath(conversationId)}`,
        javaScriptEnabled,
      );
      const froms = await replier.locator('.message__from').allTextContents();
      expect(froms).toEqual(['You', 'You', 'The poster']);

      await gotoEnhanced(poster, `${world.server.url}${messagesPath()}`, javaScriptEnabled);
      expect(await poster.locator('.inbox__folders').textContent()).toBe(
        'ChatsRequests (0)Filtered (0)',
      );
      expect(await poster.locator('.inbox-item', { hasText: title }).count()).toBe(1);
      await lookAt(poster, `chats-${run}`, javaScriptEnabled);
    });

    test('the poster blocks the replier: the reply and a new conversation on the other ad are refused', async () => {
      await gotoEnhanced(
        poster,
        `${world.server.url}${conversationPath(conversationId)}`,
        javaScriptEnabled,
      );
      await poster.getByRole('button', { name: 'Block this member' }).click();
      await poster.waitForURL(/\?done=blocked$/);
      expect(await poster.getByRole('status').first().textContent()).toContain(
        'You blocked this member.',
      );
      expect(await poster.getByRole('button', { name: 'Unblock this member' }).count()).toBe(1);

      // The replier's page was opened before the block: the post is refused, what was typed kept.
      await replier.getByLabel('Reply to the poster').fill('Shall we meet there?');
      await replier.getByRole('button', { name: 'Send', exact: true }).click();
      await replier.waitForLoadState('load');
      expect(await replier.getByRole('alert').textContent()).toBe(
        'This member has blocked you: you can no longer write to them or reply to their ads.',
      );
      expect(await replier.getByLabel('Reply to the poster').count()).toBe(0);

      await gotoEnhanced(
        replier,
        `${world.server.url}${newMessagePath(otherAdId)}`,
        javaScriptEnabled,
      );
      expect(await replier.locator('.reply-card').textContent()).toContain(
        'The poster of this ad has blocked you',
      );
      expect(await replier.getByLabel('Your message').count()).toBe(0);
      // The same as a plain form post, as a page without the form would send it.
      const posted = await replierContext.request.post(`${world.server.url}${messagesApiPath()}`, {
        form: { ad: String(otherAdId), body: 'Hello about your second ad' },
        maxRedirects: 0,
      });
      expect(posted.status()).toBe(403);
      expect(await posted.text()).toContain('The poster of this ad has blocked you');
      const stored = await storedRow<{ n: number }>(
        world.server,
        'SELECT COUNT(*) AS n FROM conversations WHERE ad_id = ?',
        otherAdId,
      );
      expect(Number(stored!.n)).toBe(0);
    });
  },
);
