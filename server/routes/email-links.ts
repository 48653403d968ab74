// Email verification and password reset (docs/product.md section 6), as API endpoints that take JSON
// or a plain form post, and the pages their links open:
//
// - GET /verify?token=… shows a "Verify my email" button; the POST to /api/verify uses the token.
//   A GET that used the token would let mail scanners that fetch every link verify the address
//   for the member (and spend the link): only a person pressing the button does.
// - POST /api/verify/resend (signed in) sends a new link, rate-limited.
// - POST /api/forgot answers the same whether or not the address has an account, and takes about
//   as long: the mail goes out in the background; only the link's token is stored first (one
//   write, so the link works as soon as the mail can arrive).
// - GET /reset?token=… shows the new-password form; POST /api/reset sets it, uses the link up,
//   revokes every session of the account and makes this browser one of its known browsers, so its
//   owner signs in there even while the account is closed to new browsers (rate-limits.ts).
//
// Tokens are 32 random bytes; the store keeps their SHA-256 only (server/store/email-tokens.ts);
// what a checked link does is server/account/email-links.ts.
import { Hono } from 'hono';
import { localPath } from '../../src/local-path.ts';
import {
  forgotPasswordSchema,
  isTokenShaped,
  resetPasswordSchema,
  verifyEmailSchema,
} from '../../src/schemas/email-links.ts';
import { firstProblem } from '../../src/schemas/signup.ts';
import type { LinkState } from '../../src/pages/request.ts';
import { accountPath, forgotPath, resetPath, routes, signinPath } from '../../src/paths.ts';
import { resetPassword, verifyEmail } from '../account/email-links.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import { knownBrowsers } from '../auth/known-browser.ts';
import { hashing, type PasswordHasher } from '../auth/passwords.ts';
import { throwIfWaiting, type CountedLimit, type RateLimits } from '../auth/rate-limits.ts';
import { clearSessionCookies, hashToken, newSessionToken } from '../auth/session-cookie.ts';
import { clientAddress, isHttps, rateLimitKey, type ProxyTrust } from '../client-address.ts';
import type { EmailTokenPurpose } from '../store/email-tokens.ts';
import type { Store } from '../store/store.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { NOT_SIGNED_IN, Refusal } from '../refusal.ts';
import { type AnswerRefusal } from '../forms/refusal.ts';
import { keptValues, readSubmission } from '../forms/submission.ts';
import type { Mailer } from '../mail/mailer.ts';
import { passwordResetMail, verificationMail, type MailSite } from '../mail/messages.ts';
import type { OnRequestPages } from '../pages.ts';

export const VERIFY_LINK_HOURS = 24;
export const RESET_LINK_HOURS = 1;
const HOUR_MS = 60 * 60 * 1000;
/** Expired tokens are kept this long, so an old link says "expired" rather than "not valid". */
const EXPIRED_KEPT_MS = 30 * 24 * HOUR_MS;

export const ALREADY_VERIFIED = 'Your email address is already verified.';
export const FORGOT_ANSWER =
  "If an account exists for that address, we've sent a link to choose a new password. It works once, for 1 hour.";

const LINK_ERRORS: Record<Exclude<LinkState, 'valid' | 'done'>, string> = {
  expired: 'This link has expired. Ask for a new one.',
  used: 'This link was already used. Each link works once.',
  unknown: 'This link is not valid. Check that you opened the whole link from the email.',
};

export interface EmailLinkOptions {
  store: Store;
  mailer: Mailer;
  /** The brand and public address the mails link to (resolved when the first mail is sent). */
  mailSite: () => MailSite;
  rateLimits: RateLimits;
  passwords: PasswordHasher;
  refuse: AnswerRefusal;
  form: FormEndpoint;
  trust: ProxyTrust;
  pages: OnRequestPages;
}

