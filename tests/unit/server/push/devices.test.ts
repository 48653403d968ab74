// What the member reads of a device in their list: its label from its browser's User-Agent
// (server/push/device-label.ts), and whose push service carries its notifications.
import { expect, test } from 'vitest';
import { deviceLabel } from '../../../../server/push/device-label.ts';
import { serviceName } from '../../../../server/push/devices.ts';

test.each([
  [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    'Chrome on Android',
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1',
    'Safari on iPhone',
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Safari/605.1.15',
    'Safari on Mac',
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    'Edge on Windows',
  ],
  ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
  [
    'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36',
    'Samsung Internet on Android',
  ],
  [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
    'Chrome on Linux',
  ],
  ['curl/8.5.0', 'A browser'],
  [undefined, 'A browser'],
])('%s is %s', (userAgent, label) => {
  expect(deviceLabel(userAgent)).toBe(label);
});

test.each([
  ['https://fcm.googleapis.com/fcm/send/abc', 'Google’s push service'],
  ['https://updates.push.services.mozilla.com/wpush/v2/abc', 'Mozilla’s push service'],
  ['https://web.push.apple.com/QGabc', 'Apple’s push service'],
  ['https://wns2-par02p.notify.windows.com/w/?token=abc', 'Microsoft’s push service'],
  ['http://127.0.0.1:4000/push/a', '127.0.0.1:4000'],
])('%s is carried by %s', (endpoint, name) => {
  expect(serviceName(endpoint)).toBe(name);
});
