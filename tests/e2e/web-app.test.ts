// The installable web app on the production build (docs/product.md section 7, "Notifications on
// this device"): the manifest and the service worker served with their types, the manifest's icons
// the PNGs it says; then, in a whole Chromium (the headless shell has neither the installability
// check nor notifications: scripts/chromium.mjs), the site installable — with the check shown to
// bite on the same page without its manifest link — and the built /sw.js showing a pushed message,
// sent to it as a push service would (the DevTools Protocol's ServiceWorker.deliverPushMessage).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findWholeChromium } from '../../scripts/chromium.mjs';
import { aboutPath, serviceWorkerPath, signinPath, webAppManifestPath } from '../../core/paths.ts';
import { webAppManifest } from '../../core/web-app.ts';
import { newMessagePush } from '../../server/push/payloads.ts';
import { baseUrl, builtContent, fetchPage } from './support.ts';

describe('the web app’s files', () => {
  test('the manifest is served as application/manifest+json, from the brand', async () => {
    const response = await fetch(`${baseUrl()}${webAppManifestPath()}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/manifest+json');
    expect(await response.json()).toEqual(webAppManifest(builtContent().site));
  });

  test('its icons are PNGs of the sizes it says', async () => {
    const { icons } = webAppManifest(builtContent().site);
    for (const icon of icons) {
      const response = await fetch(`${baseUrl()}${icon.src}`);
      expect(response.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
    }
  });

  test('the service worker is JavaScript at the root, and only shows pushes', async () => {
    const response = await fetch(`${baseUrl()}${serviceWorkerPath()}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const script = await response.text();
    // A classic script (every browser's service worker): no module syntax.
    expect(script).not.toMatch(/^\s*(import|export)\b/m);
    for (const listened of ['push', 'notificationclick'])
      expect(script).toContain(`addEventListener(\`${listened}\``);
    // Nothing kept offline: no fetch handler, no cache.
    expect(script).not.toContain('`fetch`');
    expect(script).not.toContain('caches');
  });

  test('every page links the manifest in the HTML the server sends', async () => {
    for (const path of ['/', signinPath(), aboutPath()]) {
      const { html } = await fetchPage(path);
      expect(html, path).toContain(`<link rel="manifest" href="${webAppManifestPath()}"/>`);
    }
  });
});

const whole = findWholeChromium();

describe.skipIf(!whole.path)('in a whole Chromium', () => {
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  let devtools: CDPSession;
  beforeAll(async () => {
    // A profile of its own on disk: an incognito context is never installable.
    profile = mkdtempSync(join(tmpdir(), 'localboard-web-app-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: whole.path!,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync'],
    });
    await context.grantPermissions(['notifications'], { origin: baseUrl() });
    page = context.pages()[0] ?? (await context.newPage());
    devtools = await context.newCDPSession(page);
  });
  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const installabilityErrors = async () =>
    (await devtools.send('Page.getInstallabilityErrors')).installabilityErrors.map(
      (error) => error.errorId,
    );

  test('finds the site installable', async () => {
    await page.goto(`${baseUrl()}/`);
    expect(await installabilityErrors()).toEqual([]);
    const { url, errors } = await devtools.send('Page.getAppManifest');
    expect([url, errors]).toEqual([`${baseUrl()}${webAppManifestPath()}`, []]);
  });

  test('and not without the manifest: the check bites', async () => {
    const path = aboutPath();
    await page.route(`${baseUrl()}${path}`, async (route) => {
      const { html } = await fetchPage(path);
      await route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: html.replace(`<link rel="manifest" href="${webAppManifestPath()}"/>`, ''),
      });
    });
    await page.goto(`${baseUrl()}${path}`);
    expect(await installabilityErrors()).toContain('no-manifest');
    await page.unroute(`${baseUrl()}${path}`);
  });

  test('the service worker shows a pushed message and keeps where it leads', async () => {
    await page.goto(`${baseUrl()}/`);
    const registrations: Array<{ registrationId: string; scopeURL: string }> = [];
    devtools.on('ServiceWorker.workerRegistrationUpdated', (event) =>
      registrations.push(...event.registrations),
    );
    await devtools.send('ServiceWorker.enable');
    // What DevTools' Background services panel records: a push dispatched, the notification
    // displayed, the push event completed. Its events are what the test waits for.
    const recorded: Array<{ name: string; metadata: Record<string, string> }> = [];
    const pushCompleted = new Promise<void>((resolve) =>
      devtools.on(
        'BackgroundService.backgroundServiceEventReceived',
        ({ backgroundServiceEvent }) => {
          const { eventName, eventMetadata } = backgroundServiceEvent;
          recorded.push({
            name: eventName,
            metadata: Object.fromEntries(eventMetadata.map(({ key, value }) => [key, value])),
          });
          if (eventName === 'Push event completed') resolve();
        },
      ),
    );
    for (const service of ['notifications', 'pushMessaging'] as const) {
      await devtools.send('BackgroundService.startObserving', { service });
      await devtools.send('BackgroundService.setRecording', { shouldRecord: true, service });
    }
    await page.evaluate(async (path) => {
      await navigator.serviceWorker.register(path);
      await navigator.serviceWorker.ready;
    }, serviceWorkerPath());
    const scope = `${baseUrl()}/`;
    await expect
      .poll(() => registrations.find((r) => r.scopeURL === scope), { timeout: 10_000 })
      .toBeDefined();
    const { registrationId } = registrations.find((r) => r.scopeURL === scope)!;
    // What the server pushes for a new message in conversation 12 (server/push/payloads.ts).
    const message = newMessagePush({ brand: builtContent().site.brand, baseUrl: baseUrl() }, 12, {
      request: false,
    });
    await devtools.send('ServiceWorker.deliverPushMessage', {
      origin: baseUrl(),
      registrationId,
      data: JSON.stringify(message),
    });
    await pushCompleted;
    expect(recorded.map(({ name, metadata }) => [name, metadata.Title ?? metadata.Status])).toEqual(
      [
        ['Push event dispatched', undefined],
        ['Notification displayed', message.notification.title],
        ['Push event completed', 'Success'],
      ],
    );
    // Read once it is displayed: Chromium drops a notification not yet displayed when asked.
    const shown = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((notification) => ({
        title: notification.title,
        body: notification.body,
        tag: notification.tag,
        data: notification.data as unknown,
      }));
    });
    expect(shown).toEqual([
      {
        title: `New message on ${builtContent().site.brand}`,
        body: 'Open the conversation to read it.',
        tag: 'conversation-12',
        data: { navigate: `${baseUrl()}/messages/12` },
      },
    ]);
  });
});
