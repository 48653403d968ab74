// How a refused request is answered, whichever module refused it and why (a bad field, the origin
// check, the body limit, a rate limit, a busy server, signed out, a malformed id): JSON
// `{ error, field?, fields? }` for scripts; for a browser posting a form without JavaScript, the
// form's page from the page registry again (server/http/pages.ts), with the message, the field it
// belongs to and what was typed; outside the API (a search's feed: a feed reader shows no page),
// the message in plain text.
// Which page that is, and which fields are shown again, the endpoint declared
// (server/http/forms/form-endpoint.ts). The one refusal path: a refusal thrown anywhere in a request
// reaches it through the app's error handler (server/http/app.ts), and this file's table is the only
// place a refusal's kind (core/refusal.ts) becomes an HTTP status.
import type { Context } from 'hono';
import type { FormFill } from '../../../core/views/form-fill.ts';
import type { AppEnv } from '../app-env.ts';
import type { OnRequestPages } from '../pages.ts';
import type { RefusalStatus } from '../page-read.ts';
import { FIX_FIELDS, type Refusal, type RefusalKind } from '../../../core/refusal.ts';
import { isFormSubmission } from './submission.ts';
import { isApiPath } from '../../../core/paths.ts';

/** Each kind of refusal's HTTP status: the one table. */
export const REFUSAL_STATUS = {
  invalid: 400,
  'signed-out': 401,
  forbidden: 403,
  'not-found': 404,
  'wrong-method': 405,
  conflict: 409,
  gone: 410,
  'too-large': 413,
  unsupported: 415,
  'too-many': 429,
  busy: 503,
} as const satisfies Record<RefusalKind, RefusalStatus>;

export const statusOf = (refusal: Refusal): RefusalStatus => REFUSAL_STATUS[refusal.kind];

/** The answer to every refusal (`refuse` in the routes' options). */
export function refusals(pages: OnRequestPages) {
  return async function refuse(
    c: Context<AppEnv>,
    refusal: Refusal,
    /** What was typed, shown again; default: the fields the endpoint keeps (`c.var.keptValues`). */
    values: Readonly<Record<string, string>> = c.var.keptValues ?? {},
  ): Promise<Response> {
    const status = statusOf(refusal);
    // Refusals can hold what was typed (the email), so no cache keeps them.
    c.header('Cache-Control', 'no-store');
    if (refusal.retryAfter) c.header('Retry-After', String(refusal.retryAfter));
    const { photos } = refusal;
    const target = isFormSubmission(c) ? c.get('formPage') : undefined;
    if (target) {
      const { form: aboutTheForm, ...fieldErrors } = refusal.fieldErrors ?? {};
      const form: FormFill = {
        error: refusal.fieldErrors ? (aboutTheForm ?? FIX_FIELDS) : refusal.message,
        values,
        ...(refusal.field ? { field: refusal.field } : {}),
        ...(refusal.fieldErrors ? { fieldErrors } : {}),
        ...(photos ? { photos } : {}),
      };
      const page = await pages.render(c, target, { form, status });
      // A page this visitor may not know of (the moderators' queue) is answered as JSON is.
      if (page) return page;
    }
    if (!isApiPath(c.req.path)) return c.text(refusal.message, status);
    return c.json(
      {
        error: refusal.message,
        ...(refusal.field ? { field: refusal.field } : {}),
        ...(refusal.fieldErrors
          ? { fields: refusal.fieldErrors, fieldErrors: refusal.fieldErrors }
          : {}),
        ...(photos
          ? { keptPhotos: photos.map(({ id, alt, previewUrl }) => ({ id, alt, previewUrl })) }
          : {}),
      },
      status,
    );
  };
}

export type AnswerRefusal = ReturnType<typeof refusals>;
