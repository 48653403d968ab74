// For the e2e tests of members' pages on the moderation server: Chromium, the server on the shared
// build, and a browser context signed in as a moderator (to approve what the members post).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { adsApiPath, moderateAdApiPath } from '../../core/paths.ts';
import { makeModerator } from '../../server/moderation/moderator-command.ts';
import { launchChromium, siteDir } from '../e2e/support.ts';
import { moderatorContext, signUpAndVerify, signUpWithApi, uniqueEmail } from './e2e-members.ts';
import { appPhotosOf, keptPhotoId, putPhotosOnAd, testPhotoPool } from './moderation-photos.ts';
import { startModerationServer, type ModerationServer } from './moderation-server.ts';

/** Chromium and the moderation server on the shared build. */
export interface ChromiumAndServer {
  browser: Browser;
  server: ModerationServer;
}

export interface ModerationBrowser extends ChromiumAndServer {
  moderator: BrowserContext;
}

/**
 * Chromium and the moderation server for the file's tests: started before them, stopped after.
 * The object is filled in by `beforeAll`: read it inside hooks and tests only.
 */
export function chromiumAndServerForFile(
  serverOptions?: Parameters<typeof startModerationServer>[1],
): ChromiumAndServer {
  const started = {} as ChromiumAndServer;
  beforeAll(async () => {
    [started.browser, started.server] = await Promise.all([
      launchChromium(),
      startModerationServer(siteDir(), serverOptions),
    ]);
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.server?.stop();
  });
  return started;
}

/** chromiumAndServerForFile with members' photos: each kept and put on ads as the routes do. */
export interface PhotoQueue extends ChromiumAndServer {
  /** A new member signed up through the API; their id. */
  memberId(label: string): Promise<number>;
  /** `bytes` kept as the member's upload (processed, scored, stored); its id. */
  keptPhotoId(accountId: number, bytes: Buffer): Promise<number>;
  /** See putPhotosOnAd. */
  putPhotosOnAd(adId: number, accountId: number, photoIds: number[]): Promise<void>;
}

/** chromiumAndServerForFile and a photo pool of the file's own (closed after its tests). */
export function photoQueueForFile(
  serverOptions?: Parameters<typeof startModerationServer>[1],
): PhotoQueue {
  const world = chromiumAndServerForFile(serverOptions) as PhotoQueue;
  const pool = testPhotoPool();
  Object.assign(world, {
    memberId: (label: string) => signedUpMemberId(world, label),
    keptPhotoId: (accountId: number, bytes: Buffer) =>
      keptPhotoId(world.server.store, appPhotosOf(world.server.store, pool), accountId, bytes),
    putPhotosOnAd: (adId: number, accountId: number, photoIds: number[]) =>
      putPhotosOnAd(world.server, adId, accountId, photoIds),
  } satisfies Omit<PhotoQueue, keyof ChromiumAndServer>);
  return world;
}

/**
 * startModerationBrowser for the file's tests, stopped after them. The object is filled in by
 * `beforeAll`: read it inside hooks and tests only.
 */
export function moderationBrowserForFile(
  options: { verifiedModerator?: boolean } = {},
): ModerationBrowser {
  const started = {} as ModerationBrowser;
  beforeAll(async () => {
    Object.assign(started, await startModerationBrowser(options));
  });
  afterAll(() => stopModerationBrowser(started));
  return started;
}

/**
 * A page signed in as a new moderator, in a context of its own, for the tests of the describe it
 * is called in (closed after them). Filled in by `beforeAll`: read it inside tests only.
 */
export function moderatorPageForTests(
  started: ChromiumAndServer,
  javaScriptEnabled: boolean,
): { context: BrowserContext; page: Page } {
  const moderator = {} as { context: BrowserContext; page: Page };
  beforeAll(async () => {
    ({ context: moderator.context } = await moderatorContext(
      started.browser,
      started.server,
      javaScriptEnabled,
    ));
    moderator.page = await moderator.context.newPage();
  });
  afterAll(async () => {
    await moderator.context?.close();
  });
  return moderator;
}

/** A new member signed up through the API in a context of its own (closed again); their id. */
export async function signedUpMemberId(started: ChromiumAndServer, label: string): Promise<number> {
  const context = await started.browser.newContext();
  const email = uniqueEmail(label);
  await signUpWithApi(context, started.server.url, email);
  await context.close();
  return (await started.server.store.accounts.findByEmail(email))!.id;
}

/** The fields of an ad in California posted through the API; `city` and `title` are the test's. */
export interface ApiAd {
  city: string;
  title: string;
  description: string;
}

/** Posts the ad through the API as the context's member, and the moderator approves it; its id. */
export async function liveAdThroughApi(
  started: ModerationBrowser,
  context: BrowserContext,
  ad: ApiAd,
): Promise<number> {
  const posted = await context.request.post(`${started.server.url}${adsApiPath()}`, {
    data: { state: 'California', age: '36', seeks: 'w4m', ...ad },
  });
  expect(posted.status()).toBe(201);
  const { id } = (await posted.json()) as { id: number };
  const approved = await started.moderator.request.post(
    `${started.server.url}${moderateAdApiPath(id, 'approve')}`,
    { data: { revision: 1 } },
  );
  expect(approved.status()).toBe(200);
  return id;
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
