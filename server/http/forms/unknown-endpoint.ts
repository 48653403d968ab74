// The answer to an API path that has no endpoint, and to one a visitor may not know of (the
// moderators' endpoints, to anyone else): the same for both, so neither is confirmed.
import type { Context } from 'hono';
import { Refusal } from '../../../core/refusal.ts';

export const unknownEndpoint = (c: Context) =>
  c.json({ error: 'There is no such API endpoint.' }, 404);

/** The answer to any other method on an endpoint that takes POST only. */
export const usePost = (_: Context): never => {
  throw new Refusal('wrong-method', 'Use POST for this endpoint.');
};

/** The answer to another method at an endpoint that answers GET alone. */
export const useGet = (_: Context): never => {
  throw new Refusal('wrong-method', 'Use GET for this endpoint.');
};

/**
 * An endpoint's pattern with any id, not only digits: another method is told to use POST even
 * where the id is not one (`GET /api/messages/abc/reply`), as the POST alone would not match.
 */
export const anyId = (pattern: string) => pattern.replace(/:id\{[^/]*\}/g, ':id');
