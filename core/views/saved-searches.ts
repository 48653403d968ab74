// What the server hands /account about the member's saved searches (src/pages/request.ts), and
// the id of their list (their forms post to core/paths.ts's endpoints). In the kernel: the server
// builds it, the pages show it.

/** The id of /account's list of saved searches (the unsubscribe pages link to it). */
export const SAVED_SEARCHES_ANCHOR = 'saved-searches';

export interface SavedSearchView {
  id: number;
  /** What it searches for: "“hiking”, in Austin, Texas". */
  label: string;
  /** Its /search URL, to look at it again. */
  searchUrl: string;
}
