// /api/saved-searches (docs/product.md section 11):
// - POST /api/saved-searches?{search's query string}: "Email me new ads like these" on /search
//   (the query string rides on the form's action, so a refusal shows that search again with the
//   message; JSON may send `{ query }` instead). 303 to /account?done=search-saved, or
//   201 `{ id }`; refused: not signed in 401, not verified 403, an eleventh 409, a bad search 400.
// - POST /api/saved-searches/{id}/delete: the member's own only (else 404). 303 to
//   /account?done=search-deleted, or 200 `{ id, deleted: true }`.
import { Hono } from 'hono';
import { routes, accountPath } from '../../src/paths.ts';
import type { AppEnv } from '../app-env.ts';
import { deleteSavedSearch, saveSearch } from '../alerts/saved-searches.ts';
import type { SearchIndex } from '../db/search-index.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { Refusal, type AnswerRefusal } from '../forms/refusal.ts';
import { readSubmission, textOf } from '../forms/submission.ts';
import type { Store } from '../store/store.ts';

export interface SavedSearchOptions {
  store: Store;
  refuse: AnswerRefusal;
  form: FormEndpoint;
  search: SearchIndex;
  now?: () => Date;
}

const queryOf = (url: string) => new URL(url).search.slice(1);

export function savedSearchRoutes(options: SavedSearchOptions) {
  const { store, refuse, form, search } = options;
  const now = options.now ?? (() => new Date());
  const app = new Hono<AppEnv>();
  const searchPage = (c: { req: { url: string } }) => {
    const query = queryOf(c.req.url);
    return { route: routes.search, url: query ? `/search?${query}` : '/search' };
  };

  app.post('/', ...form(searchPage), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const raw = textOf(submission.fields.query) || queryOf(c.req.url);
    const member = await c.var.member();
    const outcome = await saveSearch(store, search, member, raw, now());
    if (outcome instanceof Refusal) return refuse(c, outcome);
    return submission.kind === 'form'
      ? c.redirect(`${accountPath()}?done=search-saved`, 303)
      : c.json({ id: outcome.id }, 201);
  });

  app.post('/:id/delete', ...form({ route: routes.account }), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const member = await c.var.member();
    const param = c.req.param('id');
    const id = /^[1-9][0-9]{0,15}$/.test(param) ? Number(param) : undefined;
    const outcome = await deleteSavedSearch(store, member, id);
    if (outcome instanceof Refusal) return refuse(c, outcome, { savedSearchId: param });
    return submission.kind === 'form'
      ? c.redirect(`${accountPath()}?done=search-deleted`, 303)
      : c.json({ id, deleted: true }, 200);
  });

  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], ['/', '/:id/delete'], (c) =>
    c.json({ error: 'Use POST for this endpoint.' }, 405),
  );
  return app;
}
