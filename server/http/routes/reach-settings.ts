// /api/account/reach (docs/product.md section 7, "Who may reach me"): the account page's form of
// the member's own settings, the ages a member writing first may have, their hidden words, and
// whether only verified members may write first. POST (a form or JSON) saves them all: 303 to
// /account?done=reach-saved#who-may-reach-me, or 200 `{ minAge, maxAge, hiddenWords,
// verifiedOnly }`; signed out 401; a wrong field 400, the form back with the
// message beside it and what was typed.
import { Hono } from 'hono';
import { accountPath, apiRoutes, REACH_ANCHOR, routes } from '../../../core/paths.ts';
import { reachSettingsSchema } from '../../../core/schemas/reach-settings.ts';
import { saveReachSettings } from '../../messages/reach.ts';
import type { AppEnv } from '../app-env.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { usePost } from '../forms/unknown-endpoint.ts';
import type { Store } from '../../../store/store.ts';

export interface ReachSettingsOptions {
  store: Store;
  form: FormEndpoint;
  now: () => Date;
}

export function reachSettingsRoutes({ store, form, now }: ReachSettingsOptions) {
  const app = new Hono<AppEnv>();
  app.post(
    apiRoutes.reachSettings,
    ...form.action(
      {
        page: { route: routes.account },
        for: 'members',
        keep: ['minAge', 'maxAge', 'hiddenWords', 'verifiedOnly', 'reachForm'],
        schema: reachSettingsSchema,
      },
      async ({ member, input }) => {
        await saveReachSettings(store, member.accountId, input, now());
        return { redirect: `${accountPath()}?done=reach-saved#${REACH_ANCHOR}`, json: input };
      },
    ),
  );
  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], apiRoutes.reachSettings, usePost);
  return app;
}
