// A member's devices for notifications (docs/product.md section 7, "Notifications on this device"):
// the subscription the account page's script posts (JSON), stored per member and device with a
// label from the User-Agent, refused when malformed, for an unknown push service, signed out or
// past ten devices; listed on /account and removed there with a plain form post (only one's own);
// the settings form as a plain post; all of it in Download my data, and gone with the account.
import { beforeAll, describe, expect, test } from 'vitest';
import {
  accountDataApiPath,
  accountPath,
  pushDevicesApiPath,
  pushSettingsApiPath,
  removePushDeviceApiPath,
} from '../../../core/paths.ts';
import {
  DEVICE_NOT_FOUND,
  MAX_DEVICES,
  TOO_MANY_DEVICES,
  UNKNOWN_PUSH_SERVICE,
} from '../../../server/push/devices.ts';
import { NOT_SIGNED_IN } from '../../../core/refusal.ts';
import { makeTestApp, postJson } from '../../helpers/api.ts';
import { countRows, deleteAccountOf } from '../../helpers/member-data.ts';
import { attributesOfId, bannerOf, formOf, testAppOnFixtureContent } from '../../helpers/pages.ts';
import { getPage, makeMember, submit, type TestMember } from '../../helpers/posting.ts';
import { pushWorld } from '../../helpers/web-push.ts';
import { textOf } from '../../helpers/html-text.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

const push = pushWorld();
const t = testAppOnFixtureContent({ pusher: (store) => push.pusherFor(store) });

const PIXEL =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1';

/** Posts a device's subscription as the account page's script does. */
const subscribe = (member: TestMember | undefined, body: unknown, userAgent = PIXEL) =>
  submit(t, pushDevicesApiPath(), body as Record<string, unknown>, member?.session, 'json', {
    'user-agent': userAgent,
  });

const devicesOf = (member: TestMember) => t.store.pushes.devicesOf(member.accountId);

describe('turning notifications on for a device', () => {
  let member: TestMember;
  beforeAll(async () => {
    member = await makeMember(t);
  });

  test('stores its subscription with a label from the browser, once an endpoint', async () => {
    const phone = push.service.newDevice('devices-phone');
    const response = await subscribe(member, phone.subscription);
    expect(response.status).toBe(201);
    const { id, redirectUrl } = (await response.json()) as { id: number; redirectUrl: string };
    expect(redirectUrl).toBe('/account?done=device-added#notifications');
    expect(await devicesOf(member)).toEqual([
      {
        id,
        deviceLabel: 'Chrome on Android',
        endpoint: phone.subscription.endpoint,
        createdAt: expect.any(String),
      },
    ]);
    const row = await storedRow<{ p256dh: string; auth: string }>(
      t,
      'SELECT p256dh, auth FROM push_subscriptions WHERE id = ?',
      id,
    );
    expect(row).toEqual(phone.subscription.keys);
    // Posted again (the button pressed twice): the same device.
    expect((await subscribe(member, phone.subscription, IPHONE)).status).toBe(201);
    expect((await devicesOf(member)).map((device) => [device.id, device.deviceLabel])).toEqual([
      [id, 'Safari on iPhone'],
    ]);
  });

  test('refuses what no browser would send, and a push service it does not post to', async () => {
    const device = push.service.newDevice('devices-bad');
    const refusal = async (body: unknown, signedIn = true) => {
      const response = await subscribe(signedIn ? member : undefined, body);
      return [response.status, ((await response.json()) as { error: string }).error];
    };
    expect(await refusal({ ...device.subscription, endpoint: 'https://evil.example/x' })).toEqual([
      400,
      UNKNOWN_PUSH_SERVICE,
    ]);
    expect(
      await refusal({
        ...device.subscription,
        keys: { ...device.subscription.keys, p256dh: 'AAAA' },
      }),
    ).toEqual([400, 'The subscription’s public key is not 65 bytes long.']);
    expect(await refusal({ endpoint: device.subscription.endpoint })).toEqual([
      400,
      'The subscription has no keys.',
    ]);
    expect(await refusal(device.subscription, false)).toEqual([401, NOT_SIGNED_IN]);
    expect(await devicesOf(member)).toHaveLength(1);
  });

  test(`stops at ${MAX_DEVICES} devices`, async () => {
    const busy = await makeMember(t);
    for (let n = 0; n < MAX_DEVICES; n += 1)
      expect((await subscribe(busy, push.service.newDevice(`busy-${n}`).subscription)).status).toBe(
        201,
      );
    const response = await subscribe(busy, push.service.newDevice('busy-last').subscription);
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: string }).error).toBe(TOO_MANY_DEVICES);
  });

  test('is not offered, and refused, by a site without VAPID keys', async () => {
    const plain = await makeTestApp();
    try {
      const someone = await makeMember(plain);
      const page = await (await getPage(plain, accountPath(), someone.session)).text();
      expect(attributesOfId(page, 'notifications')).toBeUndefined();
      const response = await submit(
        plain,
        pushDevicesApiPath(),
        push.service.newDevice('nowhere').subscription,
        someone.session,
        'json',
      );
      expect(response.status).toBe(404);
    } finally {
      await plain.remove();
    }
  });
});

