// Requests and Chats, read receipts and a member who leaves, on the production build (issue 54),
// in Chromium with JavaScript and again without it (every step a plain form post or link): a
// member with a new chat and a new request reads "2 new: 1 chat, 1 request" in the header and on
// /messages; two members turn read receipts on from /account's "Messages" form and one sees
// "Read" under their last message; a member who wrote a request deletes their account, and the
// poster still reads it, is told in words that this member has left, and reports it with the
// Report button. Screenshots of /messages, the conversation with "Read" and the departed one at
// 390 and 1280 px, with axe-core.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  accountPath,
  conversationPath,
  deleteAccountPath,
  messagesApiPath,
  messagesPath,
  replyApiPath,
  requestMessagesPath,
} from '../../core/paths.ts';
import { bothWays, desktopContext } from '../helpers/both-ways.ts';
import { gotoEnhanced, waitForEnhanced } from '../helpers/browser-waits.ts';
import { sendReply, heading, PASSWORD, signUpAndVerify } from '../helpers/e2e-members.ts';
import { liveAdThroughApi, moderationBrowserForFile } from '../helpers/moderation-browser.ts';
import { lookAtWidths, screenshot } from '../helpers/page-checks.ts';
import { textOf } from './support.ts';
import { storedRows } from '../helpers/stored-rows.ts';

const SHOTS = process.env.MESSAGES_SCREENSHOTS_DIR ?? '/tmp/localboard-messages-screenshots';

const world = moderationBrowserForFile({ verifiedModerator: true });

