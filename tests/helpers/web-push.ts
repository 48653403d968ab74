// Web Push in a test: the test push service on loopback (push-service.ts), VAPID keys of the test's
// own, and the app's pusher built on the test's store with them and a clock the test moves
// (backoff and the rate limit are about time: a fake clock, never a wait). Registered as a file's
// hooks: the service starts before the app (whose settings name its origin), and stops after.
import { afterAll, beforeAll } from 'vitest';
import webpush from 'web-push';
import { createPusher, type Pusher } from '../../server/push/pusher.ts';
import type { WebPushSettings } from '../../server/push/web-push-settings.ts';
import type { StoreHandle } from '../../store/store.ts';
import { TEST_MAIL_SITE } from './mail.ts';
import { startTestPushService, type ReceivedPush, type TestPushService } from './push-service.ts';

export const TEST_VAPID_SUBJECT = 'mailto:operator@localboard.example';

/** VAPID keys made for the test, posting only to `origins`. */
export function testWebPushSettings(origins: readonly string[]): WebPushSettings {
  const keys = webpush.generateVAPIDKeys();
  return { vapid: { ...keys, subject: TEST_VAPID_SUBJECT }, serviceOrigins: origins };
}

export interface PushWorld {
  service: TestPushService;
  settings: WebPushSettings;
  /** The app's pusher (filled in when the app is made). */
  pusher: Pusher;
  /** What the pusher's clock reads; `advance` moves it. */
  now(): Date;
  advance(ms: number): void;
  /** What lines the pusher logged (a failed push, one given up). */
  logged: string[];
  /**
   * The next push the service receives (or the `count`th from now); one that never comes fails
   * with what the pusher logged meanwhile (a push service failing for now is retried 30 s later
   * by the frozen clock: the log says so).
   */
  nextPush(count?: number): Promise<ReceivedPush>;
  /** The TestAppOptions `pusher` factory. */
  pusherFor(store: StoreHandle): Pusher;
}

/** Call at a file's top, before the app's own hooks (messagesWorld, …). */
export function pushWorld(): PushWorld {
  // Frozen but for the test's moves: a retry's time is then exactly what the backoff says.
  let at = Date.now();
  const world = { logged: [] as string[] } as unknown as PushWorld;
  world.now = () => new Date(at);
  world.advance = (ms) => {
    at += ms;
  };
  world.nextPush = (count) =>
    world.service.nextPush(count).catch((error: Error) => {
      throw new Error(
        `${error.message}; the pusher logged: ${world.logged.join(' | ') || 'nothing'}`,
      );
    });
  world.pusherFor = (store) => {
    world.pusher = createPusher({
      store,
      settings: world.settings,
      site: () => TEST_MAIL_SITE,
      now: world.now,
      log: (line) => world.logged.push(line),
    });
    return world.pusher;
  };
  beforeAll(async () => {
    world.service = await startTestPushService();
    world.settings = testWebPushSettings([world.service.origin]);
  });
  afterAll(async () => {
    await world.pusher?.settled();
    await world.service?.close();
  });
  return world;
}
