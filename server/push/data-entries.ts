// Notifications in Download my data (docs/product.md section 8): the member's devices (each with
// its push service's address for it, which is what we keep of the device besides its keys: those
// are the browser's own, for encrypting what is sent to it) and what they chose to be notified of.
import type { PushStore } from '../../store/parts/pushes.ts';

export async function notificationEntries(pushes: PushStore, accountId: number) {
  const devices = await pushes.devicesOf(accountId);
  const settings = await pushes.settingsOf(accountId);
  return {
    devices: devices.map((device) => ({
      device: device.deviceLabel,
      turnedOnAt: device.createdAt,
      pushService: new URL(device.endpoint).host,
      pushAddress: device.endpoint,
    })),
    alsoNotifyMeOf: {
      firstMessagesBeforeIAnswer: settings.requests,
      newAdsForMySavedSearches: settings.savedSearches,
    },
    showTheMessageTextInNotifications: settings.messageText,
  };
}
