// A member's devices for notifications (docs/product.md section 7, "Notifications on this device"),
// as the account page's script and forms ask: turn them on for a device (its browser's
// subscription, posted by src/client/push-device.ts), remove one, say what else to be notified of;
// and what the page shows of it. Notifications are only ever asked for there, by the member
// pressing "Notify me on this device", never on a first visit.
import { Refusal } from '../../core/refusal.ts';
import type { PushSettingsInput, PushSubscriptionJson } from '../../core/schemas/push.ts';
import type { PushDevicesView } from '../../core/views/push-devices.ts';
import type { Store } from '../../store/store.ts';
import { deviceLabel } from './device-label.ts';
import { isAllowedEndpoint, type WebPushSettings } from './web-push-settings.ts';

/** Devices a member may have notifications on at once. */
export const MAX_DEVICES = 10;

export const PUSH_UNAVAILABLE = 'This site does not send notifications.';
export const UNKNOWN_PUSH_SERVICE =
  'Your browser’s push service is not one this site sends notifications through. Try another browser.';
export const TOO_MANY_DEVICES = `You have notifications on ${MAX_DEVICES} devices. Remove one below first.`;
export const DEVICE_NOT_FOUND =
  'That device is not in your list (it may have been removed already).';

/**
 * Turns notifications on for the device whose subscription this is; its id. Its label comes from
 * the User-Agent of the browser that posted it. A device already in the member's list (the same
 * endpoint) is updated, and does not count again. It belongs to the member's session that posted
 * it: signing out there (or any other end of that session) turns its notifications off.
 */
export async function addDevice(
  store: Store,
  settings: WebPushSettings | undefined,
  { accountId, sessionId }: { accountId: number; sessionId: number },
  subscription: PushSubscriptionJson,
  userAgent: string | undefined,
  now: Date,
): Promise<number> {
  if (!settings) throw new Refusal('not-found', PUSH_UNAVAILABLE);
  if (!isAllowedEndpoint(subscription.endpoint, settings.serviceOrigins))
    throw new Refusal('invalid', UNKNOWN_PUSH_SERVICE);
  return store.unitOfWork(async (tx) => {
    // Two devices subscribing at once count each other.
    await tx.lock(`push:${accountId}`);
    const others = (await tx.pushes.devicesOf(accountId)).filter(
      (device) => device.endpoint !== subscription.endpoint,
    );
    if (others.length >= MAX_DEVICES) throw new Refusal('conflict', TOO_MANY_DEVICES);
    return tx.pushes.subscribe(
      accountId,
      sessionId,
      { endpoint: subscription.endpoint, ...subscription.keys },
      deviceLabel(userAgent),
      now.toISOString(),
    );
  });
}

/** Any id not one of the member's devices. */
export const deviceNotFound = () => new Refusal('not-found', DEVICE_NOT_FOUND);

/** Removes one of the member's devices: nothing more is pushed there. */
export async function removeDevice(store: Store, accountId: number, deviceId: number) {
  if (!(await store.pushes.removeDevice(accountId, deviceId))) throw deviceNotFound();
}

/** Saves what else the member is notified of, all at once (a box left unticked is off). */
export async function savePushSettings(
  store: Store,
  accountId: number,
  input: PushSettingsInput,
  now: Date,
): Promise<void> {
  await store.pushes.saveSettings(accountId, input, now.toISOString());
}

/** The push services' owners, by their hosts' ends: what the member knows them by. */
const SERVICE_NAMES: ReadonlyArray<[string, string]> = [
  ['.googleapis.com', 'Google’s push service'],
  ['.mozilla.com', 'Mozilla’s push service'],
  ['.apple.com', 'Apple’s push service'],
  ['.windows.com', 'Microsoft’s push service'],
];

/** "Google’s push service", or the host of one not named above. */
export function serviceName(endpoint: string): string {
  const { host } = new URL(endpoint);
  return SERVICE_NAMES.find(([end]) => `.${host}`.endsWith(end))?.[1] ?? host;
}

/** What /account shows of notifications. */
export async function pushDevicesView(
  store: Store,
  settings: WebPushSettings | undefined,
  accountId: number,
): Promise<PushDevicesView> {
  const devices = await store.pushes.devicesOf(accountId);
  return {
    available: settings !== undefined,
    ...(settings ? { publicKey: settings.vapid.publicKey } : {}),
    devices: devices.map((device) => ({
      id: device.id,
      label: device.deviceLabel,
      addedAt: device.createdAt,
      service: serviceName(device.endpoint),
      endpoint: device.endpoint,
    })),
    settings: await store.pushes.settingsOf(accountId),
  };
}
