// What the server hands /account about the member's saved searches (src/pages/request.ts), and
// where their forms post. Types and paths only: pages never import the server.

/** Where "Email me new ads like these" posts (with the search's query string). */
export const SAVED_SEARCHES_PATH = '/api/saved-searches';

/** The id of /account's list of saved searches (the unsubscribe pages link to it). */
export const SAVED_SEARCHES_ANCHOR = 'saved-searches';

/** Where a saved search's Delete on /account posts. */
export const deleteSavedSearchPath = (id: number) => `${SAVED_SEARCHES_PATH}/${id}/delete`;

/** The save form's action: the search's query string travels with it, so a refusal shows it again. */
export const saveSearchAction = (query: string) =>
  query ? `${SAVED_SEARCHES_PATH}?${query}` : SAVED_SEARCHES_PATH;

export interface SavedSearchView {
  id: number;
  /** What it searches for: "“hiking”, in Austin, Texas". */
  label: string;
  /** Its /search URL, to look at it again. */
  searchUrl: string;
}