describe('the account page’s list and forms, without JavaScript', () => {
  let member: TestMember;
  let deviceId: number;
  beforeAll(async () => {
    member = await makeMember(t);
    await subscribe(member, push.service.newDevice('page-phone').subscription);
    deviceId = (await devicesOf(member))[0]!.id;
  });

  test('lists the device with a remove form, and offers the button to the script', async () => {
    const html = await (await getPage(t, accountPath(), member.session)).text();
    const section = attributesOfId(html, 'notifications');
    expect(section).toMatchObject({
      tag: 'section',
      'data-vapid-key': push.settings.vapid.publicKey,
    });
    expect(textOf(html)).toContain('Notifications on this device');
    expect(textOf(html)).toContain('Chrome on Android');
    const remove = formOf(html, removePushDeviceApiPath(deviceId));
    expect(remove?.attributes.method).toBe('post');
    expect(remove?.text).toBe('Remove Chrome on Android');
    // The button is the script's: hidden until it runs, never a form that cannot work.
    expect(html).toMatch(/<button[^>]*data-push-subscribe=""[^>]*hidden=""/);
  });

  test('another member’s device is not theirs to remove: the page says so, nothing goes', async () => {
    const other = await makeMember(t);
    const response = await submit(t, removePushDeviceApiPath(deviceId), {}, other.session);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(bannerOf(html)).toBe(DEVICE_NOT_FOUND);
    expect(await devicesOf(member)).toHaveLength(1);
  });

  test('removing it is a plain post that leads back to the list', async () => {
    const response = await submit(t, removePushDeviceApiPath(deviceId), {}, member.session);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/account?done=device-removed#notifications');
    expect(await devicesOf(member)).toEqual([]);
    const html = await (await getPage(t, response.headers.get('location')!, member.session)).text();
    expect(bannerOf(html)).toBe('The device is removed: nothing more is sent to it.');
    expect(textOf(html)).toContain('No device gets notifications.');
  });

  test('the settings are a plain post too, saved all at once', async () => {
    const response = await submit(
      t,
      pushSettingsApiPath(),
      { pushForm: 'settings', requests: 'on', messageText: 'on' },
      member.session,
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/account?done=push-saved#notifications');
    expect(await t.store.pushes.settingsOf(member.accountId)).toEqual({
      requests: true,
      savedSearches: false,
      messageText: true,
    });
    const html = await (await getPage(t, accountPath(), member.session)).text();
    const form = formOf(html, pushSettingsApiPath())!;
    expect(form.html).toMatch(/name="requests" checked=""/);
    expect(form.html).toMatch(/name="savedSearches" value="on"\/>/);
    expect(form.html).toMatch(/name="messageText" checked=""/);
    const json = await postJson(
      t.app,
      pushSettingsApiPath(),
      { savedSearches: true },
      {
        cookie: `lb_session=${member.session}`,
      },
    );
    expect(await json.json()).toEqual({ requests: false, savedSearches: true, messageText: false });
  });
});

describe('the member’s data', () => {
  test('holds their devices and settings, and they go with the account', async () => {
    const member = await makeMember(t);
    const phone = push.service.newDevice('data-phone');
    await subscribe(member, phone.subscription, IPHONE);
    await submit(t, pushSettingsApiPath(), { savedSearches: 'on' }, member.session);
    const file = (await (await getPage(t, accountDataApiPath(), member.session)).json()) as {
      notifications: unknown;
    };
    expect(file.notifications).toEqual({
      devices: [
        {
          device: 'Safari on iPhone',
          turnedOnAt: expect.any(String),
          pushService: new URL(push.service.origin).host,
          pushAddress: phone.subscription.endpoint,
        },
      ],
      alsoNotifyMeOf: { firstMessagesBeforeIAnswer: false, newAdsForMySavedSearches: true },
      showTheMessageTextInNotifications: false,
    });
    expect((await deleteAccountOf(t, member)).status).toBe(200);
    for (const table of ['push_subscriptions', 'push_settings'])
      expect(
        await countRows(t, table, { column: 'account_id', value: member.accountId }),
        table,
      ).toBe(0);
  });
});
