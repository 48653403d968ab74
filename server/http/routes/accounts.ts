// The accounts API: sign-up, sign-in, sign-out and the current member. Each endpoint takes JSON
// (scripts, the sign-up dialog) or a form post (pages without JavaScript); every JSON failure is
// `{ error }` with a 4xx status (or 503 while password hashing is at capacity), and every refused
// form post gets its form page back with the message. What signing up and signing in check is
// server/accounts/sign-up.ts and sign-in.ts; the session and its cookies, server/http/middleware/member-session.ts.
import { Hono } from 'hono';
import { localPath } from '../../../core/local-path.ts';
import { apiRoutes, homePath, routes, successPath } from '../../../core/paths.ts';
import type { EmailLinks } from '../../accounts/email-links.ts';
import { signIns } from '../../accounts/sign-in.ts';
import { signUps } from '../../accounts/sign-up.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import { memberSessions } from '../middleware/member-session.ts';
import type { PasswordHasher } from '../../auth/passwords.ts';
import type { RateLimits } from '../../auth/rate-limits.ts';
import type { ProxyTrust } from '../../auth/client-address.ts';
import type { FormBody, FormEndpoint } from '../forms/form-endpoint.ts';
import { FORM_TYPES, mediaTypeOf, textOf, type Submission } from '../forms/submission.ts';
import { usePost } from '../forms/unknown-endpoint.ts';
import { NOT_SIGNED_IN, Refusal } from '../../../core/refusal.ts';
import type { Store } from '../../../store/store.ts';

export interface AccountsOptions {
  store: Store;
  /** Sends the verification link after sign-up (server/accounts/email-links.ts). */
  links: EmailLinks;
  rateLimits: RateLimits;
  passwords: PasswordHasher;
  form: FormEndpoint;
  trust: ProxyTrust;
  /** The clock (createApp's). */
  now: () => Date;
}

export function accountsRoutes(options: AccountsOptions) {
  const { form, store } = options;
  const sessions = memberSessions(store, options.trust, options.now);
  const { signUp } = signUps(options);
  const { signIn } = signIns(options);
  sessions.cleanUp();
  const app = new Hono<AppEnv>();

  app.post(
    apiRoutes.signup,
    ...form.action(
      {
        page: { route: routes.signup },
        for: 'anyone',
        keep: nextKept('email', 'dateOfBirth', 'state'),
      },
      async ({ c, body, fields }) => {
        // Where the visitor was going (Reply on an ad, Post Your Ad): carried through the
        // verification mail and back, and only ever a path of this site.
        const next = localPath(fields.next);
        const accountId = await signUp(body, sessions.requester(c), next);
        await sessions.start(c, accountId);
        await sessions.remember(c, accountId);
        return { redirect: next ?? successPath(), status: 201 };
      },
    ),
  );

  app.post(
    apiRoutes.signin,
    ...form.action(
      { page: { route: routes.signin }, for: 'anyone', keep: nextKept('email') },
      async ({ c, fields }) => {
        // Where to go after signing in (a page that asked the member to sign in first): kept
        // apart from the credentials, and only ever a path of this site.
        const { next, ...credentials } = fields;
        const signedIn = await signIn(credentials, sessions.requester(c));
        await sessions.start(c, signedIn.accountId);
        if (!signedIn.knownBrowser) await sessions.remember(c, signedIn.accountId);
        return { redirect: localPath(next) ?? homePath() };
      },
    ),
  );

  app.post(
    apiRoutes.signout,
    ...form.action({ for: 'anyone', read: bodyUnread }, async ({ c }) => {
      await sessions.end(c);
      return { redirect: homePath() };
    }),
  );

  app.on(
    ['GET', 'PUT', 'PATCH', 'DELETE'],
    [apiRoutes.signup, apiRoutes.signin, apiRoutes.signout],
    usePost,
  );

  app.get(apiRoutes.me, async (c) => {
    const member = await c.var.member();
    if (!member) throw new Refusal('signed-out', NOT_SIGNED_IN);
    // unread: messages sent to the member and not yet opened, in Chats and Requests; newChats,
    // newRequests: the conversations of each with such a message (the header's Messages link).
    const fresh = await store.conversations.newConversations(member.accountId);
    const { email, emailVerified } = member;
    const news = { unread: fresh.messages, newChats: fresh.chats, newRequests: fresh.requests };
    return c.json({ email, emailVerified, ...news }, 200);
  });

  return app;
}

/** What a refused sign-up or sign-in form shows again: these fields, and where it was going. */
const nextKept =
  (...names: string[]) =>
  (fields: Submission['fields']) => ({
    ...Object.fromEntries(names.map((name) => [name, textOf(fields[name])])),
    next: localPath(fields.next) ?? '',
  });

/** Sign-out reads no body: a form post (a browser) is redirected, anything else gets JSON. */
const bodyUnread = async (c: AppContext): Promise<FormBody> => ({
  kind: FORM_TYPES.has(mediaTypeOf(c)) ? 'form' : 'json',
  fields: {},
});
