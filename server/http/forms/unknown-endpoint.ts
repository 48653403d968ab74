// The answer to an API path that has no endpoint, and to one a visitor may not know of (the
// moderators' endpoints, to anyone else): the same for both, so neither is confirmed.
import type { Context } from 'hono';
import { Refusal } from '../../../core/refusal.ts';

/** No such endpoint, or none this visitor may know of: the two are never told apart. */
export const noSuchEndpoint = () => new Refusal('not-found', 'There is no such API endpoint.');

export const unknownEndpoint = (_: Context): never => {
  throw noSuchEndpoint();
};

/** The answer to any other method on an endpoint that takes POST only. */
export const usePost = (_: Context): never => {
  throw new Refusal('wrong-method', 'Use POST for this endpoint.');
};

/** The answer to another method at an endpoint that answers GET alone. */
export const useGet = (_: Context): never => {
  throw new Refusal('wrong-method', 'Use GET for this endpoint.');
};
