// How a refused request is answered, whichever route refused it and why (a bad field, the origin
// check, the body limit, a rate limit, a busy server, signed out): JSON `{ error, field?, fields? }`
// for scripts; for a browser posting a form without JavaScript, the form's page from the page
// registry again (server/pages.ts), with the message, the field it belongs to and what was typed.
// Which page that is, the endpoint declared (server/forms/form-endpoint.ts). The one refusal path.
import type { Context } from 'hono';
import type { FormPhoto } from '../../src/schemas/ad-form.ts';
import type { FormFill } from '../../src/pages/request.ts';
import type { AppEnv } from '../app-env.ts';
import type { OnRequestPages } from '../pages.ts';
import { isFormSubmission } from './submission.ts';

export type RefusalStatus = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 429 | 503;

export class Refusal {
  constructor(
    readonly status: RefusalStatus,
    readonly error: string,
    /** The field the message is about (the form marks it; JSON names it). */
    readonly field?: string,
    /** Seconds until trying again makes sense (rate limits, a busy server): `Retry-After`. */
    readonly retryAfter?: number,
    /** Several fields' messages at once (the posting form), by field name. */
    readonly fieldErrors?: Readonly<Record<string, string>>,
  ) {}
}

export const NOT_SIGNED_IN = 'You are not signed in.';
/** The banner of a form refused for several fields at once, each message beside its field. */
export const FIX_FIELDS = 'Please correct the fields marked below.';

/** The answer to every refusal (`refuse` in the routes' options). */
export function refusals(pages: OnRequestPages) {
  return async function refuse(
    c: Context<AppEnv>,
    refusal: Refusal,
    values: Record<string, string> = {},
    /** The posting forms: photos kept from the refused post, shown again (JSON: `keptPhotos`). */
    photos?: readonly FormPhoto[],
  ): Promise<Response> {
    // Refusals can hold what was typed (the email), so no cache keeps them.
    c.header('Cache-Control', 'no-store');
    if (refusal.retryAfter) c.header('Retry-After', String(refusal.retryAfter));
    const target = isFormSubmission(c) ? c.get('formPage') : undefined;
    if (target) {
      const { form: aboutTheForm, ...fieldErrors } = refusal.fieldErrors ?? {};
      const form: FormFill = {
        error: refusal.fieldErrors ? (aboutTheForm ?? FIX_FIELDS) : refusal.error,
        values,
        ...(refusal.field ? { field: refusal.field } : {}),
        ...(refusal.fieldErrors ? { fieldErrors } : {}),
        ...(photos ? { photos } : {}),
      };
      const page = await pages.render(c, target, { form, status: refusal.status });
      // A page this visitor may not know of (the moderators' queue) is answered as JSON is.
      if (page) return page;
    }
    return c.json(
      {
        error: refusal.error,
        ...(refusal.field ? { field: refusal.field } : {}),
        ...(refusal.fieldErrors
          ? { fields: refusal.fieldErrors, fieldErrors: refusal.fieldErrors }
          : {}),
        ...(photos
          ? { keptPhotos: photos.map(({ id, alt, previewUrl }) => ({ id, alt, previewUrl })) }
          : {}),
      },
      refusal.status,
    );
  };
}

export type AnswerRefusal = ReturnType<typeof refusals>;
