// What the server reads for /account (its server read, server-read.ts, from
// server/account/account-view.ts): the member's own ads and saved searches. Types only: pages
// never import the server.
import type { MemberAdView } from '../../schemas/member-ad-view.ts';
import type { SavedSearchView } from './saved-searches-view.ts';

export interface AccountView {
  /** The member's own ads, as the store lists them. */
  ads: readonly MemberAdView[];
  /** The member's saved searches, oldest first. */
  savedSearches: readonly SavedSearchView[];
}
