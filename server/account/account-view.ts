// What /account shows a member of their own (src/pages/account/account-view.ts), read from the
// store: their ads, each with its photos and what they can do with it, and their saved searches.
import type { AccountView } from '../../src/pages/account/account-view.ts';
import { savedSearchView } from '../alerts/saved-searches.ts';
import { memberAdView } from '../posting/ad-view.ts';
import type { Store } from '../store/store.ts';

export async function accountView(
  store: Store,
  accountId: number,
  today: string,
): Promise<AccountView> {
  const owned = await store.memberAds.listOwned(accountId);
  const photos = await store.photos.listOwned(accountId);
  const saved = await store.savedSearches.listOwned(accountId);
  return {
    savedSearches: saved.map(savedSearchView),
    ads: owned.map((ad) =>
      memberAdView(
        ad,
        today,
        photos.filter((photo) => photo.adId === ad.id),
      ),
    ),
  };
}
