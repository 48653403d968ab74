// Email verification and password reset (docs/product.md section 6), as API endpoints that take JSON
// or a plain form post, and the pages their links open:
//
// - GET /verify?token=… shows a "Verify my email" button; the POST to /api/verify uses the token.
// - POST /api/verify/resend (signed in) sends a new link, rate-limited.
// - POST /api/forgot answers the same whether or not the address has an account.
// - GET /reset?token=… shows the new-password form; POST /api/reset sets it, uses the link up,
//   revokes every session of the account and makes this browser one of its known browsers, so its
//   owner signs in there even while the account is closed to new browsers (rate-limits.ts).
//
// What each does, and the links themselves, is server/accounts/email-links.ts.
import { Hono } from 'hono';
import { localPath } from '../../../core/local-path.ts';
import {
  apiRoutes,
  accountPath,
  forgotPath,
  resetPath,
  routes,
  signinPath,
} from '../../../core/paths.ts';
import {
  emailLinkActions,
  FORGOT_ANSWER,
  LINK_ERRORS,
  linkRefusal,
  type EmailLinks,
  type VerifyOutcome,
} from '../../accounts/email-links.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import { memberSessions } from '../middleware/member-session.ts';
import type { PasswordHasher } from '../../auth/passwords.ts';
import type { RateLimits } from '../../auth/rate-limits.ts';
import { clientAddress, rateLimitKey, type ProxyTrust } from '../../auth/client-address.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { outcomePages, type OutcomePage } from '../forms/outcome-page.ts';
import { statusOf } from '../forms/refusal.ts';
import { textOf } from '../forms/submission.ts';
import { usePost } from '../forms/unknown-endpoint.ts';
import type { Store } from '../../../store/store.ts';
import type { OnRequestPages } from '../pages.ts';

export interface EmailLinkOptions {
  store: Store;
  rateLimits: RateLimits;
  passwords: PasswordHasher;
  form: FormEndpoint;
  trust: ProxyTrust;
  pages: OnRequestPages;
  /** The clock (createApp's). */
  now: () => Date;
}

/** The API: POST /verify, /verify/resend, /forgot, /reset. */
export function emailLinkRoutes(options: EmailLinkOptions, links: EmailLinks) {
  const { form, store, trust } = options;
  const actions = emailLinkActions({ ...options, links });
  const sessions = memberSessions(store, trust, options.now);
  const outcomePage = outcomePages(options.pages);
  const clientKey = (c: AppContext) => rateLimitKey(clientAddress(c, trust));
  const app = new Hono<AppEnv>();

  app.post(
    apiRoutes.verify,
    ...form.action(
      { page: verifyPage, for: 'anyone', keep: ['token', 'next'] },
      async ({ c, body, fields }) => {
        // Where the member was going when they signed up: where verifying takes them.
        const next = localPath(textOf(fields.next));
        const link = await actions.verify(fields, clientKey(c));
        if (link === 'done' && next)
          return { redirect: next, json: { verified: true, redirectUrl: next } };
        return outcomePage(c, body, verifyOutcome(link));
      },
    ),
  );

  app.post(
    apiRoutes.verifyResend,
    ...form.action(
      { page: { route: routes.account }, for: 'members' },
      async ({ c, member, body }) => {
        const done = await actions.resend(member, body, clientKey(c));
        const redirect = done === 'sent' ? `${accountPath()}?sent=1` : accountPath();
        return { redirect, json: { sent: true } };
      },
    ),
  );

  app.post(
    apiRoutes.forgot,
    ...form.action(
      { page: { route: routes.forgot }, for: 'anyone', keep: ['email'] },
      async ({ c, fields }) => {
        await actions.forgot(fields, clientKey(c));
        return { redirect: `${forgotPath()}?sent=1`, json: { message: FORGOT_ANSWER } };
      },
    ),
  );

  app.post(
    apiRoutes.reset,
    ...form.action(
      { page: { route: routes.reset }, for: 'anyone', keep: ['token'] },
      async ({ c, fields }) => {
        const accountId = await actions.reset(fields, clientKey(c));
        await sessions.afterReset(c, accountId);
        return { redirect: `${resetPath()}?done=1`, json: { redirectUrl: signinPath() } };
      },
    ),
  );

  app.on(
    ['GET', 'PUT', 'PATCH', 'DELETE'],
    [apiRoutes.verify, apiRoutes.verifyResend, apiRoutes.forgot, apiRoutes.reset],
    usePost,
  );
  return app;
}

const verifyPage = { route: routes.verify };

/** The verify page showing what became of its link (a browser), or JSON (a script). */
const verifyOutcome = (link: VerifyOutcome): OutcomePage =>
  link === 'done'
    ? { page: verifyPage, view: link, json: { verified: true } }
    : {
        page: verifyPage,
        view: link,
        json: { error: LINK_ERRORS[link] },
        status: statusOf(linkRefusal(link)),
      };
