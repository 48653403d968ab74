// "Notify me on this device" on /account (docs/product.md section 7, "Notifications on this
// device"): the only place the site asks for notifications, and only when the member presses it.
// The press asks the browser for permission (first, while the press still counts as one: Safari
// asks for that), registers the service worker (/sw.js), subscribes with the site's VAPID public
// key, and posts the subscription the browser gave (PushSubscription.toJSON()) to the server,
// which lists the device; the page then shows it. A browser without the Push API (Safari on an
// iPhone, outside a Home Screen app) is told what to do instead. The device the browser is
// subscribed as is marked "(this device)" in the list.
import { notificationsPath, pushDevicesApiPath, serviceWorkerPath } from '../../core/paths.ts';
import { sameSiteRedirect, submitJson } from './submit-json.ts';

export const ON_HERE = 'This device gets notifications.';
export const UNSUPPORTED =
  'This browser cannot show notifications from websites. On an iPhone or iPad, add the site to your Home Screen and open it from there.';
export const BLOCKED =
  'Notifications are blocked for this site in your browser’s settings. Allow them there, then press the button again.';
export const NOT_ALLOWED = 'You did not allow notifications, so none will come to this device.';
export const WORKING = 'Turning notifications on…';
export const FAILED = 'Notifications could not be turned on for this device. Please try again.';

const supported = () =>
  'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/**
 * Whether the member allowed notifications here, or blocked them: the Permissions API's answer
 * where there is one (it follows the browser's settings for the site), else Notification's.
 */
async function permissionState(): Promise<'granted' | 'denied' | 'prompt'> {
  try {
    return (await navigator.permissions.query({ name: 'notifications' })).state;
  } catch {
    const { permission } = Notification;
    return permission === 'default' ? 'prompt' : permission;
  }
}

/** A base64url string's bytes: the applicationServerKey every browser takes. */
function bytesOf(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(text, (character) => character.charCodeAt(0));
}

const sameBytes = (a: ArrayBuffer | null | undefined, b: Uint8Array) =>
  !!a && a.byteLength === b.length && new Uint8Array(a).every((byte, index) => byte === b[index]);

export function enhancePushDevice(): Promise<void> | undefined {
  const section = document.querySelector<HTMLElement>('[data-push-device]');
  const button = section?.querySelector<HTMLButtonElement>('[data-push-subscribe]');
  const status = section?.querySelector<HTMLElement>('[data-push-status]');
  const key = section?.dataset.vapidKey;
  if (!section || !button || !status || !key) return undefined;
  const say = (text: string) => {
    status.textContent = text;
  };
  if (!supported()) {
    say(UNSUPPORTED);
    return undefined;
  }
  const applicationServerKey = bytesOf(key);
  button.hidden = false;
  // What the hint says for an iPhone, the status says where it applies.
  section.querySelector<HTMLElement>('[data-push-hint]')?.setAttribute('hidden', '');
  button.addEventListener('click', () => {
    button.disabled = true;
    say(WORKING);
    void turnOn().finally(() => {
      button.disabled = false;
    });
  });

  async function turnOn(): Promise<void> {
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') return say(permission === 'denied' ? BLOCKED : NOT_ALLOWED);
    let subscription: PushSubscription;
    try {
      const registration = await navigator.serviceWorker.register(serviceWorkerPath(), {
        scope: '/',
      });
      await navigator.serviceWorker.ready;
      const existing = await registration.pushManager.getSubscription();
      // One made with another key (the site's keys changed) can no longer be pushed to.
      if (existing && !sameBytes(existing.options.applicationServerKey, applicationServerKey))
        await existing.unsubscribe();
      subscription =
        existing && sameBytes(existing.options.applicationServerKey, applicationServerKey)
          ? existing
          : await registration.pushManager.subscribe({
              userVisibleOnly: true,
              applicationServerKey,
            });
    } catch {
      return say(FAILED);
    }
    const posted = await submitJson(
      pushDevicesApiPath(),
      subscription.toJSON(),
      FAILED,
      notificationsPath(),
    );
    if (!posted.ok) return say(posted.error);
    window.location.assign(sameSiteRedirect(posted.redirectUrl, notificationsPath()));
  }

  return (async () => {
    if ((await permissionState()) === 'denied') say(BLOCKED);
    // This device is listed already: nothing to turn on.
    if (await markThisDevice(section)) {
      button.hidden = true;
      say(ON_HERE);
    }
  })();
}

/**
 * Marks the listed device this browser is subscribed as; whether it is listed and allowed to
 * show notifications.
 */
async function markThisDevice(section: HTMLElement): Promise<boolean> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return false;
  const item = [...section.querySelectorAll<HTMLElement>('[data-push-endpoint]')].find(
    (listed) => listed.dataset.pushEndpoint === subscription.endpoint,
  );
  if (!item) return false;
  item.querySelector<HTMLElement>('[data-this-device]')?.removeAttribute('hidden');
  return (await permissionState()) === 'granted';
}
