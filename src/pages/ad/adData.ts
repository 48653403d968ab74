import { render } from 'vike/abort';
import { getAd, getCity, getSite, getState } from '../../../core/content/index.ts';
import { adPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import { NOT_FOUND } from '../_error/not-found.ts';

/** The first 150 characters of the description, on one line (the ad page's meta description). */
export function metaDescriptionOf(description: string): string {
  // Only the start matters: fold white space in the first few hundred characters, then count
  // characters (not UTF-16 units, so an emoji is never cut in half).
  const start = description.slice(0, 400).replace(/\s+/g, ' ').trimStart();
  const text = description.length > 400 ? start : start.trimEnd();
  return /[\uD800-\uDFFF]/.test(text.slice(0, 151))
    ? Array.from(text).slice(0, 150).join('')
    : text.slice(0, 150);
}

export function adData(stateName: string, cityName: string, adIdText: string) {
  const state = getState(stateName);
  if (!state) throw render(404, NOT_FOUND.state.heading);
  const city = getCity(stateName, cityName);
  if (!city) throw render(404, NOT_FOUND.city.heading);
  const ad = /^\d+$/.test(adIdText) ? getAd(state.name, city.name, Number(adIdText)) : undefined;
  if (!ad) throw render(404, NOT_FOUND.ad.heading);
  const site = getSite();
  return {
    ...pageShell({
      title: `${ad.title} - ${city.name}, ${state.code} - ${site.brand}`,
      description: metaDescriptionOf(ad.description),
      path: adPath(state.name, city.name, ad.id),
      robots: 'noindex, follow',
      ogType: 'article',
      place: city.name,
      state,
    }),
    ad,
    stateCode: state.code,
  };
}
