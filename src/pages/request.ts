// What a page rendered on request learns from its request (docs/product.md section 3: member pages are
// rendered by the server on each request): the query, the signed-in member, a refused form, and
// what the server read for the page (`read`, typed by the page's own view type:
// server/http/page-reads/{folder}.ts gives it). The server (server/http/pages.ts) builds it and hands it to the page's data
// hook as `request`, beside `routeParams` (on the dev server too: server/dev/); prerendered pages
// get none. Pages read only this: they never import the server.
import type { FormFill } from '../../core/views/form-fill.ts';

/** The signed-in member, from the session cookie. */
export interface SignedInMember {
  email: string;
  emailVerified: boolean;
  /** YYYY-MM-DD, as the member entered it at sign-up. */
  dateOfBirth?: string;
  /** `moderator`: given by an operator (`npm run moderator -- add EMAIL`). */
  role?: 'member' | 'moderator';
}

/**
 * The view of the pages opened from an emailed link (/verify, /reset): what the link's token is, as
 * the server found it. `done`: the link's action just succeeded.
 */
export type LinkState = 'valid' | 'expired' | 'used' | 'unknown' | 'done';

/**
 * `Read`: the page's own view type, what its server read gives (server/http/page-reads/<folder>.ts,
 * declared with that type); each +data.ts names it (`DataContext<AccountView>`).
 */
export interface PageRequest<Read = unknown> {
  /** The query string's parameters (the first value of each). */
  query: Readonly<Record<string, string>>;
  member?: SignedInMember;
  /** A refused form post of this page, shown again with its message. */
  form?: FormFill;
  /** What the server read for this page (absent: nothing read, as for a visitor it is not for). */
  read?: Read;
}
