// The pages this folder prerenders (src/pages/prerender-groups.ts): every city's list, page by
// page, in its city's group (shared with the city's ad pages), and beside them the city's Atom
// feed of the first page's ads (core/feeds/), for every city, with ads or not.
import { cityFeedText } from '../../../core/feeds/city-feed-text.ts';
import { cityFeedPath } from '../../../core/paths.ts';
import { allCities, cityGroup, type PrerenderUrls } from '../prerender-groups.ts';
import { pageCount } from './cityData.ts';

export const prerenderUrls: PrerenderUrls = function* () {
  for (const { stateName, cityName, ads } of allCities()) {
    const pages = pageCount(ads);
    yield cityGroup(
      stateName,
      cityName,
      pages,
      function* () {
        for (let page = 1; page <= pages; page += 1) {
          yield { stateName, cityName, ...(page > 1 ? { page: String(page) } : {}) };
        }
      },
      function* () {
        yield {
          path: cityFeedPath(stateName, cityName),
          text: () => cityFeedText(stateName, cityName),
        };
      },
    );
  }
};
