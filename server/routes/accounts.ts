// The accounts API: sign-up, sign-in, sign-out and the current member. Each endpoint takes JSON
// (scripts, the sign-up dialog) or a form post (pages without JavaScript); every JSON failure is
// `{ error }` with a 4xx status (or 503 while password hashing is at capacity), and every refused
// form post gets its form page back with the message.
import { Hono, type Context } from 'hono';
import {
  makeSignupSchema,
  signinSchema,
  firstProblem,
  TERMS_REQUIRED,
} from '../../src/schemas/signup.ts';
import { ageCheckDay } from '../auth/age-check-day.ts';
import { HashingBusy } from '../auth/hashing-pool.ts';
import type { PasswordHasher } from '../auth/passwords.ts';
import type { CountedLimit, RateLimits } from '../auth/rate-limits.ts';
import {
  clearSessionCookies,
  DEVICE_DAYS,
  deviceTokenOf,
  hashToken,
  newSessionToken,
  sessionTokenOf,
  setDeviceCookie,
  setSessionCookies,
  SESSION_DAYS,
} from '../auth/session-cookie.ts';
import { clientAddress, isHttps, rateLimitKey, type ProxyTrust } from '../client-address.ts';
import { accountStore } from '../db/accounts.ts';
import { conversationStore } from '../db/conversations.ts';
import type { Db } from '../db/database.ts';
import { knownDeviceStore } from '../db/known-devices.ts';
import { sessionStore } from '../db/sessions.ts';
import { localPath } from '../local-path.ts';
import { FORM_TYPES, mediaTypeOf, Refusal, type AnswerRefusal } from '../refusal.ts';
import type { EmailLinks } from './email-links.ts';

export interface AccountsOptions {
  db: Db;
  /** Sends the verification link after sign-up (email-links.ts). */
  links: EmailLinks;
  rateLimits: RateLimits;
  passwords: PasswordHasher;
  refuse: AnswerRefusal;
  trust: ProxyTrust;
}

export type Submission = { kind: 'json' | 'form'; fields: Record<string, unknown> };

const WRONG_CREDENTIALS = 'Email or password is incorrect.';
/** Told only to whoever gives a banned account's right password. */
export const ACCOUNT_CLOSED =
  'This account has been closed by our moderators for breaking the site rules. You cannot sign in.';
const BUSY = 'The server is busy right now. Please try again in a few seconds.';
const DAY_MS = 24 * 60 * 60 * 1000;

