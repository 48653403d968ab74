// For the e2e tests of members' pages on the moderation server: Chromium, the server on the shared
// build, and a browser context signed in as a moderator (to approve what the members post).
import type { Browser, BrowserContext } from 'playwright-core';
import { expect } from 'vitest';
import { makeModerator } from '../../server/moderation/moderator-command.ts';
import { launchChromium, siteDir } from '../e2e/support.ts';
import { signUpAndVerify, signUpWithApi, uniqueEmail } from './e2e-members.ts';
import { startModerationServer, type ModerationServer } from './moderation-server.ts';

export interface ModerationBrowser {
  browser: Browser;
  server: ModerationServer;
  moderator: BrowserContext;
}

/** Starts both and makes the moderator (verified through the mailed link when `verifiedModerator`). */
export async function startModerationBrowser(
  options: { verifiedModerator?: boolean } = {},
): Promise<ModerationBrowser> {
  const [browser, server] = await Promise.all([launchChromium(), startModerationServer(siteDir())]);
  let moderator: BrowserContext | undefined;
  try {
    moderator = await browser.newContext();
    let email: string;
    if (options.verifiedModerator) email = await signUpAndVerify(moderator, server, 'moderator');
    else {
      email = uniqueEmail('moderator');
      await signUpWithApi(moderator, server.url, email);
    }
    expect((await makeModerator(server.store, email)).code).toBe(0);
    return { browser, server, moderator };
  } catch (error) {
    await stopModerationBrowser({ browser, server, moderator });
    throw error;
  }
}

/** Closes what started (any of it may be missing when the start failed). */
export async function stopModerationBrowser(started: Partial<ModerationBrowser>): Promise<void> {
  await started.moderator?.close();
  await started.browser?.close();
  await started.server?.stop();
}
