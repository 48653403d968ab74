// The server's Web Push (docs/product.md section 7, "Notifications on this device"), built once
// (server/index.ts, or createApp's default: none) and handed to what tells members of things, as
// the mailer is. Like the mailer, it never holds up an answer: `messageSent` returns at once, and
// what it does (read the message's facts, queue the push, send it) runs in the background, a
// failure logged; `settled()` lets tests and shutdown wait for it. Pushes queued by anyone (this
// instance, another, a digest run) are sent at once when queued here, and every SEND_EVERY_MS by
// `start()`, which also forgets, hourly, the notices and unsent pushes older than a day, and the
// devices of expired sessions. Without VAPID keys (web-push-settings.ts) it is off: nothing is
// queued or sent, and the account page does not offer notifications.
import type { MailSite } from '../mail/messages.ts';
import type { Store } from '../../store/store.ts';
import { PUSH_LIFETIME_SECONDS } from './limits.ts';
import { queueMessagePush, type StoredMessage } from './notices.ts';
import { sendDuePushes, type PushRun } from './push-queue.ts';
import type { WebPushSettings } from './web-push-settings.ts';

/** How often the queue is looked at besides when this instance queues a push (retries, others'). */
export const SEND_EVERY_MS = 30_000;
const FORGET_EVERY_MS = 60 * 60_000;

export interface PusherOptions {
  store: Store;
  /** The VAPID keys and push services; none: notifications are off. */
  settings: WebPushSettings | undefined;
  /** The brand and address a push names and links to. */
  site: () => MailSite;
  /** The clock (the app's: AppOptions.now). */
  now: () => Date;
  /** Where failures and given-up pushes go; default console.error. */
  log?: (line: string) => void;
}

export interface Pusher {
  /** Whether the site sends notifications (it has VAPID keys). */
  readonly available: boolean;
  /** The settings: the VAPID public key devices subscribe with, the push services allowed. */
  readonly settings: WebPushSettings | undefined;
  /** A message was stored: its recipient's devices are told, in the background. */
  messageSent(message: StoredMessage): void;
  /** Sends what is due, in the background (one run at a time; asked during one, another after). */
  sendSoon(): void;
  /** Sends what is due now; what became of it. */
  sendDue(): Promise<PushRun>;
  /**
   * Looks at the queue every SEND_EVERY_MS, and hourly forgets old notices and the devices of
   * expired sessions, until stop().
   */
  start(): void;
  stop(): void;
  /** Resolves once everything started so far (queueing, sending) is done. */
  settled(): Promise<void>;
}

const NOTHING_SENT: PushRun = { sent: 0, gone: 0, retried: 0, givenUp: 0 };

export function createPusher(options: PusherOptions): Pusher {
  const { store, settings } = options;
  const { now } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const tracked = work
      .catch((error: unknown) => log(`Web Push: ${(error as Error).message}`))
      .finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  let running: Promise<PushRun> | undefined;
  let again = false;
  const timers: NodeJS.Timeout[] = [];

  const sendDue = (): Promise<PushRun> => {
    if (!settings) return Promise.resolve(NOTHING_SENT);
    if (running) {
      again = true;
      return running;
    }
    running = sendDuePushes(store, settings, now, log).finally(() => {
      running = undefined;
      if (again) {
        again = false;
        pusher.sendSoon();
      }
    });
    return running;
  };

  const forgetOld = () => {
    const at = now();
    track(
      store.pushes.forgetBefore(
        new Date(at.getTime() - PUSH_LIFETIME_SECONDS * 1000).toISOString(),
      ),
    );
    // A device whose session expired gets nothing more (enqueue leaves it out): its row goes here,
    // the sessions being deleted only at start-up (server/http/middleware/member-session.ts).
    track(store.pushes.removeOfExpiredSessions(at.toISOString()));
  };

  const pusher: Pusher = {
    available: settings !== undefined,
    settings,
    messageSent(message) {
      if (!settings) return;
      track(
        queueMessagePush(store, message, options.site(), now()).then((queued) => {
          if (queued) pusher.sendSoon();
        }),
      );
    },
    sendSoon() {
      if (settings) track(sendDue());
    },
    sendDue,
    start() {
      pusher.sendSoon();
      forgetOld();
      timers.push(setInterval(() => pusher.sendSoon(), SEND_EVERY_MS).unref());
      timers.push(setInterval(forgetOld, FORGET_EVERY_MS).unref());
    },
    stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
    },
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
  return pusher;
}
