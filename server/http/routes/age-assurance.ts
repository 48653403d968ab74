// Age assurance (docs/product.md section 6, "Age assurance"), as endpoints that take a plain form
// post or JSON:
//
//   POST /api/account/state          {state}  the member's state ('' clears it): 303 to /account
//   POST /api/age-check/request      JSON: a request for the wallet {requestId, requests}, one
//                                    {protocol, data} each for org-iso-mdoc and OpenID4VP;
//                                    a plain form post (no script, so no wallet): 303 to
//                                    /verify-age?without=script, which says what to do instead
//   POST /api/age-check/response     {requestId, protocol, response}: the wallet's answer in the
//                                    protocol it chose (default org-iso-mdoc), verified and kept;
//                                    303 to /verify-age?done=checked, or the reason it was not
//
// The work is server/age-assurance/'s; here the posts are read and answered.
import { Hono } from 'hono';
import { accountPath, apiRoutes, routes, verifyAgePath } from '../../../core/paths.ts';
import { ageCheckAnswerSchema, declaredStateSchema } from '../../../core/schemas/age-assurance.ts';
import { forwardedProto, type ProxyTrust } from '../../auth/client-address.ts';
import { finishAgeCheck, startAgeCheck } from '../../age-assurance/checks.ts';
import { saveDeclaredState } from '../../age-assurance/declared-state.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { usePost } from '../forms/unknown-endpoint.ts';
import type { Store } from '../../../store/store.ts';

export interface AgeAssuranceRouteOptions {
  store: Store;
  form: FormEndpoint;
  trust: ProxyTrust;
  now: () => Date;
  /** The trust list's roots (PEM); default: AGE_ISSUERS_DIR's files, read at each check. */
  ageIssuerRoots?: () => readonly string[];
}

/** The page's origin, which the wallet binds its answer to: the browser names it on a POST. */
function pageOrigin(c: AppContext, trust: ProxyTrust): string {
  const origin = c.req.header('origin');
  if (origin) return origin;
  const url = new URL(c.req.url);
  const proto = forwardedProto(c, trust);
  return `${proto ? `${proto}:` : url.protocol}//${c.req.header('host') ?? url.host}`;
}

export function ageAssuranceRoutes(options: AgeAssuranceRouteOptions) {
  const { store, form, trust } = options;
  const deps = { store, now: options.now, roots: options.ageIssuerRoots };
  const app = new Hono<AppEnv>();
  const onCheckPage = { page: { route: routes.verifyAge }, for: 'members' } as const;

  app.post(
    apiRoutes.declaredState,
    ...form.action(
      {
        page: { route: routes.account },
        for: 'members',
        keep: ['state', 'stateForm'],
        schema: declaredStateSchema,
      },
      async ({ member, input }) => {
        await saveDeclaredState(store, member.accountId, input.state);
        return {
          redirect: `${accountPath()}?done=state-saved#my-state-title`,
          json: { state: input.state ?? null },
        };
      },
    ),
  );

  app.post(
    apiRoutes.ageCheckRequest,
    ...form.action(onCheckPage, async ({ c, member, body }) => {
      if (body.kind === 'form') return { redirect: `${verifyAgePath()}?without=script` };
      const request = await startAgeCheck(deps, member.accountId, pageOrigin(c, trust));
      return { redirect: verifyAgePath(), json: { ...request } };
    }),
  );

  app.post(
    apiRoutes.ageCheckResponse,
    ...form.action(
      { ...onCheckPage, schema: ageCheckAnswerSchema, limit: 96 * 1024 },
      async ({ member, input }) => {
        const check = await finishAgeCheck(deps, member.accountId, input);
        const redirect = `${verifyAgePath()}?done=checked`;
        return { redirect, json: { redirectUrl: redirect, check } };
      },
    ),
  );

  for (const path of [
    apiRoutes.declaredState,
    apiRoutes.ageCheckRequest,
    apiRoutes.ageCheckResponse,
  ])
    app.on(['GET', 'PUT', 'PATCH', 'DELETE'], path, usePost);
  return app;
}
