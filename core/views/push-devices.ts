// What the account page's "Notifications on this device" section shows (docs/product.md section 7):
// whether the site sends notifications at all, the public key a device subscribes with, the
// member's devices and what else they are notified of (server/push/devices.ts builds it). Types
// only, in the kernel: the server builds it, the page shows it.

export interface PushDeviceView {
  id: number;
  /** "Chrome on Android". */
  label: string;
  /** When notifications were turned on there (ISO time). */
  addedAt: string;
  /** Whose push service carries them: "Google’s push service" (or its host). */
  service: string;
  /** The device's push address: the page's script finds "this device" by it. */
  endpoint: string;
}

export interface PushDevicesView {
  /** The site has VAPID keys: devices may turn notifications on. */
  available: boolean;
  /** The VAPID public key, base64url, that a device subscribes with. */
  publicKey?: string;
  devices: readonly PushDeviceView[];
  settings: { requests: boolean; savedSearches: boolean; messageText: boolean };
}