export function accountsRoutes(options: AccountsOptions) {
  const { passwords, rateLimits, trust } = options;
  const accounts = accountStore(options.db);
  const sessions = sessionStore(options.db);
  const devices = knownDeviceStore(options.db);
  const conversations = conversationStore(options.db);
  // Expired sessions and long-unused devices no longer count; clear them out at start-up.
  sessions.removeExpired(new Date().toISOString());
  devices.removeUnusedSince(new Date(Date.now() - DEVICE_DAYS * DAY_MS).toISOString());
  // Signing in with an unknown email still costs one hash comparison, so timing tells nothing.
  // Made on first use (not at start-up, when nothing may ever need it).
  let unknownAccountHash: Promise<string> | undefined;
  const hashForUnknownAccount = () =>
    (unknownAccountHash ??= passwords.hash('not a real password').catch((error: unknown) => {
      unknownAccountHash = undefined;
      throw error;
    }));
  const app = new Hono();

  app.post('/signup', async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return options.refuse(c, submission);
    const values = keptValues(submission, ['email', 'dateOfBirth']);
    try {
      await limit('signupPerIp', rateLimitKey(clientAddress(c, trust)));
      const fields = termsChecked(submission);
      const parsed = makeSignupSchema(ageCheckDay()).safeParse(fields);
      if (!parsed.success) {
        const problem = firstProblem(parsed.error);
        throw new Refusal(400, problem.message, problem.field);
      }
      const input = parsed.data;
      await limit('signupPerEmail', input.email);
      // A banned address is answered as a taken one: no more is told than for any account.
      if (accounts.findByEmail(input.email) || accounts.isBannedEmail(input.email))
        throw duplicateEmail();
      const passwordHash = await hashing(passwords.hash(input.password));
      const now = new Date().toISOString();
      const accountId = accounts.create({
        email: input.email,
        passwordHash,
        dateOfBirth: input.dateOfBirth,
        termsAcceptedAt: now,
        createdAt: now,
      });
      if (accountId === undefined) throw duplicateEmail();
      options.links.sendVerification(accountId, input.email);
      startSession(c, accountId);
      rememberDevice(c, accountId);
      return submission.kind === 'form'
        ? c.redirect('/success', 303)
        : c.json({ redirectUrl: '/success' }, 201);
    } catch (error) {
      if (error instanceof Refusal) return options.refuse(c, error, values);
      throw error;
    }
  });

  app.post('/signin', async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return options.refuse(c, submission);
    // Where to go after signing in (a page that asked the member to sign in first): kept apart
    // from the credentials, and only ever a path of this site.
    const { next, ...credentials } = submission.fields;
    const destination = localPath(next) ?? '/';
    const values = { ...keptValues(submission, ['email']), next: localPath(next) ?? '' };
    try {
      const parsed = signinSchema.safeParse(credentials);
      if (!parsed.success) {
        await limit('signinPerIp', rateLimitKey(clientAddress(c, trust)));
        const problem = firstProblem(parsed.error);
        throw new Refusal(400, problem.message, problem.field);
      }
      const { email, password } = parsed.data;
      const account = accounts.findByEmail(email);
      // A browser the owner signed in from before is counted on its own: neither the failures
      // of others on this account nor those of others behind the same address hold it back.
      const device = account ? knownDeviceOf(c, account.id) : undefined;
      const client = device ? `device:${device.id}` : rateLimitKey(clientAddress(c, trust));
      if (!device) await limit('signinPerIp', client);
      throwIfWaiting(await rateLimits.signinWait(email, client));
      const stored = account?.passwordHash ?? (await hashing(hashForUnknownAccount()));
      const matches = await hashing(passwords.verify(password, stored));
      if (!account || !matches) {
        await rateLimits.signinFailed(email, client);
        throw new Refusal(401, WRONG_CREDENTIALS);
      }
      await rateLimits.signinSucceeded(email, client);
      if (account.bannedAt) throw new Refusal(403, ACCOUNT_CLOSED);
      startSession(c, account.id);
      if (!device) rememberDevice(c, account.id);
      return submission.kind === 'form'
        ? c.redirect(destination, 303)
        : c.json({ redirectUrl: destination }, 200);
    } catch (error) {
      if (error instanceof Refusal) return options.refuse(c, error, values);
      throw error;
    }
  });

  app.post('/signout', (c) => {
    const token = sessionTokenOf(c);
    if (token) sessions.revoke(hashToken(token));
    clearSessionCookies(c, isHttps(c, trust));
    return FORM_TYPES.has(mediaTypeOf(c))
      ? c.redirect('/', 303)
      : c.json({ redirectUrl: '/' }, 200);
  });

  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], ['/signup', '/signin', '/signout'], (c) =>
    c.json({ error: 'Use POST for this endpoint.' }, 405),
  );

  app.get('/me', (c) => {
    c.header('Cache-Control', 'no-store');
    const token = sessionTokenOf(c);
    const member = token
      ? sessions.findValid(hashToken(token), new Date().toISOString())
      : undefined;
    if (!member) return c.json({ error: 'You are not signed in.' }, 401);
    // unread: messages sent to the member and not yet opened (the header's Messages link).
    return c.json(
      {
        email: member.email,
        emailVerified: member.emailVerified,
        unread: conversations.unreadTotal(member.accountId),
      },
      200,
    );
  });

  return app;

  function startSession(c: Context, accountId: number) {
    const token = newSessionToken();
    const now = new Date();
    const expires = new Date(now.getTime() + SESSION_DAYS * DAY_MS);
    sessions.create(hashToken(token), accountId, now.toISOString(), expires.toISOString());
    setSessionCookies(c, token, isHttps(c, trust));
  }

  function knownDeviceOf(c: Context, accountId: number) {
    const token = deviceTokenOf(c);
    if (!token) return undefined;
    const now = new Date();
    const device = devices.find(
      hashToken(token),
      new Date(now.getTime() - DEVICE_DAYS * DAY_MS).toISOString(),
    );
    if (device?.accountId !== accountId) return undefined;
    devices.touch(device.id, now.toISOString());
    return device;
  }

  function rememberDevice(c: Context, accountId: number) {
    const token = newSessionToken();
    devices.remember(hashToken(token), accountId, new Date().toISOString());
    setDeviceCookie(c, token, isHttps(c, trust));
  }

  async function limit(name: CountedLimit, key: string) {
    throwIfWaiting(await rateLimits.consume(name, key));
  }
}

/** A rate limit that is reached becomes a 429 with Retry-After. */
export function throwIfWaiting(waitSeconds: number) {
  if (waitSeconds > 0) {
    const minutes = Math.ceil(waitSeconds / 60);
    throw new Refusal(
      429,
      `Too many attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`,
      undefined,
      waitSeconds,
    );
  }
}

/** A hash that the pool could not take now becomes a 503 with Retry-After. */
export async function hashing<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof HashingBusy)
      throw new Refusal(503, BUSY, undefined, error.retryAfterSeconds);
    throw error;
  }
}

const duplicateEmail = () =>
  new Refusal(409, 'An account with this email already exists. Sign in instead.', 'email');

export async function readSubmission(c: Context): Promise<Submission | Refusal> {
  const type = mediaTypeOf(c);
  if (type === 'application/json') {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return new Refusal(400, 'The request body is not valid JSON.');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return new Refusal(400, 'The request body must be a JSON object.');
    }
    return { kind: 'json', fields: body as Record<string, unknown> };
  }
  if (FORM_TYPES.has(type)) {
    try {
      const form = await c.req.parseBody();
      return { kind: 'form', fields: form };
    } catch {
      return new Refusal(400, 'The form could not be read. Please try again.');
    }
  }
  return new Refusal(
    415,
    'Send the request as JSON (Content-Type: application/json) or as a form.',
  );
}

/** The form's "I am 18 or older and accept the Terms" box must be ticked; JSON clients accept in their UI. */
function termsChecked(submission: Submission): Record<string, unknown> {
  if (submission.kind === 'json') return submission.fields;
  const { acceptTerms, ...fields } = submission.fields;
  if (acceptTerms !== 'on') throw new Refusal(400, TERMS_REQUIRED, 'acceptTerms');
  return fields;
}

export function keptValues(
  submission: Submission,
  names: readonly string[],
): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => [
      name,
      typeof submission.fields[name] === 'string' ? (submission.fields[name] as string) : '',
    ]),
  );
}
