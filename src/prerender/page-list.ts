// Every page the static site has, in render tasks: the site-wide pages, then one task a state
// (its state page, city pages and ad pages), so a worker holds one state's ads at a time.
import { adCount, adsOfState, getGuides, getStates } from '../content/index.ts';
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

export type RenderTask = { kind: 'site' } | { kind: 'state'; state: string };

/** The tasks in output order (the sitemap follows it): site-wide pages, then states A to Z. */
export function listTasks(): RenderTask[] {
  return [{ kind: 'site' }, ...getStates().map((state): RenderTask => ({ kind: 'state', state: state.name }))];
}

/** Roughly how long a task takes, to hand out the longest first. */
export function taskWeight(task: RenderTask): number {
  if (task.kind === 'site') return 100;
  const state = getStates().find((entry) => entry.name === task.state);
  return (state?.cities ?? []).reduce((sum, city) => sum + 1 + adCount(task.state, city.name), 1);
}

export function pagesOfTask(task: RenderTask): PageJob[] {
  if (task.kind === 'site') {
    return [
      { kind: 'landing', path: homePath() },
      { kind: 'about', path: aboutPath() },
      { kind: 'legal', path: legalPath('terms'), slug: 'terms' },
      { kind: 'legal', path: legalPath('privacy'), slug: 'privacy' },
      { kind: 'signup', path: signupPath() },
      { kind: 'signin', path: signinPath() },
      { kind: 'success', path: successPath() },
      ...getGuides().map((guide): PageJob => ({ kind: 'guide', path: guidePath(guide.slug), slug: guide.slug })),
    ];
  }
  const state = getStates().find((entry) => entry.name === task.state);
  if (!state) return [];
  const jobs: PageJob[] = [{ kind: 'state', path: statePath(state.name), state: state.name }];
  for (const city of state.cities) {
    const pages = pageCount(adCount(state.name, city.name));
    for (let page = 1; page <= pages; page += 1) {
      jobs.push({ kind: 'city', path: cityPath(state.name, city.name, page), state: state.name, city: city.name, page });
    }
  }
  const ads = [...adsOfState(state.name)].sort((a, b) => a.id - b.id);
  for (const ad of ads) jobs.push({ kind: 'ad', path: adPath(ad.state, ad.city, ad.id), state: ad.state, city: ad.city, adId: ad.id });
  return jobs;
}
