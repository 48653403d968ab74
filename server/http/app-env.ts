// What every request of the app carries besides itself (Hono's `c.var`): the signed-in member,
// looked up once, on first use, from the session cookie; and, on a form's endpoint, the page
// that form is on (server/http/forms/form-endpoint.ts), which a refusal answers with.
import type { Context, MiddlewareHandler } from 'hono';
import type { RouteParams } from '../../core/route.ts';
import type { Route } from '../../core/route.ts';
import { hashToken, sessionTokenOf } from '../auth/session-cookie.ts';
import type { SessionAccount, SessionStore } from '../../store/parts/sessions.ts';

/** The signed-in member: their account as the session found it. */
export type Member = SessionAccount;

/** A page of the registry, by its route (core/paths.ts), and where it is. */
export interface PageTarget {
  route: Route<any>;
  params?: RouteParams;
  /** The page's URL when it is more than its route's path (`/messages/new?ad=12`). */
  url?: string;
}

export interface AppEnv {
  Variables: {
    /** The signed-in member, or undefined; the session is read on the first call only. */
    member: () => Promise<Member | undefined>;
    /** The page of the form this request posts (form endpoints only). */
    formPage?: PageTarget;
    /** What a refused form shows again: the fields its endpoint keeps, as typed. */
    keptValues?: Readonly<Record<string, string>>;
  };
}

export type AppContext = Context<AppEnv>;

/** Sets `c.var.member` for every request: a lookup that runs once, and only if asked. */
export function memberLookup(
  sessions: Pick<SessionStore, 'findValid'>,
  clock: () => Date,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let found: Promise<Member | undefined> | undefined;
    c.set('member', () => {
      found ??= Promise.resolve().then(() => {
        const token = sessionTokenOf(c);
        return token ? sessions.findValid(hashToken(token), clock().toISOString()) : undefined;
      });
      return found;
    });
    await next();
  };
}
