// /api/account/messages (docs/product.md section 7): the account page's "Messages" form, the
// member's own settings for messages: how new requests are mailed (once a day, or each at once)
// and read receipts. POST (a form or JSON) saves both: 303 to
// /account?done=messages-saved#message-settings, or 200 `{ requestMails, readReceipts }`; signed
// out 401; a wrong field 400, the form back with the message and what was chosen.
import { Hono } from 'hono';
import { accountPath, apiRoutes, MESSAGE_SETTINGS_ANCHOR, routes } from '../../../core/paths.ts';
import { messageSettingsSchema } from '../../../core/schemas/message-settings.ts';
import { saveMessageSettings } from '../../messages/message-settings.ts';
import type { AppEnv } from '../app-env.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { usePost } from '../forms/unknown-endpoint.ts';
import type { Store } from '../../../store/store.ts';

export interface MessageSettingsOptions {
  store: Store;
  form: FormEndpoint;
  now: () => Date;
}

export function messageSettingsRoutes({ store, form, now }: MessageSettingsOptions) {
  const app = new Hono<AppEnv>();
  app.post(
    apiRoutes.messageSettings,
    ...form.action(
      {
        page: { route: routes.account },
        for: 'members',
        keep: ['requestMails', 'readReceipts', 'messagesForm'],
        schema: messageSettingsSchema,
      },
      async ({ member, input }) => {
        await saveMessageSettings(store, member.accountId, input, now());
        const redirect = `${accountPath()}?done=messages-saved#${MESSAGE_SETTINGS_ANCHOR}`;
        return { redirect, json: input };
      },
    ),
  );
  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], apiRoutes.messageSettings, usePost);
  return app;
}
