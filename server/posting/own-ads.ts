// Delete and Renew on the member's own ads (docs/product.md section 6), from the account page and
// the edit page: the change itself (member-ads.ts), then the publish it asks for, without waiting,
// and, for a deleted ad, its photos (rows and bytes). Any id not the member's ad is "not found".
import type { AppPhotos } from '../photos/app-photos.ts';
import { deletePhotosOfAd } from '../photos/ad-photo-lifecycle.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import type { Store } from '../../store/store.ts';
import { deleteAd, renewAd } from './member-ads.ts';

export interface OwnAdDeps {
  store: Store;
  /** Photo storage (its bytes go with a deleted ad); none in the API's own tests. */
  photos?: AppPhotos;
  /** Asked to publish when a live ad is deleted or an ad is renewed; none in the API's tests. */
  publisher?: Publisher;
  now: () => Date;
}

/** The change to the member's own ad, done now; "not found" when `adId` names none of theirs. */
async function onOwnAd<Outcome>(
  deps: OwnAdDeps,
  accountId: number,
  adId: number,
  change: (store: Store, accountId: number, adId: number, now: Date) => Promise<Outcome>,
): Promise<Outcome> {
  return change(deps.store, accountId, adId, deps.now());
}

/** Deletes the member's ad of `adId`: the ad as it was deleted. */
export async function deleteOwnAd(
  deps: OwnAdDeps,
  accountId: number,
  adId: number,
): Promise<MemberAdRow> {
  const outcome = await onOwnAd(deps, accountId, adId, deleteAd);
  if (outcome.wasLive) publishSoon(deps.publisher, `deleted ad ${outcome.ad.id}`);
  // Its photos go with it: rows and bytes (published files at the next publish). The ad is
  // deleted already: a failure here is logged, and the hourly sweep takes a deleted ad's photos.
  if (deps.photos)
    await deletePhotosOfAd(deps.store, deps.photos.storage, outcome.ad.id).catch((error: Error) =>
      console.error(`Deleting the photos of ad ${outcome.ad.id} failed: ${error.message}`),
    );
  return outcome.ad;
}

/** Renews the member's ad of `adId` (live for another AD_LIVE_DAYS): the ad renewed. */
export async function renewOwnAd(
  deps: OwnAdDeps,
  accountId: number,
  adId: number,
): Promise<MemberAdRow> {
  const outcome = await onOwnAd(deps, accountId, adId, renewAd);
  publishSoon(deps.publisher, `renewed ad ${outcome.ad.id}`);
  return outcome.ad;
}
