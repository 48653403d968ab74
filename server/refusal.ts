// How a refused request is answered: JSON `{ error, field? }` for scripts, and for a browser
// posting a form without JavaScript, the form page again with the message in its banner and the
// fields they typed kept, whatever refused it (a bad field, the origin check, the body limit, a
// rate limit, a busy server).
import type { Context } from 'hono';
import type { FormPageName, FormPages } from './form-page.ts';

export type RefusalStatus = 400 | 401 | 403 | 405 | 409 | 413 | 415 | 429 | 503;

export class Refusal {
  constructor(
    readonly status: RefusalStatus,
    readonly error: string,
    readonly field?: string,
    readonly retryAfter?: number,
  ) {}
}

export const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

export const mediaTypeOf = (c: Context) =>
  (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Whether the request is a browser submitting a form: a form body, or a navigation (a form with
 * enctype="text/plain" is one too). Scripts send JSON and ask for it.
 */
export function isFormSubmission(c: Context): boolean {
  const type = mediaTypeOf(c);
  if (type === 'application/json') return false;
  if (FORM_TYPES.has(type)) return true;
  if (c.req.header('sec-fetch-mode') === 'navigate') return true;
  const accept = c.req.header('accept') ?? '';
  return /\btext\/html\b/.test(accept) && !/\bapplication\/json\b/.test(accept);
}

/** The form page that posts to this API path, if any. */
function formPageFor(c: Context): FormPageName | undefined {
  const path = c.req.path.replace(/\/+$/, '');
  if (path.endsWith('/signup')) return 'signup';
  if (path.endsWith('/signin')) return 'signin';
  return undefined;
}

export function refusals(formPages: FormPages) {
  return function answer(c: Context, refusal: Refusal, values: Record<string, string> = {}) {
    // Refusals can hold what was typed (the email), so no cache keeps them.
    c.header('Cache-Control', 'no-store');
    if (refusal.retryAfter) c.header('Retry-After', String(refusal.retryAfter));
    const page = isFormSubmission(c) ? formPageFor(c) : undefined;
    if (page)
      return c.html(formPages.render(page, { error: refusal.error, values }), refusal.status);
    return c.json(
      refusal.field ? { error: refusal.error, field: refusal.field } : { error: refusal.error },
      refusal.status,
    );
  };
}

export type AnswerRefusal = ReturnType<typeof refusals>;
