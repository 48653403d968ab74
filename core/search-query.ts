// /search's query string is its form (docs/product.md section 9): q, state, city, near (a city:
// State/City) and within (10, 25, 50 or 100 miles of it), seeks, minAge, maxAge, posted (1, 7 or
// 30 days; `within` means days in a search that is not near a city, as it did before), page. Checked here, once, for the server (which runs the search)
// and the page (which shows the form again with a message beside each field that was wrong).
// The text is never handed to FTS5 as syntax: it is cut into words (letters and digits), and each
// word is quoted, so `"unbalanced`, `NEAR(`, `*` or `AND OR` are plain words.
import { getState } from './content/index.ts';
import { searchFeedPath, searchPath } from './paths.ts';
import { AD_AGE_MAX, AD_AGE_MIN } from './schemas/ad-limits.ts';
import { SEEKS_LABELS, type Seeks } from './schemas/seeks.ts';
import {
  DEFAULT_WITHIN_MILES,
  findNearCity,
  nearValue,
  WITHIN_MILES,
  type NearChoice,
  type NearFilter,
} from './near-query.ts';

export const SEARCH_FIELDS = [
  'q',
  'state',
  'city',
  'near',
  'seeks',
  'minAge',
  'maxAge',
  'posted',
  'within',
  'verified',
  'sort',
  'page',
] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** Longest text query, in characters. */
export const QUERY_MAX = 200;
/** Most words of a text query that are searched for. */
export const QUERY_WORDS_MAX = 12;
export const WITHIN_DAYS = [1, 7, 30] as const;
/** The orders of results: best match (with words; the default then), or newest first. */
export const SEARCH_SORTS = ['match', 'newest'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

export interface SearchFilters {
  /** The words of the text query (all must match), as typed; empty for none. */
  words: string[];
  state?: string;
  city?: string;
  seeks?: Seeks;
  minAge?: number;
  maxAge?: number;
  /** Posted within this many days of the publication day (1: that day only). */
  within?: (typeof WITHIN_DAYS)[number];
  /** Only ads in cities within this many miles of this one, nearest first (then newest). */
  near?: NearFilter;
  /** Only the ads of verified members (docs/product.md section 6, "Verified members"): `verified=1`. */
  verified?: true;
  /** Asked for; best match needs words. Default: best match with words, else newest first. */
  sort?: SearchSort;
  page: number;
}

export type SearchQuery =
  | { ok: true; values: Partial<Record<SearchField, string>>; filters: SearchFilters }
  | {
      ok: false;
      values: Partial<Record<SearchField, string>>;
      fieldErrors: Partial<Record<SearchField, string>>;
      /** The cities a `near` that named several, or none, may have meant. */
      nearChoices?: NearChoice[];
    };

/** Words of a text: runs of letters, marks and digits (punctuation and FTS syntax drop out). */
export const queryWords = (text: string): string[] => text.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];

/** An FTS5 MATCH expression for the words: each a quoted string, all of them required. */
export const ftsMatch = (words: readonly string[]): string =>
  words.map((word) => `"${word.replace(/"/g, '""')}"`).join(' ');

