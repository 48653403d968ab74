// The member's own data (docs/product.md section 8), for signed-in members:
//
// - GET /api/account/data: Download my data, the JSON file of server/account/data-file.ts as an
//   attachment, never cached. Each photo is in it by its URLs: the site's published file when it
//   shows on the live ad, else the member's own /api/photos/{id}/{width}. Signed out: a browser
//   is sent to sign in (and back to /account), a script gets 401. Delete my account below also
//   deletes the bytes of the account's photos (in the database or the PHOTOS_DIR folder).
// - POST /api/account/delete {password} (a form or JSON): Delete my account. The password is asked
//   again and checked as sign-in checks it, with sign-in's limits: failures here count as failed
//   sign-ins on the account, and from a browser that has not signed in to it before (a borrowed
//   session) with every other new browser's, so a session cannot be used to guess the password,
//   nor to get round the account's closure to new browsers. Then one unit of work deletes the
//   account (server/account/delete-account.ts); its live ads leave the site at the next publish,
//   this browser's cookies are cleared, the outbox's mails to the address are removed (outbox
//   mode) and the address gets one last mail. A moderator's account is refused: the role is an
//   operator's to take away first, and that is logged. The form's answer is
//   /account/delete?done=1, which says the account is gone.
//
// A refused form post gets the /account/delete page again with the message; JSON gets `{ error }`.
import { Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { accountPath, deleteAccountPath, routes, signinThenPath } from '../../src/paths.ts';
import { PASSWORD_MAX } from '../../src/schemas/password-length.ts';
import type { AppEnv } from '../app-env.ts';
import { hashing, type PasswordHasher } from '../auth/passwords.ts';
import { knownBrowsers, signinClient } from '../auth/known-browser.ts';
import { throwIfAccountClosed, throwIfWaiting, type RateLimits } from '../auth/rate-limits.ts';
import { clearSessionCookies, DEVICE_COOKIE } from '../auth/session-cookie.ts';
import { dataFileName, memberDataFile } from '../account/data-file.ts';
import { deleteAccount } from '../account/delete-account.ts';
import { clientAddress, isHttps, rateLimitKey, type ProxyTrust } from '../client-address.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { NOT_SIGNED_IN, Refusal } from '../refusal.ts';
import { type AnswerRefusal } from '../forms/refusal.ts';
import { isFormSubmission, readSubmission } from '../forms/submission.ts';
import { accountDeletedMail } from '../mail/account-messages.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import type { Store } from '../store/store.ts';
import type { AppPhotos } from '../photos/app-photos.ts';

export interface MemberDataOptions {
  store: Store;
  refuse: AnswerRefusal;
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
  now?: () => Date;
  /** Photo processing and storage (server/photos/). */
  photos?: AppPhotos;
}

export const WRONG_PASSWORD = 'That password is not right. Your account was not deleted.';
export const PASSWORD_NEEDED = 'Enter your password to delete your account.';
export const MODERATOR_REFUSED =
  'A moderator’s account cannot be deleted here. Ask an operator to take the moderator role away first (npm run moderator -- remove), then delete the account.';

export function memberDataRoutes(options: MemberDataOptions) {
  const { refuse, rateLimits, trust } = options;
  const { store } = options;
  const browsers = knownBrowsers(store, trust);
  const now = options.now ?? (() => new Date());
  const app = new Hono<AppEnv>();

  app.get('/data', async (c) => {
    const member = await c.var.member();
    const rows = member ? await store.memberData.rowsOf(member.accountId) : undefined;
    if (!rows)
      return isFormSubmission(c)
        ? c.redirect(signinThenPath(accountPath()), 303)
        : c.json({ error: NOT_SIGNED_IN }, 401);
    const at = now();
    const site = options.mailSite();
    const file = memberDataFile(rows, site, at);
    c.header('Content-Type', 'application/json; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="${dataFileName(site.brand, at)}"`);
    return c.body(`${JSON.stringify(file, null, 2)}\n`, 200);
  });

  const deletePage = { route: routes.deleteAccount };
  app.post('/delete', ...options.form(deletePage), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const member = await c.var.member();
    if (!member) return refuse(c, new Refusal('signed-out', NOT_SIGNED_IN));
    try {
      const { password, ...others } = submission.fields;
      if (submission.kind === 'json' && Object.keys(others).length > 0)
        throw new Refusal('invalid', `Unexpected field: ${Object.keys(others).join(', ')}.`);
      if (typeof password !== 'string' || password.length === 0)
        throw new Refusal('invalid', PASSWORD_NEEDED, { field: 'password' });
      if (member.role === 'moderator') throw new Refusal('forbidden', MODERATOR_REFUSED);
      const client = signinClient(
        await browsers.of(c, member.accountId),
        rateLimitKey(clientAddress(c, trust)),
      );
      const attempt = rateLimits.attempt();
      if (client.newBrowser) throwIfWaiting(await attempt.consume('signinPerIp', client.key));
      throwIfWaiting(await rateLimits.signinWait(member.email, client.key));
      if (client.newBrowser) throwIfAccountClosed(await attempt.newBrowser(member.email));
      const account = await store.accounts.findById(member.accountId);
      const matches =
        account !== undefined &&
        password.length <= PASSWORD_MAX &&
        (await hashing(options.passwords.verify(password, account.passwordHash), attempt));
      if (!matches) {
        await rateLimits.signinFailed(member.email, client.key);
        throw new Refusal('forbidden', WRONG_PASSWORD, { field: 'password' });
      }
      await rateLimits.signinSucceeded(member.email, client.key, client.newBrowser);
      const outcome = await deleteAccount(store, member.accountId, now(), options.photos?.storage);
      if (outcome.kind === 'moderator') throw new Refusal('forbidden', MODERATOR_REFUSED);
      if (outcome.kind === 'deleted') {
        if (outcome.liveAdIds.length > 0)
          publishSoon(
            options.publisher,
            `deleted account ${member.accountId}: ads ${outcome.liveAdIds.join(', ')}`,
          );
        // In outbox mode (no SMTP_URL) every mail is a file holding the address: the ones to this
        // member go with the account. The account-deleted mail is then written, and kept: the
        // outbox is this server's way of sending, so removing it would be not sending it, and it
        // must go out (a deletion cannot be undone, and it is how an owner who did not ask learns
        // of it). It holds the address and that the account is gone, nothing else.
        options.mailer.removeOutboxMailsTo(outcome.email);
        options.mailer.send(accountDeletedMail(options.mailSite(), outcome.email));
      }
      // Gone already (a second tab was quicker): the answer is the same, the account is deleted.
      const secure = isHttps(c, trust);
      clearSessionCookies(c, secure);
      deleteCookie(c, DEVICE_COOKIE, { path: '/api', secure, httpOnly: true, sameSite: 'Strict' });
      const done = `${deleteAccountPath()}?done=1`;
      return submission.kind === 'form'
        ? c.redirect(done, 303)
        : c.json({ deleted: true, redirectUrl: done }, 200);
    } catch (error) {
      if (error instanceof Refusal) return refuse(c, error);
      throw error;
    }
  });

  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '/data', (c) =>
    c.json({ error: 'Use GET for this endpoint.' }, 405),
  );
  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], '/delete', (c) =>
    c.json({ error: 'Use POST for this endpoint.' }, 405),
  );

  return app;
}
