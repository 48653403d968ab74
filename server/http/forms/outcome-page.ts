// A form action whose answer is its page showing what it did, rather than a redirect (an emailed
// link's form: the address verified, the link expired or used): a browser's form post gets that
// page, with its status; a script gets JSON. Its refusals go the usual way (refusal.ts); its other
// answers are form-endpoint.ts's `{ redirect, json }`.
import type { AppContext, PageTarget } from '../app-env.ts';
import type { OnRequestPages, PageStatus } from '../pages.ts';
import type { Submission } from './submission.ts';

export interface OutcomePage {
  /** The page a form post gets, showing `view` (the view its own server read would give). */
  page: PageTarget;
  view: unknown;
  /** What a script gets instead. */
  json: Readonly<Record<string, unknown>>;
  /** Both answers' status; default 200. */
  status?: PageStatus;
}

export function outcomePages(pages: OnRequestPages) {
  return async function outcomePage(
    c: AppContext,
    body: Submission,
    outcome: OutcomePage,
  ): Promise<Response> {
    const { page, view, json, status = 200 } = outcome;
    if (body.kind === 'json') return c.json(json, status);
    // Only for pages anyone may see: such a page always renders.
    return (await pages.render(c, page, { view, status }))!;
  };
}
