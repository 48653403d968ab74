import { getSite, getStates } from '../../../core/content/index.ts';
import { saveSearchApiPath, searchPath } from '../../../core/paths.ts';
import { SEEKS_LABELS } from '../../../core/schemas/seeks.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { SearchView } from './search-view.ts';
import { searchFeedUrl, searchFiltersQuery } from '../../../core/search-query.ts';

/**
 * `/search` (docs/product.md section 9): the filters as a form, then the results the server found
 * (request.read, from its server read in server/http/page-reads/). Without a request (the dev server) it is the empty form.
 */
export function searchData({ request }: DataContext<SearchView>) {
  const { brand } = getSite();
  const view: SearchView = request?.read ?? { values: {}, fieldErrors: {} };
  return {
    ...pageShell({
      title: `Search ads - ${brand}`,
      description: `Search the personal ads on ${brand} by words, place, who is sought, age and date.`,
      path: searchPath(),
      robots: 'noindex, follow',
      // A search that ran has a feed of its newest ads.
      ...(view.results
        ? { feed: { title: 'New ads for this search', href: searchFeedUrl(view.values) } }
        : {}),
    }),
    ...view,
    /** "Email me new ads like these": the search's query string (its feed's) and a refusal. */
    save: view.results
      ? {
          query: searchFiltersQuery(view.values),
          action: saveSearchApiPath(searchFiltersQuery(view.values)),
          error: request?.form?.error,
        }
      : undefined,
    states: getStates().map((state) => state.name),
    seeksOptions: Object.entries(SEEKS_LABELS).map(([value, label]) => ({ value, label })),
  };
}
