// The answer to an API path that has no endpoint, and to one a visitor may not know of (the
// moderators' endpoints, to anyone else): the same for both, so neither is confirmed.
import type { Context } from 'hono';

export const unknownEndpoint = (c: Context) =>
  c.json({ error: 'There is no such API endpoint.' }, 404);

/** The answer to any other method on an endpoint that takes POST only. */
export const usePost = (c: Context) => c.json({ error: 'Use POST for this endpoint.' }, 405);

/**
 * An endpoint's pattern with any id, not only digits: another method is told to use POST even
 * where the id is not one (`GET /api/messages/abc/reply`), as the POST alone would not match.
 */
export const anyId = (pattern: string) => pattern.replace(/:id\{[^/]*\}/g, ':id');
