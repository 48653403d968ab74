import { render } from 'vike/abort';
import { adCount, adsForCity, getCity, getState } from '../../../core/content/index.ts';
import { nearbyCities } from '../../../core/content/nearby-cities.ts';
import type { NearbyCityLink } from '../../components/NearbyCities.tsx';
import { formatMiles } from '../../../core/geo/great-circle.ts';
import { cityFeedTitle } from '../../../core/feeds/ad-feed.ts';
import { ADS_PER_PAGE, cityFeedPath, cityPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import { NOT_FOUND } from '../_error/not-found.ts';

/** Pages of a city's list: at least one, even when the city has no ads yet. */
export const pageCount = (adCount: number) => Math.max(1, Math.ceil(adCount / ADS_PER_PAGE));

export function cityData(stateName: string, cityName: string, page: number) {
  const state = getState(stateName);
  if (!state) throw render(404, NOT_FOUND.state.heading);
  const city = getCity(stateName, cityName);
  if (!city) throw render(404, NOT_FOUND.city.heading);
  const total = adCount(state.name, city.name);
  const pages = pageCount(total);
  if (!Number.isInteger(page) || page < 1 || page > pages)
    throw render(404, NOT_FOUND.page.heading);
  const pageLabel = page > 1 ? ` - Page ${page}` : '';
  return {
    ...pageShell({
      title: `${city.name}, ${state.code} Personal Ads${pageLabel} - ${state.name}`,
      description:
        total > 0
          ? `Browse ${total} local personal ${total === 1 ? 'ad' : 'ads'} in ${city.name}, ${state.name}. Free to browse, adults 18+ only.`
          : `Personal ads in ${city.name}, ${state.name}. No ads yet: be the first to post. Free to browse, adults 18+ only.`,
      path: cityPath(state.name, city.name, page),
      robots: total > 0 ? 'index, follow' : 'noindex, follow',
      place: city.name,
      state,
      feed: { title: cityFeedTitle(city.name), href: cityFeedPath(state.name, city.name) },
    }),
    state: { name: state.name, code: state.code },
    city: city.name,
    page,
    pages,
    totalAds: total,
    ads: adsForCity(state.name, city.name, (page - 1) * ADS_PER_PAGE, page * ADS_PER_PAGE),
    nearby: nearbyLinks(state.name, city.name),
  };
}

/** The nearest cities with ads, as the page links them (another state's with its code). */
function nearbyLinks(stateName: string, cityName: string): NearbyCityLink[] {
  return nearbyCities(stateName, cityName).map(({ state, city, miles, ads }) => ({
    label: state === stateName ? city : `${city}, ${getState(state)?.code ?? state}`,
    href: cityPath(state, city),
    distance: formatMiles(miles),
    ads,
  }));
}
