// Notifications on the member's devices (docs/product.md section 7, "Notifications on this
// device"), from /account:
// - POST /api/account/push-devices: the account page's script posts the subscription its browser's
//   push service gave (PushSubscription.toJSON(): `{ endpoint, keys: { p256dh, auth } }`), JSON
//   only in practice (the Push API needs JavaScript). 201 `{ id, redirectUrl }`; signed out 401,
//   a malformed subscription or an unknown push service 400, an eleventh device 409, a site
//   without VAPID keys 404.
// - POST /api/account/push-devices/{id}/delete: a plain form (or JSON): the member's own device
//   only (else 404). 303 to /account?done=device-removed#notifications, or 200 `{ id, removed }`.
// - POST /api/account/push-settings: a plain form (or JSON) of what else to notify the member of,
//   `{ requests, savedSearches, messageText }`, saved at once (a box left unticked is off). 303 to
//   /account?done=push-saved#notifications, or 200 with the settings.
import { Hono } from 'hono';
import { accountPath, apiRoutes, NOTIFICATIONS_ANCHOR, routes } from '../../../core/paths.ts';
import { pushSettingsSchema, pushSubscriptionSchema } from '../../../core/schemas/push.ts';
import { addDevice, deviceNotFound, removeDevice, savePushSettings } from '../../push/devices.ts';
import { routeId } from '../route-id.ts';
import type { Pusher } from '../../push/pusher.ts';
import type { Store } from '../../../store/store.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { usePost } from '../forms/unknown-endpoint.ts';

export interface PushRoutesOptions {
  store: Store;
  form: FormEndpoint;
  pusher: Pick<Pusher, 'settings'>;
  now: () => Date;
}

/** A subscription is a URL and two keys: a few hundred bytes. */
const SUBSCRIPTION_MAX_BYTES = 4 * 1024;

const doneAt = (done: string) => `${accountPath()}?done=${done}#${NOTIFICATIONS_ANCHOR}`;

export function pushRoutes({ store, form, pusher, now }: PushRoutesOptions) {
  const app = new Hono<AppEnv>();
  const page = { route: routes.account };

  const deviceSpec = {
    page,
    for: 'members',
    keep: () => ({ pushForm: 'device' }),
    schema: pushSubscriptionSchema,
    limit: SUBSCRIPTION_MAX_BYTES,
  } as const;
  app.post(
    apiRoutes.pushDevices,
    ...form.action(deviceSpec, async ({ c, member, input }) => {
      const userAgent = c.req.header('user-agent');
      const id = await addDevice(store, pusher.settings, member, input, userAgent, now());
      const redirect = doneAt('device-added');
      return { redirect, json: { id, redirectUrl: redirect }, status: 201 };
    }),
  );

  app.post(
    apiRoutes.removePushDevice,
    ...form.action({ page, for: 'members', keep: deviceKept }, async ({ c, member }) => {
      const { id } = routeId(c, deviceNotFound);
      await removeDevice(store, member.accountId, id);
      return { redirect: doneAt('device-removed'), json: { id, removed: true } };
    }),
  );

  app.post(
    apiRoutes.pushSettings,
    ...form.action(
      {
        page,
        for: 'members',
        keep: ['requests', 'savedSearches', 'messageText', 'pushForm'],
        schema: pushSettingsSchema,
      },
      async ({ member, input }) => {
        await savePushSettings(store, member.accountId, input, now());
        return { redirect: doneAt('push-saved'), json: input };
      },
    ),
  );

  app.on(
    ['GET', 'PUT', 'PATCH', 'DELETE'],
    [apiRoutes.pushDevices, apiRoutes.removePushDevice, apiRoutes.pushSettings],
    usePost,
  );
  return app;
}

/** The account page shows a refusal beside the device it was about. */
const deviceKept = (_fields: unknown, c: AppContext) => ({
  pushForm: 'device',
  deviceId: c.req.param('id') ?? '',
});
