// "Notify me on this device" on the production build, in Chromium (docs/product.md section 7,
// "Notifications on this device"), against a server with VAPID keys of the test's and a push
// service on loopback (tests/helpers/push-service.ts).
//
// What this proves, and what it does not. Chromium here has no push service to reach (a real one
// is Google's, over the network), so PushManager.subscribe cannot give a subscription: the test
// replaces that one browser method (and getSubscription, its reader) by an init script that records
// the applicationServerKey it is called with and answers a subscription the test push service
// made, keys and all. Everything else is real: the button, the notifications permission (granted
// through the browser context), the service worker registered at /sw.js, the subscription posted
// by the page's script and stored, the page listing the device as "this device", a new message
// pushed to the push service, which checks its VAPID signature and decrypts it with the
// device's keys. The worker's push handler is tested in a whole Chromium (tests/e2e/web-app.test.ts).
// The remove and settings forms are then used without JavaScript. Screenshots of the section at
// 390 and 1280 px (axe-core clean) into PUSH_SCREENSHOTS_DIR (default
// /tmp/localboard-push-screenshots).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NOTIFICATIONS_ANCHOR, serviceWorkerPath } from '../../core/paths.ts';
import { desktopContext } from '../helpers/both-ways.ts';
import { gotoEnhanced } from '../helpers/browser-waits.ts';
import { heading, signUpAndVerify } from '../helpers/e2e-members.ts';
import { insertLiveAd } from '../helpers/messages.ts';
import { startModerationServer, type ModerationServer } from '../helpers/moderation-server.ts';
import { lookAtWidths, overflowWidth, screenshot } from '../helpers/page-checks.ts';
import {
  startTestPushService,
  type TestDevice,
  type TestPushService,
} from '../helpers/push-service.ts';
import { testWebPushSettings } from '../helpers/web-push.ts';
import { launchChromium, siteDir } from './support.ts';

const SHOTS = process.env.PUSH_SCREENSHOTS_DIR ?? '/tmp/localboard-push-screenshots';
const AD_TITLE = 'Jazz on Friday nights';

let browser: Browser;
let server: ModerationServer;
let service: TestPushService;
let device: TestDevice;
let posterContext: BrowserContext;
let poster: Page;
let posterId = 0;
let adId = 0;

/**
 * The init script: PushManager's subscribe answers the test device's subscription (kept in
 * localStorage, as the browser keeps its own across pages), and records the key it was asked with.
 */
function fakePushService(subscription: TestDevice['subscription']) {
  const KEPT = 'test-push-subscription';
  const record = (calls: number[][]) =>
    localStorage.setItem('test-push-calls', JSON.stringify(calls));
  const made = (key: number[]) => ({
    endpoint: subscription.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(key).buffer },
    toJSON: () => subscription,
    unsubscribe: async () => {
      localStorage.removeItem(KEPT);
      return true;
    },
  });
  PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
    const key = Array.from(new Uint8Array(options!.applicationServerKey as ArrayBuffer));
    record([...JSON.parse(localStorage.getItem('test-push-calls') ?? '[]'), key]);
    localStorage.setItem(KEPT, JSON.stringify(key));
    return made(key) as unknown as PushSubscription;
  };
  PushManager.prototype.getSubscription = async function () {
    const kept = localStorage.getItem(KEPT);
    return kept ? (made(JSON.parse(kept)) as unknown as PushSubscription) : null;
  };
}

const newContext = (javaScriptEnabled = true) => desktopContext(browser, javaScriptEnabled);

beforeAll(async () => {
  service = await startTestPushService();
  [browser, server] = await Promise.all([
    launchChromium(),
    startModerationServer(siteDir(), { webPush: testWebPushSettings([service.origin]) }),
  ]);
  device = service.newDevice('chromium');
  posterContext = await newContext();
  await posterContext.grantPermissions(['notifications'], { origin: server.url });
  await posterContext.addInitScript(fakePushService, device.subscription);
  const email = await signUpAndVerify(posterContext, server, 'push-poster');
  posterId = (await server.store.accounts.findByEmail(email))!.id;
  adId = await insertLiveAd(server, { accountId: posterId }, AD_TITLE);
  poster = await posterContext.newPage();
});
afterAll(async () => {
  await posterContext?.close();
  await browser?.close();
  await server?.stop();
  await service?.close();
});

const section = (page: Page) => page.locator(`#${NOTIFICATIONS_ANCHOR}`);

/** The whole page at 390 and 1280 px (lookAtWidths: axe-core too), and the section alone. */
async function lookAtSection(page: Page, name: string, javaScriptEnabled: boolean) {
  await section(page).scrollIntoViewIfNeeded();
  await lookAtWidths(page, SHOTS, name, javaScriptEnabled);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(section(page), `${SHOTS}/${name}-section-${width}.png`);
  }
  expect(await overflowWidth(page)).toBeLessThanOrEqual(0);
}

