// A row's id in a request's path (`/api/ads/:id/edit`), read one way by every route: core/ids.ts's
// digits (1 to 15, a safe integer), anything else ("abc", "-1", twenty digits) refused as the
// endpoint refuses an id that names nothing: `unknown` is the domain's own "not found" (the ad
// among yours, the conversation, the member ad 007), answered by the one refusal path as 404 with
// its message, the form's page for a browser. Never a 500, and never told apart from an id of
// nothing.
import type { Context } from 'hono';
import { namedId, type NamedId } from '../../core/ids.ts';
import type { Refusal } from '../../core/refusal.ts';

/** The id the path's `param` (default `id`) names, or `unknown`'s refusal thrown. */
export const routeId = (
  c: Context,
  unknown: (raw: string | undefined) => Refusal,
  param = 'id',
): NamedId => namedId(c.req.param(param), unknown);
