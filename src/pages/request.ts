// What a page rendered on request learns from its request (docs/product.md section 3: member pages are
// rendered by the server on each request). The server (server/pages.ts) builds it and hands it to
// the page's data hook as `request`, beside `routeParams` (on the dev server too: server/dev/);
// prerendered pages get none. Pages read only this: they never import the server.
import type { FormPhoto } from '../schemas/ad-form.ts';
import type { MemberAdView } from '../schemas/member-ad-view.ts';
import type { MessagesView } from './messages-view.ts';
import type { ModerationView } from './moderation-view.ts';
import type { ModerationReportsView, ReportTarget } from './report-view.ts';
import type { SavedSearchView } from './account/saved-searches-view.ts';
import type { SearchView } from './search/search-view.ts';
import type { UnsubscribeView } from './unsubscribe/unsubscribe-view.ts';

/** The signed-in member, from the session cookie. */
export interface SignedInMember {
  email: string;
  emailVerified: boolean;
  /** YYYY-MM-DD, as the member entered it at sign-up. */
  dateOfBirth?: string;
  /** `moderator`: given by an operator (`npm run moderator -- add EMAIL`). */
  role?: 'member' | 'moderator';
}

/** A form answered again: the banner message and what was typed (never a password). */
export interface FormFill {
  error?: string;
  /** The field the message is about, when it is about one. */
  field?: string;
  values: Readonly<Record<string, string>>;
  /** Messages shown beside their fields, by field name. */
  fieldErrors?: Readonly<Partial<Record<string, string>>>;
  /** The posting forms: the photos kept from the refused post (uploads, the ad's), shown again. */
  photos?: readonly FormPhoto[];
}

/** An emailed link's token, as the server found it. `done`: the link's action just succeeded. */
export type LinkState = 'valid' | 'expired' | 'used' | 'unknown' | 'done';

export interface PageRequest {
  /** The query string's parameters (the first value of each). */
  query: Readonly<Record<string, string>>;
  member?: SignedInMember;
  /** A refused form post of this page, shown again with its message. */
  form?: FormFill;
  /** On pages opened from an emailed link (/verify, /reset): what the token is. */
  link?: LinkState;
  /** On /account and /account/ads/{id}/edit: the member's own ads, from the database. */
  memberAds?: readonly MemberAdView[];
  /** On /account: the member's saved searches, oldest first. */
  savedSearches?: readonly SavedSearchView[];
  /** On the moderation pages (moderators only): what the database holds for them. */
  moderation?: ModerationView;
  /** On the message pages (/messages, /messages/{id}, /messages/new): the member's conversations. */
  messages?: MessagesView;
  /** On /report: the ad or conversation reported, as found for this visitor (absent: unknown). */
  report?: ReportTarget;
  /** On /moderate/reports (moderators only): the open reports, grouped. */
  reports?: ModerationReportsView;
  /** On /search: the filters as typed, their errors, and the page of results the index gave. */
  search?: SearchView;
  /** On /unsubscribe/{token}: the saved search its link is for, or that it is gone. */
  unsubscribe?: UnsubscribeView;
}
