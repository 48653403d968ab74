// The pages this folder prerenders (src/pages/prerender-groups.ts): every city's list, page by
// page, in its city's group (shared with the city's ad pages), and beside them the city's Atom
// feed of the first page's ads (src/feeds/), for every city, with ads or not.
import { adsForCity, getSite } from '../../content/index.ts';
import { cityFeed, FEED_ENTRIES } from '../../feeds/ad-feed.ts';
import { atomXml } from '../../feeds/atom.ts';
import { cityFeedPath } from '../../paths.ts';
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
          text: () => {
            const { brand, baseUrl } = getSite();
            const site = { brand, baseUrl: baseUrl.replace(/\/+$/, '') };
            const first = adsForCity(stateName, cityName, 0, FEED_ENTRIES);
            return atomXml(cityFeed(stateName, cityName, first, site));
          },
        };
      },
    );
  }
};