describe('notifications on this device, in Chromium', () => {
  test('the account page asks nothing until the button is pressed', async () => {
    await gotoEnhanced(poster, `${server.url}/account`);
    expect(await heading(poster)).toBe('Your account');
    const button = section(poster).getByRole('button', { name: 'Notify me on this device' });
    expect(await button.isVisible()).toBe(true);
    // No worker registered and nothing subscribed by a visit.
    expect(
      await poster.evaluate(() => navigator.serviceWorker.getRegistration('/')),
    ).toBeUndefined();
    expect(await poster.evaluate(() => localStorage.getItem('test-push-calls'))).toBeNull();
    await lookAtSection(poster, 'account-notifications-before', true);
  });

  test('pressing it registers the worker, subscribes with the site’s key and lists the device', async () => {
    await gotoEnhanced(poster, `${server.url}/account`);
    await section(poster).getByRole('button', { name: 'Notify me on this device' }).click();
    await poster.waitForURL(`${server.url}/account?done=device-added#${NOTIFICATIONS_ANCHOR}`);
    await gotoEnhanced(poster, poster.url());
    expect(await section(poster).locator('.banner').textContent()).toBe(
      'Notifications are on for this device.',
    );
    // The worker is the site's /sw.js, for the whole site.
    const worker = await poster.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration('/');
      return { script: registration?.active?.scriptURL, scope: registration?.scope };
    });
    expect(worker).toEqual({
      script: `${server.url}${serviceWorkerPath()}`,
      scope: `${server.url}/`,
    });
    // Subscribed once, with the VAPID public key the server has.
    const calls = JSON.parse(
      (await poster.evaluate(() => localStorage.getItem('test-push-calls')))!,
    );
    expect(calls.map((key: number[]) => Buffer.from(key).toString('base64url'))).toEqual([
      server.pusher!.settings!.vapid.publicKey,
    ]);
    // Stored as the browser gave it, listed as this device.
    const [stored] = await server.store.pushes.devicesOf(posterId);
    expect(stored).toMatchObject({ endpoint: device.subscription.endpoint });
    expect(stored!.deviceLabel).toBe('Chrome on Linux');
    expect(await section(poster).locator('.push__devices li').textContent()).toContain(
      `${stored!.deviceLabel} (this device)`,
    );
    expect(await section(poster).locator('[data-push-status]').textContent()).toBe(
      'This device gets notifications.',
    );
    // Nothing more to turn on here.
    expect(
      await section(poster).getByRole('button', { name: 'Notify me on this device' }).isVisible(),
    ).toBe(false);
    await lookAtSection(poster, 'account-notifications-on', true);
  });

  test('a new message in the conversation is pushed there, without its text', async () => {
    const replierContext = await newContext();
    await signUpAndVerify(replierContext, server, 'push-replier');
    const replier = await replierContext.newPage();
    await gotoEnhanced(replier, `${server.url}/messages/new?ad=${adId}`);
    await replier.getByLabel('Your message').fill('Hello! Which jazz club do you go to?');
    await replier.getByRole('button', { name: 'Send message' }).click();
    await replier.waitForURL(/\/messages\/\d+/);
    const conversationUrl = replier.url().replace(/[?#].*$/, '');
    // The poster answers: it is one of their chats now.
    await gotoEnhanced(poster, conversationUrl);
    await poster.getByLabel('Reply to the member').fill('The one by the river. You?');
    await poster.getByRole('button', { name: 'Send', exact: true }).click();
    await poster.waitForLoadState('load');

    const coming = service.nextPush();
    await gotoEnhanced(replier, conversationUrl);
    await replier.getByLabel('Reply to the poster').fill('Same one! Saxophone night is the best.');
    await replier.getByRole('button', { name: 'Send', exact: true }).click();
    const received = await coming;
    expect(received.device).toBe('chromium');
    expect(JSON.parse(received.text)).toMatchObject({
      web_push: 8030,
      notification: { title: 'New message on Localboard', navigate: conversationUrl },
    });
    expect(received.text).not.toMatch(/saxophone|jazz|river/i);
    await replierContext.close();
  });
});

describe('the forms without JavaScript', () => {
  test('what to notify me of is saved, and the device is removed, by plain posts', async () => {
    const context = await newContext(false);
    await context.addCookies(await posterContext.cookies());
    const page = await context.newPage();
    await page.goto(`${server.url}/account`);
    // Without JavaScript there is no button, and the page says why.
    expect(
      await section(page).getByRole('button', { name: 'Notify me on this device' }).isVisible(),
    ).toBe(false);
    expect(await section(page).textContent()).toContain('Notifications need JavaScript');
    const form = section(page).locator('form.push__form');
    await form.getByLabel('First messages about my ads, before I answer them').check();
    await form.getByRole('button', { name: 'Save notification settings' }).click();
    await page.waitForLoadState('load');
    expect(page.url()).toBe(`${server.url}/account?done=push-saved#${NOTIFICATIONS_ANCHOR}`);
    expect(await server.store.pushes.settingsOf(posterId)).toMatchObject({ requests: true });
    expect(
      await form.getByLabel('First messages about my ads, before I answer them').isChecked(),
    ).toBe(true);
    await lookAtSection(page, 'account-notifications-no-js', false);

    await section(page)
      .getByRole('button', { name: /^Remove/ })
      .click();
    await page.waitForLoadState('load');
    expect(page.url()).toBe(`${server.url}/account?done=device-removed#${NOTIFICATIONS_ANCHOR}`);
    expect(await section(page).textContent()).toContain('No device gets notifications.');
    expect(await server.store.pushes.devicesOf(posterId)).toEqual([]);
    await context.close();
  });
});

describe('signing out, in Chromium', () => {
  test('turns this browser’s notifications off, and the server’s device with them', async () => {
    await gotoEnhanced(poster, `${server.url}/account`);
    await section(poster).getByRole('button', { name: 'Notify me on this device' }).click();
    await poster.waitForURL(`${server.url}/account?done=device-added#${NOTIFICATIONS_ANCHOR}`);
    expect((await server.store.pushes.devicesOf(posterId)).length).toBe(1);
    await gotoEnhanced(poster, `${server.url}/account`);
    await poster.getByRole('button', { name: 'Sign out' }).click();
    await poster.waitForURL(`${server.url}/`);
    // The browser's subscription is gone (the test's PushManager keeps it in localStorage), and
    // so is the device the server had.
    expect(await poster.evaluate(() => localStorage.getItem('test-push-subscription'))).toBeNull();
    expect(await server.store.pushes.devicesOf(posterId)).toEqual([]);
  });
});
