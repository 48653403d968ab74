// What the service worker (service-worker.ts) does with a push and a click, apart from the worker's
// global so that a unit test can hand it a scope of its own. A push carries Declarative Web Push's
// JSON (server/push/payload.ts): `{ web_push: 8030, notification: { title, body?, navigate, tag?,
// lang? } }`, which Safari shows by itself and every other browser hands to the `push` handler
// here. The notification opens `navigate` (a page of this site, the conversation) when clicked.
// Nothing else: no cache, no fetch handler, so member pages are never kept offline.

/** Declarative Web Push’s magic number (https://github.com/WebKit/explainers/tree/main/DeclarativeWebPush). */
export const DECLARATIVE_PUSH = 8030;

export interface ShownNotification {
  title: string;
  options: {
    body?: string;
    tag?: string;
    lang?: string;
    icon: string;
    data: { navigate: string };
  };
}

/** The parts of the service worker's global these handlers use. */
export interface PushScope {
  location: { origin: string };
  registration: {
    showNotification(title: string, options: ShownNotification['options']): Promise<void>;
  };
  clients: {
    matchAll(options: {
      type: 'window';
      includeUncontrolled: boolean;
    }): Promise<readonly WindowLike[]>;
    openWindow(url: string): Promise<unknown>;
  };
}

export interface WindowLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}

export interface PushEventLike {
  data: { text(): string } | null;
  waitUntil(promise: Promise<unknown>): void;
}

export interface NotificationClickLike {
  notification: { data: unknown; close(): void };
  waitUntil(promise: Promise<unknown>): void;
}

const ICON = '/icons/icon-192.png';

const textOf = (value: unknown, max: number): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.slice(0, max) : undefined;

/** `navigate` when it is a page of this site; else the home page (a push never leads elsewhere). */
function sameSite(navigate: unknown, origin: string): string {
  if (typeof navigate !== 'string') return `${origin}/`;
  try {
    const url = new URL(navigate, origin);
    return url.origin === origin ? url.href : `${origin}/`;
  } catch {
    return `${origin}/`;
  }
}

/**
 * The notification a push's text asks for. A push that is not Declarative Web Push's JSON (none of
 * ours) still shows one: browsers require a notification for every push.
 */
export function notificationOf(text: string | undefined, origin: string): ShownNotification {
  let message: unknown;
  try {
    message = text === undefined ? undefined : JSON.parse(text);
  } catch {
    message = undefined;
  }
  const notification =
    typeof message === 'object' &&
    message !== null &&
    (message as { web_push?: unknown }).web_push === DECLARATIVE_PUSH
      ? ((message as { notification?: Record<string, unknown> }).notification ?? {})
      : {};
  const body = textOf(notification.body, 500);
  const tag = textOf(notification.tag, 100);
  const lang = textOf(notification.lang, 20);
  return {
    title: textOf(notification.title, 200) ?? new URL(origin).hostname,
    options: {
      ...(body ? { body } : {}),
      ...(tag ? { tag } : {}),
      ...(lang ? { lang } : {}),
      icon: ICON,
      data: { navigate: sameSite(notification.navigate, origin) },
    },
  };
}

/** The `push` handler: shows the notification the push asks for. */
export function onPush(scope: PushScope, event: PushEventLike): void {
  const { title, options } = notificationOf(event.data?.text(), scope.location.origin);
  event.waitUntil(scope.registration.showNotification(title, options));
}

/**
 * The `notificationclick` handler: a window already on the page comes forward; else a window of
 * the site goes there; else a new one opens it.
 */
export function onNotificationClick(scope: PushScope, event: NotificationClickLike): void {
  event.notification.close();
  const data = event.notification.data as { navigate?: unknown } | null;
  const navigate = sameSite(data?.navigate, scope.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const there = windows.find((window) => window.url === navigate);
      if (there) return there.focus();
      const ours = windows.find((window) => window.url.startsWith(`${scope.location.origin}/`));
      if (ours) {
        await ours.navigate(navigate);
        return ours.focus();
      }
      return scope.clients.openWindow(navigate);
    })(),
  );
}
