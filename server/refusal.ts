// How a refused request is answered: JSON `{ error, field? }` for scripts, and for a browser
// posting a form without JavaScript, the form page again with the message in its banner and the
// fields they typed kept, whatever refused it (a bad field, the origin check, the body limit, a
// rate limit, a busy server).
import type { Context } from 'hono';
import type { FormPageName, FormPages } from './form-page.ts';
import type { OnRequestPageId, OnRequestPages } from './pages.ts';

export type RefusalStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 503;

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

/** The API paths posted by forms of pages rendered on request, and their pages. */
const ON_REQUEST_FORMS: Record<string, OnRequestPageId> = {
  '/api/verify': 'verify',
  '/api/verify/resend': 'account',
  '/api/forgot': 'forgot',
  '/api/reset': 'reset',
  '/api/reports': 'report',
  '/api/moderate/reports': 'moderate-reports',
};

/** The form page that posts to this API path, if any: prerendered, or rendered on request. */
function formPageFor(
  c: Context,
): { prerendered: FormPageName } | { onRequest: OnRequestPageId } | undefined {
  const path = c.req.path.replace(/\/+$/, '');
  if (path.endsWith('/signup')) return { prerendered: 'signup' };
  if (path.endsWith('/signin')) return { prerendered: 'signin' };
  const onRequest = ON_REQUEST_FORMS[path];
  if (onRequest) return { onRequest };
  // The moderation forms (server/routes/moderation.ts) are all on the queue page.
  return path.startsWith('/api/moderate/') ? { onRequest: 'moderate' } : undefined;
}

export function refusals(formPages: FormPages, onRequestPages: OnRequestPages) {
  return function answer(c: Context, refusal: Refusal, values: Record<string, string> = {}) {
    // Refusals can hold what was typed (the email), so no cache keeps them.
    c.header('Cache-Control', 'no-store');
    if (refusal.retryAfter) c.header('Retry-After', String(refusal.retryAfter));
    let page = isFormSubmission(c) ? formPageFor(c) : undefined;
    // To anyone but a moderator, the moderation paths are unknown API paths: answered as those.
    if (
      page &&
      'onRequest' in page &&
      (page.onRequest === 'moderate' || page.onRequest === 'moderate-reports')
    ) {
      const member = onRequestPages.memberOf(c);
      if (member?.role !== 'moderator') page = undefined;
    }
    if (page && 'prerendered' in page)
      return c.html(
        formPages.render(page.prerendered, { error: refusal.error, values }),
        refusal.status,
      );
    if (page) {
      // A form that carries its link's token is shown again, to try again with it.
      const link = values.token ? ('valid' as const) : undefined;
      return onRequestPages.render(
        c,
        page.onRequest,
        { form: { error: refusal.error, values }, ...(link ? { link } : {}) },
        refusal.status,
      );
    }
    return c.json(
      refusal.field ? { error: refusal.error, field: refusal.field } : { error: refusal.error },
      refusal.status,
    );
  };
}

export type AnswerRefusal = ReturnType<typeof refusals>;
