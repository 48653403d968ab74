// Every page the static site has, in render tasks: the site-wide pages, then for each state its
// state page, then one task a city (its list pages and its ads' pages), so that a thread reads one
// city's ads at a time and a changed ad means looking again at its city only.
import { adCount, adsForCity, getGuides, getStates } from '../../content/index.ts';
import {
  aboutPath,
  adPath,
  cityPath,
  guidePath,
  homePath,
  legalPath,
  signinPath,
  signupPath,
  statePath,
  successPath,
} from '../../paths.ts';
import { pageCount } from '../../pages/city/cityData.ts';

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

export type RenderTask =
  | { kind: 'site' }
  | { kind: 'state'; state: string }
  | { kind: 'city'; state: string; city: string };

/** The tasks in output order (the sitemap follows it): site-wide pages, then each state, A to Z, and its cities. */
export function listTasks(): RenderTask[] {
  const tasks: RenderTask[] = [{ kind: 'site' }];
  for (const state of getStates()) {
    tasks.push({ kind: 'state', state: state.name });
    for (const city of state.cities)
      tasks.push({ kind: 'city', state: state.name, city: city.name });
  }
  return tasks;
}

/** Roughly how many pages a task renders, to hand out the longest first. */
export function taskWeight(task: RenderTask): number {
  if (task.kind === 'site') return 20;
  if (task.kind === 'state') return 1;
  return 1 + adCount(task.state, task.city);
}

export function pagesOfTask(task: RenderTask): PageJob[] {
  switch (task.kind) {
    case 'site':
      return [
        { kind: 'landing', path: homePath() },
        { kind: 'about', path: aboutPath() },
        { kind: 'legal', path: legalPath('terms'), slug: 'terms' },
        { kind: 'legal', path: legalPath('privacy'), slug: 'privacy' },
        { kind: 'signup', path: signupPath() },
        { kind: 'signin', path: signinPath() },
        { kind: 'success', path: successPath() },
        ...getGuides().map((guide): PageJob => ({
          kind: 'guide',
          path: guidePath(guide.slug),
          slug: guide.slug,
        })),
      ];
    case 'state':
      return [{ kind: 'state', path: statePath(task.state), state: task.state }];
    case 'city': {
      const { state, city } = task;
      const jobs: PageJob[] = [];
      const pages = pageCount(adCount(state, city));
      for (let page = 1; page <= pages; page += 1)
        jobs.push({ kind: 'city', path: cityPath(state, city, page), state, city, page });
      for (const ad of adsForCity(state, city))
        jobs.push({ kind: 'ad', path: adPath(state, city, ad.id), state, city, adId: ad.id });
      return jobs;
    }
  }
}
