// The pages this folder prerenders (src/pages/prerender-groups.ts): every published ad, in its
// city's group (shared with the city's list pages), read only when the group is rendered.
import { adIdsForCity } from '../../../core/content/index.ts';
import { allCities, cityGroup, type PrerenderUrls } from '../prerender-groups.ts';

export const prerenderUrls: PrerenderUrls = function* () {
  for (const { stateName, cityName, ads } of allCities()) {
    if (ads === 0) continue;
    yield cityGroup(stateName, cityName, ads, () =>
      adIdsForCity(stateName, cityName).map((id) => ({ stateName, cityName, adId: String(id) })),
    );
  }
};
