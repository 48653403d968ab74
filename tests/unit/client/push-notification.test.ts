// The service worker's handlers (src/client/push-notification.ts), given a scope of their own: what
// a Declarative Web Push message shows, that a notification only ever leads to a page of the site,
// and where a click goes. In Chromium the built /sw.js shows a pushed message (tests/e2e/web-app.test.ts).
import { describe, expect, test } from 'vitest';
import {
  notificationOf,
  onNotificationClick,
  onPush,
  type PushScope,
  type ShownNotification,
  type WindowLike,
} from '../../../src/client/push-notification.ts';

const ORIGIN = 'https://localboard.example';
const declarative = (notification: Record<string, unknown>) =>
  JSON.stringify({ web_push: 8030, notification });

/** A service worker's scope that records what the handlers did. */
function recordingScope(windows: string[] = []) {
  const done: string[] = [];
  const shown: ShownNotification[] = [];
  const waited: Promise<unknown>[] = [];
  const windowOf = (url: string): WindowLike => ({
    url,
    focus: async () => done.push(`focus ${url}`),
    navigate: async (to) => done.push(`navigate ${url} to ${to}`),
  });
  const scope: PushScope = {
    location: { origin: ORIGIN },
    registration: {
      showNotification: async (title, options) => void shown.push({ title, options }),
    },
    clients: {
      matchAll: async () => windows.map(windowOf),
      openWindow: async (url) => done.push(`open ${url}`),
    },
  };
  const waitUntil = (promise: Promise<unknown>) => void waited.push(promise);
  return { scope, done, shown, settled: () => Promise.all(waited), waitUntil };
}

describe('a pushed message', () => {
  test('shows the title, body and tag it says, and opens its page', () => {
    const text = declarative({
      title: 'New message on Localboard',
      body: 'Open the conversation to read it.',
      navigate: `${ORIGIN}/messages/12`,
      tag: 'conversation-12',
      lang: 'en',
    });
    expect(notificationOf(text, ORIGIN)).toEqual({
      title: 'New message on Localboard',
      options: {
        body: 'Open the conversation to read it.',
        tag: 'conversation-12',
        lang: 'en',
        icon: '/icons/icon-192.png',
        data: { navigate: `${ORIGIN}/messages/12` },
      },
    });
  });

  test('never leads to another site', () => {
    const text = declarative({ title: 'New', navigate: 'https://elsewhere.example/phish' });
    expect(notificationOf(text, ORIGIN).options.data.navigate).toBe(`${ORIGIN}/`);
    const relative = declarative({ title: 'New', navigate: '/messages/3' });
    expect(notificationOf(relative, ORIGIN).options.data.navigate).toBe(`${ORIGIN}/messages/3`);
  });

  test('that is not ours still shows a notification (browsers require one), by the site’s name', () => {
    for (const text of [undefined, 'not json', '{"title":"no magic number"}'])
      expect(notificationOf(text, ORIGIN)).toEqual({
        title: 'localboard.example',
        options: { icon: '/icons/icon-192.png', data: { navigate: `${ORIGIN}/` } },
      });
  });

  test('the push handler shows it, and the worker waits for it', async () => {
    const { scope, shown, settled, waitUntil } = recordingScope();
    const text = declarative({ title: 'New message on Localboard', navigate: '/messages/4' });
    onPush(scope, { data: { text: () => text }, waitUntil });
    await settled();
    expect(shown.map((notification) => notification.title)).toEqual(['New message on Localboard']);
  });
});

describe('a click on the notification', () => {
  const click = async (windows: string[], navigate: unknown) => {
    const world = recordingScope(windows);
    let closed = false;
    onNotificationClick(world.scope, {
      notification: { data: { navigate }, close: () => void (closed = true) },
      waitUntil: world.waitUntil,
    });
    await world.settled();
    return { done: world.done, closed };
  };

  test('brings forward a window already on the conversation', async () => {
    const { done, closed } = await click(
      [`${ORIGIN}/`, `${ORIGIN}/messages/12`],
      `${ORIGIN}/messages/12`,
    );
    expect(closed).toBe(true);
    expect(done).toEqual([`focus ${ORIGIN}/messages/12`]);
  });

  test('takes a window of the site there', async () => {
    const { done } = await click([`${ORIGIN}/account`], `${ORIGIN}/messages/12`);
    expect(done).toEqual([
      `navigate ${ORIGIN}/account to ${ORIGIN}/messages/12`,
      `focus ${ORIGIN}/account`,
    ]);
  });

  test('opens a new window when the site has none, and never another site', async () => {
    expect((await click(['https://elsewhere.example/'], `${ORIGIN}/messages/12`)).done).toEqual([
      `open ${ORIGIN}/messages/12`,
    ]);
    expect((await click([], 'https://elsewhere.example/')).done).toEqual([`open ${ORIGIN}/`]);
  });
});