export function parseSearchQuery(query: Readonly<Record<string, string | undefined>>): SearchQuery {
  const values: Partial<Record<SearchField, string>> = {};
  for (const field of SEARCH_FIELDS) {
    const value = query[field]?.trim();
    if (value) values[field] = value;
  }
  const errors: Partial<Record<SearchField, string>> = {};
  const filters: SearchFilters = { words: [], page: 1 };

  if (values.q !== undefined) {
    if (values.q.length > QUERY_MAX) {
      errors.q = `Search for at most ${QUERY_MAX} characters (this is ${values.q.length}).`;
      values.q = values.q.slice(0, QUERY_MAX);
    } else {
      filters.words = queryWords(values.q).slice(0, QUERY_WORDS_MAX);
      if (filters.words.length === 0)
        errors.q = 'Search for words made of letters or numbers (punctuation alone finds nothing).';
    }
  }

  if (values.state !== undefined) {
    const state = getState(values.state);
    if (!state) errors.state = 'Choose a state from the list.';
    else filters.state = state.name;
  }
  if (values.city !== undefined) {
    const state = filters.state ? getState(filters.state) : undefined;
    if (values.city.length > 100) errors.city = 'A city name is at most 100 characters.';
    else if (!values.state) errors.city = 'Choose the state of this city too.';
    else if (state) {
      const wanted = values.city.toLowerCase();
      const city = state.cities.find((candidate) => candidate.name.toLowerCase() === wanted);
      if (!city) errors.city = `${state.name} has no city named “${values.city}” on this site.`;
      else filters.city = city.name;
    }
  }

  if (values.seeks !== undefined) {
    if (values.seeks in SEEKS_LABELS) filters.seeks = values.seeks as Seeks;
    else errors.seeks = 'Choose one of the options.';
  }

  for (const field of ['minAge', 'maxAge'] as const) {
    const text = values[field];
    if (text === undefined) continue;
    const age = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
    if (!Number.isInteger(age)) errors[field] = 'Enter an age as a whole number.';
    else if (age < AD_AGE_MIN || age > AD_AGE_MAX)
      errors[field] = `Enter an age from ${AD_AGE_MIN} to ${AD_AGE_MAX}.`;
    else filters[field] = age;
  }
  if (
    filters.minAge !== undefined &&
    filters.maxAge !== undefined &&
    filters.minAge > filters.maxAge
  )
    errors.maxAge = `The highest age must be at least the lowest (${filters.minAge}).`;

  // Days: `posted`, or `within` in a search that is not near a city (the URLs made before).
  const daysField = values.posted !== undefined || values.near !== undefined ? 'posted' : 'within';
  const daysText = values[daysField];
  if (daysText !== undefined) {
    const days = WITHIN_DAYS.find((option) => String(option) === daysText);
    if (days !== undefined) filters.within = days;
    // The form's distance, sent with no city to search near: not a filter.
    else if (daysField === 'within' && WITHIN_MILES.some((miles) => String(miles) === daysText))
      delete values.within;
    else errors[daysField] = 'Choose 1, 7 or 30 days, or any time.';
  }

  let nearChoices: NearChoice[] | undefined;
  if (values.near !== undefined) {
    const miles =
      values.within === undefined
        ? DEFAULT_WITHIN_MILES
        : WITHIN_MILES.find((option) => String(option) === values.within);
    if (miles === undefined) errors.within = 'Choose 10, 25, 50 or 100 miles.';
    const found = values.near.length > 200 ? undefined : findNearCity(values.near);
    if (values.state !== undefined || values.city !== undefined)
      errors.near = 'Search near a city or in a state and city, not both: clear one of them.';
    else if (!found) errors.near = 'A city name is at most 200 characters.';
    else if (!found.ok) {
      errors.near = found.message;
      nearChoices = found.choices;
    } else if (miles !== undefined) {
      filters.near = { state: found.state, city: found.city, ...found.at, miles };
      values.near = nearValue(found);
      values.within = String(miles);
    }
  }

  if (values.verified !== undefined) {
    if (values.verified === '1') filters.verified = true;
    else errors.verified = 'Choose anyone or verified members only.';
  }

  if (values.sort !== undefined) {
    const sort = SEARCH_SORTS.find((option) => option === values.sort);
    if (sort === undefined) errors.sort = 'Choose best match or newest first.';
    else filters.sort = sort;
  }

  if (values.page !== undefined) {
    const page = /^\d{1,6}$/.test(values.page) ? Number(values.page) : NaN;
    if (!Number.isInteger(page) || page < 1) errors.page = 'Pages are numbered from 1.';
    else filters.page = page;
  }

  return Object.keys(errors).length > 0
    ? { ok: false, values, fieldErrors: errors, ...(nearChoices ? { nearChoices } : {}) }
    : { ok: true, values, filters };
}

/** The /search URL of these values (empty ones left out), on another page of results. */
export function searchUrl(
  values: Readonly<Partial<Record<SearchField, string>>>,
  page = 1,
): string {
  const params = new URLSearchParams();
  for (const field of SEARCH_FIELDS) {
    if (field === 'page') continue;
    const value = values[field];
    if (value) params.set(field, value);
  }
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `${searchPath()}?${query}` : searchPath();
}

/**
 * A search's filters as a query string, without the page and the order (no leading `?`): what its
 * feed and a saved search are of.
 */
export function searchFiltersQuery(values: Readonly<Partial<Record<SearchField, string>>>): string {
  const params = new URLSearchParams();
  for (const field of SEARCH_FIELDS) {
    if (field === 'page' || field === 'sort') continue;
    const value = values[field];
    if (value) params.set(field, value);
  }
  return params.toString();
}

/**
 * The Atom feed of a search (docs/product.md section 11): its filters, without the page and the
 * order (a feed is always the newest ads).
 */
export function searchFeedUrl(values: Readonly<Partial<Record<SearchField, string>>>): string {
  const query = searchFiltersQuery(values);
  return query ? `${searchFeedPath()}?${query}` : searchFeedPath();
}

/** What a search's feed is called: "New ads: “hiking”, w4m, aged 30–40, in Los Angeles, California". */
export function searchFeedTitle(filters: SearchFilters): string {
  const parts: string[] = [];
  if (filters.words.length > 0) parts.push(`“${filters.words.join(' ')}”`);
  if (filters.seeks) parts.push(SEEKS_LABELS[filters.seeks]);
  const { minAge, maxAge } = filters;
  if (minAge !== undefined && maxAge !== undefined) parts.push(`aged ${minAge}–${maxAge}`);
  else if (minAge !== undefined) parts.push(`aged ${minAge} or over`);
  else if (maxAge !== undefined) parts.push(`aged up to ${maxAge}`);
  if (filters.city) parts.push(`in ${filters.city}, ${filters.state}`);
  else if (filters.state) parts.push(`in ${filters.state}`);
  if (filters.near)
    parts.push(`within ${filters.near.miles} miles of ${filters.near.city}, ${filters.near.state}`);
  if (filters.within)
    parts.push(`posted within ${filters.within === 1 ? '1 day' : `${filters.within} days`}`);
  if (filters.verified) parts.push('verified members only');
  return parts.length > 0 ? `New ads: ${parts.join(', ')}` : 'New ads';
}