/** Creates emailed-link tokens and sends their mails; sign-up uses it too. */
export function emailLinks(options: Pick<EmailLinkOptions, 'store' | 'mailer' | 'mailSite'>) {
  const tokens = options.store.emailTokens;
  // In the background: a failure is only logged (the next start removes them).
  void tokens
    .removeExpiredBefore(new Date(Date.now() - EXPIRED_KEPT_MS).toISOString())
    .catch((error: unknown) =>
      console.error(`Start-up clean-up of emailed links failed: ${(error as Error).message}`),
    );
  const issue = async (accountId: number, purpose: EmailTokenPurpose, hours: number) => {
    const token = newSessionToken();
    await tokens.create(hashToken(token), accountId, purpose, new Date(), hours * HOUR_MS);
    return token;
  };
  return {
    /** `next`: where the member was going, a path of this site, carried by the link. */
    async sendVerification(accountId: number, email: string, next?: string) {
      const token = await issue(accountId, 'verify', VERIFY_LINK_HOURS);
      options.mailer.send(verificationMail(options.mailSite(), email, token, next));
    },
    async sendPasswordReset(accountId: number, email: string) {
      const token = await issue(accountId, 'reset', RESET_LINK_HOURS);
      options.mailer.send(passwordResetMail(options.mailSite(), email, token));
    },
    /** What a link's token is now; a string that cannot be one of ours is `unknown`. */
    async stateOf(token: string | undefined, purpose: EmailTokenPurpose) {
      if (!isTokenShaped(token)) return { state: 'unknown' as const };
      const found = await tokens.find(hashToken(token), purpose, new Date().toISOString());
      return found ?? { state: 'unknown' as const };
    },
  };
}

export type EmailLinks = ReturnType<typeof emailLinks>;

