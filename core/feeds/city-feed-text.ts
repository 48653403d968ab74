// A city's Atom feed as its file holds it (docs/product.md section 11): the city page's first 30
// ads, with the site's brand and base URL. The build writes it beside the city page
// (src/pages/city/+prerenderUrls.ts); the dev server answers it on request (server/dev/dev-app.ts).
import { adsForCity, getSite } from '../content/index.ts';
import { cityFeed, FEED_ENTRIES } from './ad-feed.ts';
import { atomXml } from './atom.ts';

export function cityFeedText(stateName: string, cityName: string): string {
  const { brand, baseUrl } = getSite();
  const site = { brand, baseUrl: baseUrl.replace(/\/+$/, '') };
  const first = adsForCity(stateName, cityName, 0, FEED_ENTRIES);
  return atomXml(cityFeed(stateName, cityName, first, site));
}