describe.each(bothWays())(
  'requests, chats, read receipts and a member who leaves, %s',
  (_, javaScriptEnabled, run) => {
    const contexts: BrowserContext[] = [];
    let member: Page;
    let chess: Page;
    let writer: Page;
    let chat = 0;
    let request = 0;

    /** A signed-up, verified member's context (JavaScript as the run says). */
    async function memberContext(label: string) {
      const context = await desktopContext(world.browser, javaScriptEnabled);
      contexts.push(context);
      await signUpAndVerify(context, world.server, `${label}-${run}`);
      return context;
    }

    /** Posts as the context's member, as a page's script would; the answer's JSON. */
    async function post(context: BrowserContext, path: string, data: Record<string, string>) {
      const response = await context.request.post(`${world.server.url}${path}`, { data });
      expect(response.status()).toBe(201);
      return (await response.json()) as { conversationId?: number };
    }

    beforeAll(async () => {
      const memberContext_ = await memberContext('member');
      const chessContext = await memberContext('chess');
      const writerContext = await memberContext('writer');
      const pottery = await liveAdThroughApi(world, memberContext_, {
        city: javaScriptEnabled ? 'Oakland' : 'Berkeley',
        title: `Pottery on Sundays (${run})`,
        description: 'Clay, tea and a slow afternoon.',
      });
      const chessAd = await liveAdThroughApi(world, chessContext, {
        city: javaScriptEnabled ? 'Stockton' : 'Merced',
        title: `Chess in the park (${run})`,
        description: 'Blitz or slow games, your choice.',
      });
      // The member wrote to the chess player, who answered: a chat, with an unread message.
      chat = Number(
        (
          await post(memberContext_, messagesApiPath(), {
            ad: String(chessAd),
            body: 'I play slow games. Saturday?',
          })
        ).conversationId,
      );
      await post(chessContext, replyApiPath(chat), { body: 'Saturday works. The big oak?' });
      // A stranger wrote about the member's ad: a request.
      request = Number(
        (
          await post(writerContext, messagesApiPath(), {
            ad: String(pottery),
            body: 'I have been throwing pots for years. Which studio?',
          })
        ).conversationId,
      );
      member = await memberContext_.newPage();
      chess = await chessContext.newPage();
      writer = await writerContext.newPage();
    });
    afterAll(async () => {
      for (const context of contexts) await context.close();
    });

    test('the header and /messages say which is new: "2 new: 1 chat, 1 request"', async () => {
      await gotoEnhanced(member, `${world.server.url}/`, javaScriptEnabled);
      if (javaScriptEnabled)
        expect(await member.locator('.member-bar__messages').textContent()).toBe(
          'Messages 2 new: 1 chat, 1 request',
        );
      await gotoEnhanced(member, `${world.server.url}${messagesPath()}`, javaScriptEnabled);
      expect(await member.locator('.inbox__new').textContent()).toBe('2 new: 1 chat, 1 request');
      expect(await member.locator('.inbox__folders').textContent()).toBe(
        'Chats · 1 newRequests (1) · 1 newFiltered (0)',
      );
      expect(await member.locator('.inbox-item').allTextContents()).toEqual([
        expect.stringContaining(`Chess in the park (${run})`),
      ]);
      await lookAtWidths(member, SHOTS, `messages-both-new-${run}`, javaScriptEnabled);
    });

    test('read receipts: both turn them on in /account, and "Read" shows under the last message', async () => {
      for (const page of [member, chess]) {
        await gotoEnhanced(page, `${world.server.url}${accountPath()}`, javaScriptEnabled);
        const settings = page.locator('#message-settings');
        await settings.getByRole('checkbox').check();
        await settings.getByRole('button', { name: 'Save message settings' }).click();
        await page.waitForURL(/\/account\?done=messages-saved#message-settings$/);
        await waitForEnhanced(page, javaScriptEnabled);
        expect(await page.locator('#message-settings').getByRole('checkbox').isChecked()).toBe(
          true,
        );
      }
      // The form as the member sees it, saved, on a phone.
      await member.setViewportSize({ width: 390, height: 900 });
      await screenshot(
        member.locator('#message-settings'),
        `${SHOTS}/account-message-settings-${run}-390.png`,
      );
      await member.setViewportSize({ width: 1280, height: 900 });
      await sendReply(
        member,
        `${world.server.url}${conversationPath(chat)}`,
        'Reply to the poster',
        'The big oak it is. Noon?',
        javaScriptEnabled,
      );
      expect(await member.locator('.message__read').count()).toBe(0);
      // The chess player opens it: read.
      await gotoEnhanced(chess, `${world.server.url}${conversationPath(chat)}`, javaScriptEnabled);
      await gotoEnhanced(member, `${world.server.url}${conversationPath(chat)}`, javaScriptEnabled);
      const last = member.locator('.message').last();
      expect(await last.textContent()).toContain('The big oak it is. Noon?');
      expect(await last.locator('.message__read').textContent()).toBe('Read');
      expect(await member.locator('.message__read').count()).toBe(1);
      await lookAtWidths(member, SHOTS, `conversation-read-${run}`, javaScriptEnabled);
    });

    test('the writer of a request deletes their account; the member reads it, is told, and reports it', async () => {
      await gotoEnhanced(writer, `${world.server.url}${deleteAccountPath()}`, javaScriptEnabled);
      expect(textOf(await writer.content())).toContain(
        'The members you wrote with keep your messages in their conversations for 30 days',
      );
      await writer.getByLabel('Your password').fill(PASSWORD);
      await writer.getByRole('button', { name: 'Delete my account' }).click();
      await writer.waitForURL(`${world.server.url}${deleteAccountPath()}?done=1`);

      await gotoEnhanced(
        member,
        `${world.server.url}${conversationPath(request)}`,
        javaScriptEnabled,
      );
      const departed = member.locator('.departed');
      expect(await departed.getByRole('heading').textContent()).toBe('This member has left');
      expect(await departed.textContent()).toMatch(
        /They deleted their account\. Their messages stay here for you until \w+ \d+, \d{4}, so that you can report them/,
      );
      expect(await member.locator('.message').first().textContent()).toContain(
        'I have been throwing pots for years.',
      );
      expect(await member.getByText('This is a request').count()).toBe(0);
      await lookAtWidths(member, SHOTS, `conversation-departed-${run}`, javaScriptEnabled);
      // Requests still lists it, in the same words, and nothing in it is new any more.
      await gotoEnhanced(member, `${world.server.url}${requestMessagesPath()}`, javaScriptEnabled);
      const listed = textOf(await member.content());
      expect(listed).toContain('This member has left. They deleted their account.');
      expect(listed).not.toMatch(/\d+ new/);
      await lookAtWidths(member, SHOTS, `requests-departed-${run}`, javaScriptEnabled);
      await gotoEnhanced(
        member,
        `${world.server.url}${conversationPath(request)}`,
        javaScriptEnabled,
      );
      await departed.getByRole('link', { name: 'Report this conversation' }).click();
      await member.waitForURL(`${world.server.url}/report?conversation=${request}`);
      expect(await heading(member)).toBe('Report this conversation');
      await member.getByLabel('Scam or spam').check();
      await member.getByRole('button', { name: 'Send the report' }).click();
      await member.waitForURL(`${world.server.url}/report?sent=1`);
      expect(textOf(await member.content())).toContain('Thank you, a moderator will look at it.');
      const [report] = await storedRows<{ thread: string }>(
        world.server,
        'SELECT thread FROM reports WHERE conversation_id = ?',
        request,
      );
      expect(JSON.parse(report!.thread)).toEqual([
        expect.objectContaining({
          from: 'reported',
          body: 'I have been throwing pots for years. Which studio?',
        }),
      ]);
    });
  },
);
