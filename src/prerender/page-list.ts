// Every page the static site has, enumerated from the compiled content.
import { adsForCity, getAds, getGuides, getStates } from '../content/index.ts';
import { aboutPath, adPath, cityPath, guidePath, homePath, legalPath, signinPath, signupPath, statePath, successPath } from '../paths.ts';
import { pageCount } from '../pages/city/cityData.ts';

export type PageJob =
  | { kind: 'landing'; path: string }
  | { kind: 'state'; path: string; state: string }
  | { kind: 'city'; path: string; state: string; city: string; page: number }
  | { kind: 'ad'; path: string; state: string; city: string; adId: number }
  | { kind: 'about'; path: string }
  | { kind: 'guide'; path: string; slug: string }
  | { kind: 'legal'; path: string; slug: 'terms' | 'privacy' }
  | { kind: 'signup'; path: string }
  | { kind: 'signin'; path: string }
  | { kind: 'success'; path: string };

export type PageKind = PageJob['kind'];

export function listPages(): PageJob[] {
  const jobs: PageJob[] = [
    { kind: 'landing', path: homePath() },
    { kind: 'about', path: aboutPath() },
    { kind: 'legal', path: legalPath('terms'), slug: 'terms' },
    { kind: 'legal', path: legalPath('privacy'), slug: 'privacy' },
    { kind: 'signup', path: signupPath() },
    { kind: 'signin', path: signinPath() },
    { kind: 'success', path: successPath() },
    ...getGuides().map((guide): PageJob => ({ kind: 'guide', path: guidePath(guide.slug), slug: guide.slug })),
  ];
  for (const state of getStates()) {
    jobs.push({ kind: 'state', path: statePath(state.name), state: state.name });
    for (const city of state.cities) {
      const pages = pageCount(adsForCity(state.name, city.name).length);
      for (let page = 1; page <= pages; page += 1) {
        jobs.push({ kind: 'city', path: cityPath(state.name, city.name, page), state: state.name, city: city.name, page });
      }
    }
  }
  for (const ad of getAds()) {
    jobs.push({ kind: 'ad', path: adPath(ad.state, ad.city, ad.id), state: ad.state, city: ad.city, adId: ad.id });
  }
  return jobs;
}
