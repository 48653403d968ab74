// The member's own data (docs/product.md section 8), for signed-in members:
//
// - GET /api/account/data: Download my data, the JSON file of server/accounts/data-file.ts as an
//   attachment, never cached. Each photo is in it by its URLs: the site's published file when it
//   shows on the live ad, else the member's own /api/photos/{id}/{width}. Signed out: a browser
//   is sent to sign in (and back to /account), a script gets 401. Delete my account below also
//   deletes the bytes of the account's photos (in the database or the PHOTOS_DIR folder).
// - POST /api/account/delete {password} (a form or JSON): Delete my account. The password is asked
//   again and checked as sign-in checks it, with sign-in's limits: failures here count as failed
//   sign-ins on the account, and from a browser that has not signed in to it before (a borrowed
//   session) with every other new browser's, so a session cannot be used to guess the password,
//   nor to get round the account's closure to new browsers. Then one unit of work deletes the
//   account (server/accounts/delete-account.ts); its live ads leave the site at the next publish,
//   this browser's cookies are cleared, the outbox's mails to the address are removed (outbox
//   mode) and the address gets one last mail. A moderator's account is refused: the role is an
//   operator's to take away first, and that is logged. The form's answer is
//   /account/delete?done=1, which says the account is gone.
//
// A refused form post gets the /account/delete page again with the message; JSON gets `{ error }`.
// The workflow is server/accounts/delete-my-account.ts; the cookies, server/http/middleware/member-session.ts.
import { Hono } from 'hono';
import {
  apiRoutes,
  accountPath,
  deleteAccountPath,
  routes,
  signinThenPath,
} from '../../../core/paths.ts';
import { memberDataDownload } from '../../accounts/data-file.ts';
import { deleteMyAccount } from '../../accounts/delete-my-account.ts';
import type { AppEnv } from '../app-env.ts';
import { memberSessions } from '../middleware/member-session.ts';
import type { PasswordHasher } from '../../auth/passwords.ts';
import type { RateLimits } from '../../auth/rate-limits.ts';
import type { ProxyTrust } from '../../auth/client-address.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { isFormSubmission } from '../forms/submission.ts';
import { useGet, usePost } from '../forms/unknown-endpoint.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { MailSite } from '../../mail/messages.ts';
import type { AppPhotos } from '../../photos/app-photos.ts';
import type { Publisher } from '../../publishing/publisher.ts';
import { NOT_SIGNED_IN, Refusal } from '../../../core/refusal.ts';
import type { Store } from '../../../store/store.ts';

export interface MemberDataOptions {
  store: Store;
  form: FormEndpoint;
  mailer: Mailer;
  /** The brand (the file's name) and the address the last mail links to. */
  mailSite: () => MailSite;
  rateLimits: RateLimits;
  passwords: PasswordHasher;
  /** Asked to publish when the account had live ads; none in the API's own tests. */
  publisher?: Publisher;
  trust: ProxyTrust;
  /** The clock (tests move it). */
  now: () => Date;
  /** Photo processing and storage (server/photos/). */
  photos?: AppPhotos;
}

export function memberDataRoutes(options: MemberDataOptions) {
  const { store, form, mailSite } = options;
  const sessions = memberSessions(store, options.trust, options.now);
  const { now } = options;
  const deletion = { ...options, photoStorage: options.photos?.storage, now };
  const app = new Hono<AppEnv>();

  app.get(apiRoutes.accountData, async (c) => {
    const member = await c.var.member();
    const download = member && (await memberDataDownload(store, member.accountId, mailSite, now));
    if (!download && isFormSubmission(c)) return c.redirect(signinThenPath(accountPath()), 303);
    if (!download) throw new Refusal('signed-out', NOT_SIGNED_IN);
    c.header('Content-Type', 'application/json; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${download.fileName}"`);
    return c.body(download.text, 200);
  });

  app.post(
    apiRoutes.deleteAccount,
    ...form.action(
      { page: { route: routes.deleteAccount }, for: 'members' },
      async ({ c, member, body }) => {
        await deleteMyAccount(deletion, member, body, sessions.requester(c));
        sessions.forget(c);
        const done = `${deleteAccountPath()}?done=1`;
        return { redirect: done, json: { deleted: true, redirectUrl: done } };
      },
    ),
  );

  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], apiRoutes.accountData, useGet);
  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], apiRoutes.deleteAccount, usePost);

  return app;
}
