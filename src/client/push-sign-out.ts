// Signing out also turns this browser's notifications off (docs/product.md section 7,
// "Notifications on this device"). The server deletes the device with the session whatever the
// browser does (store/migrations/push-sessions.ts): this only unsubscribes the browser's own
// subscription as well, so that its push service holds nothing more for a member who left a
// shared computer. The sign-out form stays a plain post: its submission waits for this at most
// UNSUBSCRIBE_WAIT_MS, and goes on whatever becomes of it.

/** How long signing out waits for the browser to unsubscribe, at most. */
export const UNSUBSCRIBE_WAIT_MS = 2_000;

/** Unsubscribes this browser from push, if it is subscribed; never fails, never waits long. */
export async function unsubscribeThisBrowser(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const unsubscribing = (async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    const subscription = await registration?.pushManager?.getSubscription();
    await subscription?.unsubscribe();
  })().catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, UNSUBSCRIBE_WAIT_MS);
  });
  await Promise.race([unsubscribing, late]);
  clearTimeout(timer);
}

/** The sign-out form unsubscribes this browser first, then posts as it would have. */
export function unsubscribeOnSignOut(form: HTMLFormElement): void {
  if (!('serviceWorker' in navigator)) return;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void unsubscribeThisBrowser().finally(() => form.submit());
  });
}
