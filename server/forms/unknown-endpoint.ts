// The answer to an API path that has no endpoint, and to one a visitor may not know of (the
// moderators' endpoints, to anyone else): the same for both, so neither is confirmed.
import type { Context } from 'hono';

export const unknownEndpoint = (c: Context) =>
  c.json({ error: 'There is no such API endpoint.' }, 404);

/** The answer to any other method on an endpoint that takes POST only. */
export const usePost = (c: Context) => c.json({ error: 'Use POST for this endpoint.' }, 405);
