// The accounts API: sign-up, sign-in, sign-out and the current member. Each endpoint takes JSON
// (scripts, the sign-up dialog) or a form post (pages without JavaScript); every JSON failure is
// `{ error }` with a 4xx status (or 503 while password hashing is at capacity), and every refused
// form post gets its form page back with the message.
import { Hono } from 'hono';
import { localPath } from '../../src/local-path.ts';
import { routes, successPath } from '../../src/paths.ts';
import {
  makeSignupSchema,
  signinSchema,
  firstProblem,
  TERMS_REQUIRED,
} from '../../src/schemas/signup.ts';
import { isEmailTaken, openAccount } from '../account/new-account.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import { ageCheckDay } from '../auth/age-check-day.ts';
import { hashing, type PasswordHasher } from '../auth/passwords.ts';
import { knownBrowsers, signinClient } from '../auth/known-browser.ts';
import { throwIfAccountClosed, throwIfWaiting, type RateLimits } from '../auth/rate-limits.ts';
import {
  clearSessionCookies,
  hashToken,
  newSessionToken,
  sessionTokenOf,
  setSessionCookies,
  SESSION_DAYS,
} from '../auth/session-cookie.ts';
import { clientAddress, isHttps, rateLimitKey, type ProxyTrust } from '../client-address.ts';
import type { Store } from '../store/store.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { NOT_SIGNED_IN, Refusal } from '../refusal.ts';
import { type AnswerRefusal } from '../forms/refusal.ts';
import {
  FORM_TYPES,
  keptValues,
  mediaTypeOf,
  readSubmission,
  type Submission,
} from '../forms/submission.ts';
import type { EmailLinks } from './email-links.ts';

export interface AccountsOptions {
  store: Store;
  /** Sends the verification link after sign-up (email-links.ts). */
  links: EmailLinks;
  rateLimits: RateLimits;
  passwords: PasswordHasher;
  refuse: AnswerRefusal;
  form: FormEndpoint;
  trust: ProxyTrust;
}

const WRONG_CREDENTIALS = 'Email or password is incorrect.';
/** Told only to whoever gives a banned account's right password. */
export const ACCOUNT_CLOSED =
  'This account has been closed by our moderators for breaking the site rules. You cannot sign in.';
const DAY_MS = 24 * 60 * 60 * 1000;

