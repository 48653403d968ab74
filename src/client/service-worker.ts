// The service worker, built into the site as /sw.js (vite.config.ts, `serviceWorker`): registered
// only when a member asks for notifications on a device (/account, push-device.ts), it does no
// more than push needs (push-notification.ts): show what a push says, open its page when clicked.
// No fetch handler and no cache: member pages are never kept for offline use.
import {
  onNotificationClick,
  onPush,
  type NotificationClickLike,
  type PushEventLike,
  type PushScope,
} from './push-notification.ts';

interface ServiceWorkerScope extends PushScope {
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install', listener: () => void): void;
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(
    type: 'notificationclick',
    listener: (event: NotificationClickLike) => void,
  ): void;
}

declare const self: ServiceWorkerScope;

// A new version takes over at once: there is nothing cached for an old one to keep serving.
self.addEventListener('install', () => void self.skipWaiting());
self.addEventListener('push', (event) => onPush(self, event));
self.addEventListener('notificationclick', (event) => onNotificationClick(self, event));
