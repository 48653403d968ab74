// What the server hands /search in its request (src/pages/request.ts): the filters as typed, what
// was wrong with them, and the page of results read from the search index by its server read
// (its server read, server/http/page-reads/). Types only: pages never import the server.
import type { CompiledAd } from '../../../core/schemas/compiled-content.ts';
import type { NearChoice } from '../../../core/near-query.ts';
import type { SearchField } from '../../../core/search-query.ts';

export interface SearchView {
  /** The form's values, as typed (trimmed), by field name. */
  values: Readonly<Partial<Record<SearchField, string>>>;
  /** Messages shown beside their fields; none when the search ran. */
  fieldErrors: Readonly<Partial<Record<SearchField, string>>>;
  /** The cities a `near` naming several, or none, may have meant: links to choose one. */
  nearChoices?: readonly NearChoice[];
  /** Absent when the parameters were refused. */
  results?: {
    /** How many ads match, counted up to a limit (search/search-index.ts). */
    total: number;
    /** More ads than `total` match: the count stopped there. */
    more: boolean;
    page: number;
    pages: number;
    ads: readonly CompiledAd[];
    /** Ordered by best match (a text query), newest first, or by distance (near a city). */
    order: 'match' | 'newest' | 'distance';
    /** Near a city: each ad's distance from it in miles, as `ads`. */
    miles?: readonly number[];
    /**
     * Best match was asked for (the default with words) but too many ads match to rank them
     * (search/search-index.ts countedMax): these are newest first.
     */
    matchUnavailable: boolean;
    /** The most results ranked by best match. */
    bestMatchMax: number;
  };
}