export function accountsRoutes(options: AccountsOptions) {
  const { passwords, rateLimits, trust, form } = options;
  const { store } = options;
  const { accounts, sessions } = store;
  const browsers = knownBrowsers(store, trust);
  const conversations = options.store.conversations;
  // Expired sessions and long-unused browsers no longer count; clear them out at start-up, in the
  // background (a failure is only logged: the next start clears them).
  void sessions.removeExpired(new Date().toISOString()).catch(cleanUpFailed);
  void browsers.removeUnused().catch(cleanUpFailed);
  // Signing in with an unknown email still costs one hash comparison, so timing tells nothing.
  // Made on first use (not at start-up, when nothing may ever need it).
  let unknownAccountHash: Promise<string> | undefined;
  const hashForUnknownAccount = () =>
    (unknownAccountHash ??= passwords.hash('not a real password').catch((error: unknown) => {
      unknownAccountHash = undefined;
      throw error;
    }));
  // The sign-up schema counts ages from the day: built once a day, not on every request (building
  // a zod schema costs more than using it, and a burst of sign-ups would build it hundreds of
  // times on the thread that serves pages).
  let signupSchema: { day: string; schema: ReturnType<typeof makeSignupSchema> } | undefined;
  const signupSchemaOf = (day: string) =>
    (signupSchema?.day === day
      ? signupSchema
      : (signupSchema = { day, schema: makeSignupSchema(day) })
    ).schema;
  const app = new Hono<AppEnv>();

  app.post('/signup', ...form({ route: routes.signup }), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return options.refuse(c, submission);
    // Where the visitor was going (Reply on an ad, Post Your Ad): carried through the
    // verification mail and back, and only ever a path of this site.
    const next = localPath(submission.fields.next);
    const values = { ...keptValues(submission, ['email', 'dateOfBirth']), next: next ?? '' };
    const attempt = rateLimits.attempt();
    try {
      throwIfWaiting(await attempt.consume('signupPerIp', rateLimitKey(clientAddress(c, trust))));
      const { next: _next, ...fields } = termsChecked(submission);
      const parsed = signupSchemaOf(ageCheckDay()).safeParse(fields);
      if (!parsed.success) {
        const problem = firstProblem(parsed.error);
        throw new Refusal('invalid', problem.message, { field: problem.field });
      }
      const input = parsed.data;
      throwIfWaiting(await attempt.consume('signupPerEmail', input.email));
      // A banned address is answered as a taken one: no more is told than for any account.
      if (await isEmailTaken(store, input.email)) throw duplicateEmail();
      const passwordHash = await hashing(passwords.hash(input.password), attempt);
      const now = new Date().toISOString();
      const accountId = await openAccount(store, {
        email: input.email,
        passwordHash,
        dateOfBirth: input.dateOfBirth,
        termsAcceptedAt: now,
        createdAt: now,
      });
      if (accountId === undefined) throw duplicateEmail();
      await options.links.sendVerification(accountId, input.email, next);
      await startSession(c, accountId);
      await browsers.remember(c, accountId);
      const destination = next ?? successPath();
      return submission.kind === 'form'
        ? c.redirect(destination, 303)
        : c.json({ redirectUrl: destination }, 201);
    } catch (error) {
      if (error instanceof Refusal) return options.refuse(c, error, values);
      throw error;
    }
  });

  app.post('/signin', ...form({ route: routes.signin }), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return options.refuse(c, submission);
    // Where to go after signing in (a page that asked the member to sign in first): kept apart
    // from the credentials, and only ever a path of this site.
    const { next, ...credentials } = submission.fields;
    const destination = localPath(next) ?? '/';
    const values = { ...keptValues(submission, ['email']), next: localPath(next) ?? '' };
    const attempt = rateLimits.attempt();
    try {
      const parsed = signinSchema.safeParse(credentials);
      if (!parsed.success) {
        throwIfWaiting(await attempt.consume('signinPerIp', rateLimitKey(clientAddress(c, trust))));
        const problem = firstProblem(parsed.error);
        throw new Refusal('invalid', problem.message, { field: problem.field });
      }
      const { email, password } = parsed.data;
      const account = await accounts.findByEmail(email);
      // A browser the owner signed in from before is counted on its own: neither the failures
      // of others on this account nor those of others behind the same address hold it back.
      // Any other browser, for an account or an email with none alike, is also counted with
      // every other new browser on the account, whatever its address.
      const device = account ? await browsers.of(c, account.id) : undefined;
      const client = signinClient(device, rateLimitKey(clientAddress(c, trust)));
      if (client.newBrowser) throwIfWaiting(await attempt.consume('signinPerIp', client.key));
      throwIfWaiting(await rateLimits.signinWait(email, client.key));
      if (client.newBrowser) throwIfAccountClosed(await attempt.newBrowser(email));
      const stored = account?.passwordHash ?? (await hashing(hashForUnknownAccount(), attempt));
      const matches = await hashing(passwords.verify(password, stored), attempt);
      if (!account || !matches) {
        await rateLimits.signinFailed(email, client.key);
        throw new Refusal('signed-out', WRONG_CREDENTIALS);
      }
      await rateLimits.signinSucceeded(email, client.key, client.newBrowser);
      if (account.bannedAt) throw new Refusal('forbidden', ACCOUNT_CLOSED);
      await startSession(c, account.id);
      if (!device) await browsers.remember(c, account.id);
      return submission.kind === 'form'
        ? c.redirect(destination, 303)
        : c.json({ redirectUrl: destination }, 200);
    } catch (error) {
      if (error instanceof Refusal) return options.refuse(c, error, values);
      throw error;
    }
  });

  app.post('/signout', ...form(undefined), async (c) => {
    const token = sessionTokenOf(c);
    if (token) await sessions.revoke(hashToken(token));
    clearSessionCookies(c, isHttps(c, trust));
    return FORM_TYPES.has(mediaTypeOf(c))
      ? c.redirect('/', 303)
      : c.json({ redirectUrl: '/' }, 200);
  });

  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], ['/signup', '/signin', '/signout'], (c) =>
    c.json({ error: 'Use POST for this endpoint.' }, 405),
  );

  app.get('/me', async (c) => {
    const member = await c.var.member();
    if (!member) return c.json({ error: NOT_SIGNED_IN }, 401);
    // unread: messages sent to the member and not yet opened (the header's Messages link).
    return c.json(
      {
        email: member.email,
        emailVerified: member.emailVerified,
        unread: await conversations.unreadTotal(member.accountId),
      },
      200,
    );
  });

  return app;

  async function startSession(c: AppContext, accountId: number) {
    const token = newSessionToken();
    const now = new Date();
    const expires = new Date(now.getTime() + SESSION_DAYS * DAY_MS);
    await sessions.create(hashToken(token), accountId, now.toISOString(), expires.toISOString());
    setSessionCookies(c, token, isHttps(c, trust));
  }
}

const cleanUpFailed = (error: unknown) =>
  console.error(`Start-up clean-up of sessions and browsers failed: ${(error as Error).message}`);

const duplicateEmail = () =>
  new Refusal('conflict', 'An account with this email already exists. Sign in instead.', {
    field: 'email',
  });

/** The form's "I am 18 or older and accept the Terms" box must be ticked; JSON clients accept in their UI. */
function termsChecked(submission: Submission): Record<string, unknown> {
  if (submission.kind === 'json') return submission.fields;
  const { acceptTerms, ...fields } = submission.fields;
  if (acceptTerms !== 'on') throw new Refusal('invalid', TERMS_REQUIRED, { field: 'acceptTerms' });
  return fields;
}
