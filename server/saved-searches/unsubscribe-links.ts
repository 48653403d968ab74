// A digest's one-click unsubscribe link (docs/product.md section 11): the saved search its token is
// for, and what /unsubscribe/{token} shows of it (src/pages/unsubscribe/): read by the page's
// server read and by the POST that deletes it (server/http/routes/unsubscribe.ts).
import type { UnsubscribeView } from '../../core/views/unsubscribe.ts';
import type { SavedSearch } from '../../store/parts/saved-searches.ts';
import type { Store } from '../../store/store.ts';
import { savedSearchView, unsubscribeHash } from './saved-searches.ts';

/** The shape of every token the digest writes (saved-searches.ts): 32 bytes, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The page of a link that is no saved search's (unknown, used, malformed). */
export const UNSUBSCRIBE_GONE: UnsubscribeView = { state: 'gone' };

/** The saved search whose link this is, if any; anything not shaped like a token is none. */
export async function savedSearchOfLink(store: Store, token: string | undefined) {
  if (token === undefined || !TOKEN.test(token)) return undefined;
  return store.savedSearches.findByUnsubscribeHash(unsubscribeHash(token));
}

/**
 * A digest's one-click unsubscribe: deletes the saved search of the link's token, and answers it,
 * or undefined when there is none (any more). Found, then deleted: two at once (a mail client's
 * and the page's button) delete it once, and only one of them answers it.
 */
export async function unsubscribe(store: Store, token: string): Promise<SavedSearch | undefined> {
  const saved = await savedSearchOfLink(store, token);
  const deleted =
    saved !== undefined &&
    (await store.savedSearches.deleteByUnsubscribeHash(unsubscribeHash(token)));
  return deleted ? saved : undefined;
}

/** The page about a link's saved search: its Unsubscribe button, or what the button did. */
export const unsubscribeView = (saved: SavedSearch, state: 'confirm' | 'done'): UnsubscribeView => {
  const { label, searchUrl } = savedSearchView(saved);
  return { state, label, searchUrl };
};
