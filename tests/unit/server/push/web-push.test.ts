// Web Push's rules that need no server: the settings read from the environment (a wrong one is
// one line at start-up), which push services the server posts to, the rate limit and the backoff
// (server/push/limits.ts), what a push service's answer means (send-push.ts), and what a push says
// (payloads.ts).
import { describe, expect, test } from 'vitest';
import webpush from 'web-push';
import {
  nextAttemptAt,
  PUSHES_PER_WINDOW,
  pushLimitReached,
} from '../../../../server/push/limits.ts';
import { excerpt, EXCERPT_LENGTH, newMessagePush } from '../../../../server/push/payloads.ts';
import { outcomeOf } from '../../../../server/push/send-push.ts';
import {
  isAllowedEndpoint,
  PUSH_SERVICES,
  webPushFromEnv,
} from '../../../../server/push/web-push-settings.ts';

const CONTACT = 'support@localboard.example';

describe('the settings', () => {
  const keys = webpush.generateVAPIDKeys();
  const pair = { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey };

  test('none: no notifications, and nothing wrong', () => {
    expect(webPushFromEnv({}, CONTACT)).toEqual({});
  });

  test('a pair: the known push services, and the contact from the content', () => {
    expect(webPushFromEnv(pair, CONTACT)).toEqual({
      settings: {
        vapid: { ...keys, subject: `mailto:${CONTACT}` },
        serviceOrigins: PUSH_SERVICES,
      },
    });
    const own = webPushFromEnv(
      {
        ...pair,
        VAPID_SUBJECT: 'https://localboard.example/contact',
        PUSH_SERVICE_ORIGINS: 'http://127.0.0.1:4000, https://*.push.example',
      },
      CONTACT,
    );
    expect(own.settings?.vapid.subject).toBe('https://localboard.example/contact');
    expect(own.settings?.serviceOrigins).toEqual([
      'http://127.0.0.1:4000',
      'https://*.push.example',
    ]);
  });

  test.each([
    [{ VAPID_PUBLIC_KEY: keys.publicKey }, 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together'],
    [{ ...pair, VAPID_PUBLIC_KEY: 'short' }, 'VAPID_PUBLIC_KEY: expected an uncompressed P-256'],
    [{ ...pair, VAPID_PRIVATE_KEY: 'not+base64url' }, 'VAPID_PRIVATE_KEY: expected a P-256'],
    [
      { ...pair, VAPID_PUBLIC_KEY: webpush.generateVAPIDKeys().publicKey },
      'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY',
    ],
    [
      { ...pair, VAPID_SUBJECT: 'operator@localboard.example' },
      'VAPID_SUBJECT: expected a mailto:',
    ],
    [{ ...pair, PUSH_SERVICE_ORIGINS: 'https://fcm.googleapis.com/fcm' }, 'PUSH_SERVICE_ORIGINS'],
  ])('refuses %o', (env, problem) => {
    expect(webPushFromEnv(env, CONTACT).problem).toContain(problem);
  });

  test('a private key that is no key (zero) is refused in a line, not thrown', () => {
    const zeros = Buffer.alloc(32).toString('base64url');
    expect(webPushFromEnv({ ...pair, VAPID_PRIVATE_KEY: zeros }, CONTACT).problem).toMatch(
      /^VAPID_PRIVATE_KEY: not a P-256 private key/,
    );
  });
});

describe('the push services the server posts to', () => {
  test.each([
    ['https://fcm.googleapis.com/fcm/send/abc', true],
    ['https://updates.push.services.mozilla.com/wpush/v2/abc', true],
    ['https://web.push.apple.com/QGabc', true],
    ['https://wns2-par02p.notify.windows.com/w/?token=abc', true],
    ['http://fcm.googleapis.com/fcm/send/abc', false],
    ['https://fcm.googleapis.com:8443/fcm/send/abc', false],
    ['https://fcm.googleapis.com.evil.example/x', false],
    ['https://notify.windows.com/w/', false],
    ['https://user:pass@fcm.googleapis.com/x', false],
    ['https://127.0.0.1/x', false],
    ['not a url', false],
  ])('%s: %s', (endpoint, allowed) => {
    expect(isAllowedEndpoint(endpoint, PUSH_SERVICES)).toBe(allowed);
  });

  test('a loopback service given by origin, with its port', () => {
    expect(isAllowedEndpoint('http://127.0.0.1:4000/push/a', ['http://127.0.0.1:4000'])).toBe(true);
    expect(isAllowedEndpoint('http://127.0.0.1:4001/push/a', ['http://127.0.0.1:4000'])).toBe(
      false,
    );
  });
});

describe('the rate limit', () => {
  const now = new Date('2026-11-24T10:00:00.000Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();

  test('one notification a conversation a minute', () => {
    expect(pushLimitReached([{ topic: 'c1', at: ago(59) }], 'c1', now)).toBe('same-topic');
    expect(pushLimitReached([{ topic: 'c1', at: ago(61) }], 'c1', now)).toBeUndefined();
    expect(pushLimitReached([{ topic: 'c2', at: ago(5) }], 'c1', now)).toBeUndefined();
  });

  test(`${PUSHES_PER_WINDOW} a member in the window`, () => {
    const notices = Array.from({ length: PUSHES_PER_WINDOW }, (_, n) => ({
      topic: `c${n}`,
      at: ago(120),
    }));
    expect(pushLimitReached(notices.slice(1), 'new', now)).toBeUndefined();
    expect(pushLimitReached(notices, 'new', now)).toBe('too-many');
  });
});

describe('the backoff', () => {
  const now = new Date('2026-11-24T10:00:00.000Z');
  const created = now.toISOString();
  const after = (ms: number) => new Date(now.getTime() + ms).toISOString();

  test('30 s, 2, 8, 32 minutes, then given up', () => {
    expect([1, 2, 3, 4, 5].map((attempts) => nextAttemptAt(attempts, now, created))).toEqual([
      after(30_000),
      after(120_000),
      after(480_000),
      after(1_920_000),
      undefined,
    ]);
  });

  test('later when the push service asks, up to an hour; never past the push’s day', () => {
    expect(nextAttemptAt(1, now, created, 300_000)).toBe(after(300_000));
    expect(nextAttemptAt(1, now, created, 86_400_000)).toBe(after(3_600_000));
    const yesterday = new Date(now.getTime() - 86_390_000).toISOString();
    expect(nextAttemptAt(1, now, yesterday)).toBeUndefined();
  });
});

describe('a push service’s answer', () => {
  const now = new Date('2026-11-24T10:00:00.000Z');
  test.each([
    [201, null, { kind: 'sent' }],
    [404, null, { kind: 'gone', status: 404 }],
    [410, null, { kind: 'gone', status: 410 }],
    [429, '120', { kind: 'retry', reason: 'HTTP 429', retryAfterMs: 120_000 }],
    [
      503,
      'Tue, 24 Nov 2026 10:01:00 GMT',
      { kind: 'retry', reason: 'HTTP 503', retryAfterMs: 60_000 },
    ],
    [500, null, { kind: 'retry', reason: 'HTTP 500' }],
    [400, null, { kind: 'refused', reason: 'HTTP 400' }],
    [403, null, { kind: 'refused', reason: 'HTTP 403' }],
    [413, null, { kind: 'refused', reason: 'HTTP 413' }],
  ])('%i (Retry-After %s)', (status, retryAfter, outcome) => {
    expect(outcomeOf(status, retryAfter, now)).toEqual(outcome);
  });
});

describe('what a push says', () => {
  test('a long message is cut at a word, one line', () => {
    const words = 'Sunday hikes and fresh bread '.repeat(10);
    const cut = excerpt(`${words}\n\nend`);
    expect(cut.length).toBeLessThanOrEqual(EXCERPT_LENGTH);
    expect(cut).toMatch(/ bread…$|[a-z]…$/);
    expect(cut).not.toContain('\n');
    expect(excerpt('  Hi\nthere  ')).toBe('Hi there');
  });

  test('a request and a chat say so, and the text only when given', () => {
    const site = { brand: 'Localboard', baseUrl: 'https://localboard.example' };
    expect(newMessagePush(site, 3, { request: true }).notification.body).toBe(
      'A member wrote to you about your ad. Open it to read it.',
    );
    expect(newMessagePush(site, 3, { request: false, text: 'Hello!' }).notification).toEqual({
      title: 'New message on Localboard',
      body: 'Hello!',
      navigate: 'https://localboard.example/messages/3',
      tag: 'conversation-3',
      lang: 'en',
    });
  });
});
