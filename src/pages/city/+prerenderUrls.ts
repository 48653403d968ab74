// The pages this folder prerenders (src/pages/prerender-groups.ts): every city's list, page by
// page, in its city's group (shared with the city's ad pages).
import { allCities, cityGroup, type PrerenderUrls } from '../prerender-groups.ts';
import { pageCount } from './cityData.ts';

export const prerenderUrls: PrerenderUrls = function* () {
  for (const { stateName, cityName, ads } of allCities()) {
    const pages = pageCount(ads);
    yield cityGroup(stateName, cityName, pages, function* () {
      for (let page = 1; page <= pages; page += 1) {
        yield { stateName, cityName, ...(page > 1 ? { page: String(page) } : {}) };
      }
    });
  }
};
