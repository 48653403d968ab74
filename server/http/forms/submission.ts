// Reading what a form or a script sent: a form post (pages without JavaScript) or JSON (the
// page scripts), into one shape every route reads.
import type { Context } from 'hono';
import { Refusal } from '../../../core/refusal.ts';

import type { Submission } from '../../../core/submission.ts';

export type { Submission };

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
  const accept = c.req.header('accept') ?? '';
  // A page script posting a form body (photos go as multipart) and asking for JSON gets JSON.
  if (/\bapplication\/json\b/.test(accept) && !/\btext\/html\b/.test(accept)) return false;
  if (FORM_TYPES.has(type)) return true;
  if (c.req.header('sec-fetch-mode') === 'navigate') return true;
  return /\btext\/html\b/.test(accept) && !/\bapplication\/json\b/.test(accept);
}

/** The body as JSON or a form; a body neither can read is refused. */
export async function readSubmission(c: Context): Promise<Submission> {
  const type = mediaTypeOf(c);
  if (type === 'application/json') {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      throw new Refusal('invalid', 'The request body is not valid JSON.');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new Refusal('invalid', 'The request body must be a JSON object.');
    }
    return { kind: 'json', fields: body as Record<string, unknown> };
  }
  if (FORM_TYPES.has(type)) {
    try {
      const form = await c.req.parseBody();
      return { kind: 'form', fields: form };
    } catch {
      throw new Refusal('invalid', 'The form could not be read. Please try again.');
    }
  }
  throw new Refusal(
    'unsupported',
    'Send the request as JSON (Content-Type: application/json) or as a form.',
  );
}

/** A field's text as sent; anything else (a file, a number in JSON, nothing) is ''. */
export const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

/** What a refused form shows again: these fields as typed (never a password). */
export function keptValues(
  submission: Pick<Submission, 'fields'>,
  names: readonly string[],
): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, textOf(submission.fields[name])]));
}
