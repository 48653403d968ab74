// /search's server read (docs/product.md section 9; server/http/page-read.ts): the query string checked
// (searchQuery.ts), the search run on the index the build wrote (search/search-index.ts), and
// the page's view with both. Refused parameters, or a page past the last, are the form again with
// the message beside the field, status 400; never an error page.
import { UnsearchableWords } from '../../../search/search-index.ts';
import { pageRead, type PageReading } from '../page-read.ts';
import { ADS_PER_PAGE } from '../../../core/paths.ts';
import type { SearchView } from '../../../src/pages/search/search-view.ts';
import { parseSearchQuery } from '../../../core/search-query.ts';

export const read = pageRead<SearchView>({
  for: 'anyone',
  read: ({ c }, { search: index }) => {
    const answer = (view: SearchView, status: 200 | 400 | 503): PageReading<SearchView> => ({
      view,
      status,
    });

    const query = parseSearchQuery(c.req.query());
    if (!query.ok) {
      const { values, fieldErrors, nearChoices } = query;
      return answer({ values, fieldErrors, ...(nearChoices ? { nearChoices } : {}) }, 400);
    }
    const { values, filters } = query;
    if (!index.available())
      return answer(
        {
          values,
          fieldErrors: {
            page: 'Search is not available on this server yet: its index is being made. Try again in a minute.',
          },
        },
        503,
      );
    let results;
    try {
      results = index.search(filters);
    } catch (error) {
      if (!(error instanceof UnsearchableWords)) throw error;
      return answer(
        { values, fieldErrors: { q: 'These words cannot be searched for: try other words.' } },
        400,
      );
    }
    const { total, more, ads, order, miles, matchUnavailable } = results;
    const pageCount = Math.max(1, Math.ceil(total / ADS_PER_PAGE));
    if (filters.page > pageCount)
      return answer(
        {
          values,
          fieldErrors: {
            page: `There ${pageCount === 1 ? 'is only 1 page' : `are only ${pageCount} pages`} of results for this search.`,
          },
        },
        400,
      );
    return answer(
      {
        values,
        fieldErrors: {},
        results: {
          total,
          more,
          page: filters.page,
          pages: pageCount,
          ads,
          order,
          ...(miles ? { miles } : {}),
          matchUnavailable,
          bestMatchMax: index.countedMax,
        },
      },
      200,
    );
  },
});
