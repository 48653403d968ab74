// Saving and deleting searches (docs/product.md section 11): who may, how many, and what the
// member reads. A saved search is the search's normalized query string (its feed's, without the
// page and the order), and remembers the newest ads matching it when saved (seen-ads.ts), so that
// its first digest lists only ads approved after.
import { createHash, createHmac } from 'node:crypto';
import {
  parseSearchQuery,
  searchFeedTitle,
  searchFiltersQuery,
  searchUrl,
  type SearchFilters,
} from '../../core/search-query.ts';
import type { SavedSearchView } from '../../core/views/saved-searches.ts';
import { UnsearchableWords, type SearchIndex } from '../../search/search-index.ts';
import { Refusal } from '../../core/refusal.ts';
import type { SavedSearch } from '../../store/parts/saved-searches.ts';
import { DIGEST_ADS_MAX, seenOf } from './seen-ads.ts';
import type { Store } from '../../store/store.ts';

/** Saved searches a member may keep. */
export const MAX_SAVED_SEARCHES = 10;

export const SAVED_SEARCH_TEXTS = {
  notVerified:
    'Please verify your email address before saving a search: open the link we emailed you.',
  tooMany: `You can save up to ${MAX_SAVED_SEARCHES} searches. Delete one on your account page to save this one.`,
  badQuery: 'This search cannot be saved: correct it first.',
  unavailable:
    'Search is not available yet: the site is being built. Please try again in a minute.',
  notFound: 'This saved search does not exist (any more).',
} as const;

/** Who saves: the signed-in member of the request, if any. */
export interface Saver {
  accountId: number;
  emailVerified: boolean;
}

/** A saved query string parsed again: its filters (it was valid when saved). */
export function savedFilters(query: string): SearchFilters | undefined {
  const parsed = parseSearchQuery(Object.fromEntries(new URLSearchParams(query)));
  return parsed.ok ? parsed.filters : undefined;
}

/** What the member reads for a saved search: its feed's title without "New ads: ". */
export function savedSearchLabel(filters: SearchFilters): string {
  const title = searchFeedTitle(filters);
  return title === 'New ads' ? 'All ads' : title.replace(/^New ads: /, '');
}

export const unsubscribeHash = (token: string) => createHash('sha256').update(token).digest();

/** The server secret the unsubscribe tokens are keyed with (store.secrets). */
export const UNSUBSCRIBE_SECRET = 'saved-search-unsubscribe';

/**
 * A saved search's one-click unsubscribe token: a keyed hash of what identifies it (its member,
 * query and creation time), so the digest can put it in every mail while the database keeps only
 * its SHA-256 (a leaked database holds no working link).
 */
export const unsubscribeToken = (
  secret: Buffer,
  saved: Pick<SavedSearch, 'accountId' | 'query' | 'createdAt'>,
) =>
  createHmac('sha256', secret)
    .update(`${saved.accountId}\n${saved.query}\n${saved.createdAt}`)
    .digest('base64url');

/**
 * Saves the search `rawQuery` (a /search query string) for `member`: its id (or that of the same
 * search saved before), or the refusal.
 */
export async function saveSearch(
  store: Store,
  index: SearchIndex,
  member: Saver,
  rawQuery: string,
  now: Date,
): Promise<{ id: number | undefined }> {
  if (!member.emailVerified) throw new Refusal('forbidden', SAVED_SEARCH_TEXTS.notVerified);
  const parsed = parseSearchQuery(Object.fromEntries(new URLSearchParams(rawQuery)));
  if (!parsed.ok) throw new Refusal('invalid', SAVED_SEARCH_TEXTS.badQuery);
  const query = searchFiltersQuery(parsed.values);
  if (index.version() === undefined) throw new Refusal('busy', SAVED_SEARCH_TEXTS.unavailable);
  let newest;
  try {
    newest = index.newest(parsed.filters, DIGEST_ADS_MAX);
  } catch (error) {
    if (!(error instanceof UnsearchableWords)) throw error;
    throw new Refusal('invalid', SAVED_SEARCH_TEXTS.badQuery);
  }
  const secret = await store.secrets.get(UNSUBSCRIBE_SECRET);
  const createdAt = now.toISOString();
  const token = unsubscribeToken(secret, { accountId: member.accountId, query, createdAt });
  return store.unitOfWork(async (tx) => {
    // Two saves at once (two tabs, two instances) cannot both be the tenth.
    await tx.lock(`saved-searches:${member.accountId}`);
    const owned = await tx.savedSearches.listOwned(member.accountId);
    const same = owned.find((saved) => saved.query === query);
    if (same) return { id: same.id };
    if (owned.length >= MAX_SAVED_SEARCHES)
      throw new Refusal('conflict', SAVED_SEARCH_TEXTS.tooMany);
    const id = await tx.savedSearches.add(
      {
        accountId: member.accountId,
        query,
        label: savedSearchLabel(parsed.filters),
        seen: seenOf(newest),
        unsubscribeHash: unsubscribeHash(token),
      },
      createdAt,
    );
    return { id };
  });
}

/** Deletes the member's own saved search (its id); refused (not found) when not theirs or gone. */
export async function deleteSavedSearch(store: Store, member: Saver, id: number): Promise<number> {
  if (!(await store.savedSearches.deleteOwned(member.accountId, id))) throw savedSearchNotFound();
  return id;
}

/** Any id not one of the member's saved searches. */
export const savedSearchNotFound = () => new Refusal('not-found', SAVED_SEARCH_TEXTS.notFound);

/** /account's list. */
/** A saved search's /search path (its results, newest or best first as the search says). */
export const savedSearchPath = (query: string) =>
  searchUrl(Object.fromEntries(new URLSearchParams(query)));

export const savedSearchView = (saved: SavedSearch): SavedSearchView => ({
  id: saved.id,
  label: saved.label,
  searchUrl: savedSearchPath(saved.query),
});
