// The one form mechanism: every endpoint a form (or a page script) posts to is declared once, with
// its page (a refused post answers with it), whom it is for, the fields a refused post shows again,
// the schema its fields are checked with, and its body limit; and its handler only does the work:
//
//   app.post(apiRoutes.signup, ...form.action({ page: { route: routes.signup }, for: 'anyone',
//     keep: ['email'], schema }, async ({ input, c }) => ({ redirect: successPath(), status: 201 })));
//
// Before the handler: the moderators' gate (anyone else: the unknown endpoint's 404, before
// anything else is said), the origin check (no other site posts here), the body limit, the
// submission read once (JSON or a form), the member for `members`, the schema. After it: a form
// post is redirected (303) to where the handler says, a script gets JSON. A refusal thrown anywhere
// on the way is answered in one place, the app's error handler (server/http/forms/refusal.ts), with the
// form's page and the kept values for a browser and `{ error, field? }` for a script.
import type { Handler, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import type { AppContext, AppEnv, Member, PageTarget } from '../app-env.ts';
import type { ProxyTrust } from '../../auth/client-address.ts';
import { originCheck } from '../middleware/origin-check.ts';
import type { Audience } from '../pages.ts';
import { NOT_SIGNED_IN, parseFields, Refusal } from '../../../core/refusal.ts';
import type { AnswerRefusal } from './refusal.ts';
import { keptValues, readSubmission, type Submission } from './submission.ts';
import { unknownEndpoint } from './unknown-endpoint.ts';

/** Largest request body an endpoint reads, unless it says otherwise. */
export const MAX_BODY_BYTES = 16 * 1024;

export interface FormEndpointSettings {
  refuse: AnswerRefusal;
  /** Other origins allowed to post (a site on another host). */
  allowedOrigins: readonly string[];
  trust: ProxyTrust;
}

export type FormPageOf = PageTarget | ((c: AppContext) => PageTarget);

/** A submission as an endpoint read it; `dispose` runs once the answer is made (uploads). */
export interface FormBody extends Submission {
  dispose?: () => Promise<void>;
}

/** What a handler answers: where a form post goes next, and what a script gets instead. */
export interface FormDone {
  /** A path of this site: the form post's 303, and the script's `redirectUrl` unless `json`. */
  redirect: string;
  json?: Readonly<Record<string, unknown>>;
  status?: 200 | 201;
}

export interface FormActionSpec<For extends Audience, Input, Body extends FormBody> {
  /** The form's page: a refused form post gets it back (none: JSON only). */
  page?: FormPageOf;
  /** Whom the endpoint is for: `members` refuses anyone signed out (401); `moderators` hides it. */
  for: For;
  /**
   * What a refused form shows again: these fields as typed (never a password), or what a
   * function of the submission and the request gives.
   */
  keep?:
    readonly string[] | ((fields: Submission['fields'], c: AppContext) => Record<string, string>);
  /** The fields' schema: its first problem is the refusal, its result the handler's `input`. */
  schema?: z.ZodType<Input>;
  /** The body limit (MAX_BODY_BYTES), or the endpoint's own limit middleware. */
  limit?: number | MiddlewareHandler<AppEnv>;
  /** How the body is read; default: JSON or a form (server/http/forms/submission.ts). */
  read?: (c: AppContext) => Promise<Body>;
}

export interface FormInput<For extends Audience, Input, Body extends FormBody> {
  c: AppContext;
  /** The signed-in member (always there for `members` and `moderators`). */
  member: For extends 'anyone' ? Member | undefined : Member;
  body: Body;
  fields: Submission['fields'];
  /** The fields as the schema parsed them (undefined without a schema). */
  input: Input;
}

export function formEndpoints(settings: FormEndpointSettings) {
  const checkOrigin = originCheck(settings.allowedOrigins, settings.trust, settings.refuse);
  const limitOf = (maxBodyBytes: number) =>
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) =>
        settings.refuse(
          c,
          new Refusal(
            'too-large',
            `The request body is too large (${maxBodyBytes / 1024} KB at most).`,
          ),
        ),
    });
  const pageOf = (page: FormPageOf | undefined): MiddlewareHandler<AppEnv> =>
    async function formPage(c, next) {
      if (page) c.set('formPage', typeof page === 'function' ? page(c) : page);
      await next();
    };

  /** A form endpoint, declared once (see the top of this file): spread into `app.post(path, …)`. */
  function action<For extends Audience, Input = undefined, Body extends FormBody = FormBody>(
    spec: FormActionSpec<For, Input, Body>,
    handler: (input: FormInput<For, Input, Body>) => Promise<FormDone | Response>,
  ) {
    const limit =
      typeof spec.limit === 'function' ? spec.limit : limitOf(spec.limit ?? MAX_BODY_BYTES);
    const run: Handler<AppEnv> = async (c) => {
      const body = await (spec.read ?? readBody)(c);
      try {
        c.set('keptValues', keptValuesOf(spec.keep, body.fields, c));
        const member = await c.var.member();
        if (!member && spec.for === 'members') throw new Refusal('signed-out', NOT_SIGNED_IN);
        const input = (spec.schema ? parseFields(spec.schema, body.fields) : undefined) as Input;
        const answer = await handler({
          c,
          member: member as FormInput<For, Input, Body>['member'],
          body: body as Body,
          fields: body.fields,
          input,
        });
        if (answer instanceof Response) return answer;
        return body.kind === 'form'
          ? c.redirect(answer.redirect, 303)
          : c.json(answer.json ?? { redirectUrl: answer.redirect }, answer.status ?? 200);
      } finally {
        await body.dispose?.();
      }
    };
    const gate = spec.for === 'moderators' ? moderatorsOnly : anyone;
    return [gate, pageOf(spec.page), checkOrigin, limit, run] as const;
  }

  return { action, limit: limitOf };
}

export type FormEndpoint = ReturnType<typeof formEndpoints>;

/** Reads the body as JSON or a form; a body neither can read is refused. */
export const readBody = (c: AppContext): Promise<FormBody> => readSubmission(c);

const anyone: MiddlewareHandler<AppEnv> = (_c, next) => next();

/** The moderators' endpoints are, to anyone else, API paths that do not exist. */
export const moderatorsOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const member = await c.var.member();
  if (member?.role !== 'moderator') return unknownEndpoint(c);
  await next();
};

function keptValuesOf(
  keep: FormActionSpec<Audience, unknown, FormBody>['keep'],
  fields: Submission['fields'],
  c: AppContext,
): Record<string, string> {
  if (!keep) return {};
  if (typeof keep === 'function') return keep(fields, c);
  return keptValues({ fields }, keep);
}
