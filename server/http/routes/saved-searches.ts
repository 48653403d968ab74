// /api/saved-searches (docs/product.md section 11):
// - POST /api/saved-searches?{search's query string}: "Email me new ads like these" on /search
//   (the query string rides on the form's action, so a refusal shows that search again with the
//   message; JSON may send `{ query }` instead). 303 to /account?done=search-saved, or
//   201 `{ id }`; refused: not signed in 401, not verified 403, an eleventh 409, a bad search 400.
// - POST /api/saved-searches/{id}/delete: the member's own only (else 404). 303 to
//   /account?done=search-deleted, or 200 `{ id, deleted: true }`.
import { Hono } from 'hono';
import { accountPath, apiRoutes, routes, searchPath } from '../../../core/paths.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import {
  deleteSavedSearch,
  savedSearchNotFound,
  saveSearch,
} from '../../saved-searches/saved-searches.ts';
import { routeId } from '../route-id.ts';
import type { SearchIndex } from '../../../search/search-index.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { textOf } from '../forms/submission.ts';
import { usePost } from '../forms/unknown-endpoint.ts';
import type { Store } from '../../../store/store.ts';

export interface SavedSearchOptions {
  store: Store;
  form: FormEndpoint;
  search: SearchIndex;
  now: () => Date;
}

const queryOf = (c: AppContext) => new URL(c.req.url).search.slice(1);

/** The search the form was on: a refusal shows it again. */
const searchPage = (c: AppContext) => {
  const query = queryOf(c);
  return { route: routes.search, url: query ? `${searchPath()}?${query}` : searchPath() };
};

export function savedSearchRoutes(options: SavedSearchOptions) {
  const { store, form, search } = options;
  const { now } = options;
  const app = new Hono<AppEnv>();

  app.post(
    apiRoutes.savedSearches,
    ...form.action({ page: searchPage, for: 'members' }, async ({ c, member, fields }) => {
      const query = textOf(fields.query) || queryOf(c);
      const { id } = await saveSearch(store, search, member, query, now());
      return { redirect: `${accountPath()}?done=search-saved`, json: { id }, status: 201 };
    }),
  );

  app.post(
    apiRoutes.deleteSavedSearch,
    ...form.action(
      { page: { route: routes.account }, for: 'members', keep: savedSearchIdKept },
      async ({ c, member }) => {
        const id = await deleteSavedSearch(store, member, routeId(c, savedSearchNotFound).id);
        return { redirect: `${accountPath()}?done=search-deleted`, json: { id, deleted: true } };
      },
    ),
  );

  app.on(
    ['GET', 'PUT', 'PATCH', 'DELETE'],
    [apiRoutes.savedSearches, apiRoutes.deleteSavedSearch],
    usePost,
  );
  return app;
}

/** The account page shows a refusal beside the saved search it was about. */
const savedSearchIdKept = (_fields: unknown, c: AppContext) => ({
  savedSearchId: c.req.param('id') ?? '',
});