/** The API: POST /verify, /verify/resend, /forgot, /reset. */
export function emailLinkRoutes(options: EmailLinkOptions, links: EmailLinks) {
  const { rateLimits, trust, pages, form } = options;
  const { store } = options;
  const { accounts } = store;
  const browsers = knownBrowsers(store, trust);
  const app = new Hono<AppEnv>();
  const verifyPage = { route: routes.verify };

  app.post('/verify', ...form(verifyPage), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return options.refuse(c, submission);
    const values = keptValues(submission, ['token', 'next']);
    // Where the member was going when they signed up: where verifying takes them.
    const next = localPath(values.next);
    try {
      await limit('linkPerIp', clientKey(c));
      const { next: _next, ...fields } = submission.fields;
      const parsed = verifyEmailSchema.safeParse(fields);
      if (!parsed.success) throw problem(parsed.error);
      const found = await links.stateOf(parsed.data.token, 'verify');
      const now = new Date().toISOString();
      const verified =
        'id' in found &&
        found.state === 'valid' &&
        (await verifyEmail(store, { tokenId: found.id, accountId: found.accountId }, now));
      if (!verified) {
        const state = found.state === 'valid' ? 'used' : found.state;
        return submission.kind === 'form'
          ? pageAnswer(c, verifyPage, { link: state }, linkStatus(state))
          : c.json({ error: LINK_ERRORS[state] }, linkStatus(state));
      }
      if (submission.kind === 'json')
        return c.json({ verified: true, ...(next ? { redirectUrl: next } : {}) }, 200);
      return next ? c.redirect(next, 303) : pageAnswer(c, verifyPage, { link: 'done' });
    } catch (error) {
      if (error instanceof Refusal) return options.refuse(c, error, values);
      throw error;
    }
  });

  app.post('/verify/resend', ...form({ route: routes.account }), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return options.refuse(c, submission);
    try {
      const member = await c.var.member();
      if (!member) throw new Refusal('signed-out', NOT_SIGNED_IN);
      if (Object.keys(submission.fields).length > 0)
        throw new Refusal(
          'invalid',
          `Unexpected field: ${Object.keys(submission.fields).join(', ')}.`,
        );
      if (member.emailVerified) {
        if (submission.kind === 'form') return c.redirect(accountPath(), 303);
        throw new Refusal('conflict', ALREADY_VERIFIED);
      }
      await limit('linkPerIp', clientKey(c));
      await limit('linkPerEmail', member.email);
      await links.sendVerification(member.accountId, member.email);
      return submission.kind === 'form'
        ? c.redirect(`${accountPath()}?sent=1`, 303)
        : c.json({ sent: true }, 200);
    } catch (error) {
      if (error instanceof Refusal) return options.refuse(c, error);
      throw error;
    }
  });

  app.post('/forgot', ...form({ route: routes.forgot }), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return options.refuse(c, submission);
    const values = keptValues(submission, ['email']);
    try {
      await limit('linkPerIp', clientKey(c));
      const parsed = forgotPasswordSchema.safeParse(submission.fields);
      if (!parsed.success) throw problem(parsed.error);
      const { email } = parsed.data;
      // Counted for every address, so the limit itself tells nothing about accounts.
      await limit('linkPerEmail', email);
      const account = await accounts.findByEmail(email);
      // A banned account cannot sign in, so a new password would be of no use to it: no mail,
      // and the same answer as for any address. A deleted account is no account at all.
      if (account && !account.bannedAt) await links.sendPasswordReset(account.id, account.email);
      return submission.kind === 'form'
        ? c.redirect(`${forgotPath()}?sent=1`, 303)
        : c.json({ message: FORGOT_ANSWER }, 200);
    } catch (error) {
      if (error instanceof Refusal) return options.refuse(c, error, values);
      throw error;
    }
  });

  const resetPage = { route: routes.reset };
  app.post('/reset', ...form(resetPage), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return options.refuse(c, submission);
    const values = keptValues(submission, ['token']);
    const attempt = rateLimits.attempt();
    try {
      throwIfWaiting(await attempt.consume('linkPerIp', clientKey(c)));
      const token = typeof submission.fields.token === 'string' ? submission.fields.token : '';
      const found = await links.stateOf(token, 'reset');
      // A bad link is answered as the link's page, before the password is even looked at.
      if (!('id' in found) || found.state !== 'valid') {
        const state = found.state === 'valid' ? 'unknown' : found.state;
        return submission.kind === 'form'
          ? pageAnswer(c, resetPage, { link: state }, linkStatus(state))
          : c.json({ error: LINK_ERRORS[state], field: 'token' }, linkStatus(state));
      }
      const parsed = resetPasswordSchema.safeParse(submission.fields);
      if (!parsed.success) throw problem(parsed.error);
      const account = await accounts.findById(found.accountId);
      if (!account) throw new Refusal('invalid', LINK_ERRORS.unknown, { field: 'token' });
      throwIfWaiting(await attempt.consume('linkPerEmail', account.email));
      const passwordHash = await hashing(options.passwords.hash(parsed.data.password), attempt);
      const now = new Date().toISOString();
      const link = { tokenId: found.id, accountId: account.id };
      const changed = await resetPassword(store, link, passwordHash, now);
      if (!changed)
        return submission.kind === 'form'
          ? pageAnswer(c, resetPage, { link: 'used' }, 410)
          : c.json({ error: LINK_ERRORS.used, field: 'token' }, 410);
      // This browser's session was revoked with the others: its cookies go too. Whoever had the
      // emailed link is the owner: this browser is theirs now, for sign-in's limits.
      clearSessionCookies(c, isHttps(c, trust));
      if (!(await browsers.of(c, account.id))) await browsers.remember(c, account.id);
      return submission.kind === 'form'
        ? c.redirect(`${resetPath()}?done=1`, 303)
        : c.json({ redirectUrl: signinPath() }, 200);
    } catch (error) {
      if (error instanceof Refusal) return options.refuse(c, error, values);
      throw error;
    }
  });

  app.on(
    ['GET', 'PUT', 'PATCH', 'DELETE'],
    ['/verify', '/verify/resend', '/forgot', '/reset'],
    (c) => c.json({ error: 'Use POST for this endpoint.' }, 405),
  );

  return app;

  /** The link's page, saying what its action did (these pages are for anyone: always a page). */
  async function pageAnswer(
    c: AppContext,
    target: { route: typeof routes.verify },
    extras: { link: LinkState },
    status: 200 | 400 | 410 = 200,
  ) {
    return (await pages.render(c, target, { view: extras.link, status }))!;
  }

  function clientKey(c: AppContext) {
    return rateLimitKey(clientAddress(c, trust));
  }

  async function limit(name: CountedLimit, key: string) {
    throwIfWaiting(await rateLimits.consume(name, key));
  }
}

const linkStatus = (state: Exclude<LinkState, 'valid' | 'done'>) =>
  state === 'unknown' ? 400 : 410;

function problem(error: Parameters<typeof firstProblem>[0]) {
  const found = firstProblem(error);
  return new Refusal('invalid', found.message, { field: found.field });
}
