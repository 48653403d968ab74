// What a page folder's +prerenderUrls.ts declares: the pages it prerenders, in groups (the model is
// Vike's +onBeforePrerenderStart, https://vike.dev/onBeforePrerenderStart). A group's pages are made
// from the same inputs and rendered together; the build skips a group whose inputs are those of
// the last build, so `inputs` must cover everything its pages show. Folders that share a group
// (a city's list pages and its ads' pages) give it the same key and the same inputs.
import { hash } from 'node:crypto';
import {
  adCount,
  cityAdsEntry,
  getAdCounts,
  getCity,
  getSite,
  getState,
  getStates,
} from '../../core/content/index.ts';
import { nearbyCitiesKey } from '../../core/content/nearby-cities.ts';
import type { RouteParams } from '../../core/route.ts';

export interface PrerenderGroup {
  /** Identifies the group from build to build: `site`, `state:Vermont`, `city:Vermont|Burlington`. */
  key: string;
  /** Where the group's pages come in the sitemap: site-wide pages, then each state and its cities. */
  order: readonly string[];
  /** What the pages are made from; empty means "always look again" (their data is still compared). */
  inputs: string;
  /** Roughly how many pages, so that the longest groups are handed out first. */
  weight: number;
  /** The route parameters of each page, read only when the group is rendered. */
  pages(): Iterable<RouteParams>;
  /**
   * Files that are not pages (a city's feed), made from the same inputs: written beside the pages,
   * and, like them, only when their text changed since the last build.
   */
  files?(): Iterable<GroupFile>;
}

/** A file of a group that is not a page: its URL path (core/paths.ts outputFileForPath) and text. */
export interface GroupFile {
  path: string;
  text(): string;
}

/** A page folder's +prerenderUrls.ts export. */
export type PrerenderUrls = () => Iterable<PrerenderGroup>;

/** Pages shown site-wide (landing, about, guides, legal, forms): their data shows counts from everywhere. */
export const siteGroup = (pages: () => Iterable<RouteParams>, weight = 1): PrerenderGroup => ({
  key: 'site',
  order: [],
  inputs: '',
  weight,
  pages,
});

export const stateGroup = (
  stateName: string,
  pages: () => Iterable<RouteParams>,
): PrerenderGroup => ({
  key: `state:${stateName}`,
  order: [stateName],
  inputs: stateInputs(stateName),
  weight: 1,
  pages,
});

export const cityGroup = (
  stateName: string,
  cityName: string,
  weight: number,
  pages: () => Iterable<RouteParams>,
  files?: () => Iterable<GroupFile>,
): PrerenderGroup => ({
  key: `city:${stateName}|${cityName}`,
  order: [stateName, cityName],
  inputs: cityInputs(stateName, cityName),
  weight,
  pages,
  ...(files ? { files } : {}),
});

/** Every city of every state, A to Z by state, most populous first within it. */
export function* allCities(): Iterable<{ stateName: string; cityName: string; ads: number }> {
  for (const state of getStates()) {
    for (const city of state.cities) {
      yield { stateName: state.name, cityName: city.name, ads: adCount(state.name, city.name) };
    }
  }
}

const hashOf = (value: unknown) => hash('sha1', JSON.stringify(value), 'base64url');

/** A state page: the site settings, the state (flags, guide, cities) and its cities' ad counts. */
function stateInputs(stateName: string): string {
  return hashOf({
    site: getSite(),
    state: getState(stateName),
    counts: getAdCounts()[stateName] ?? {},
  });
}

/**
 * A city's pages (its list and its ads): the site settings, the state's own fields (its flags
 * shape the header and footer; its guide and city list are not shown there), the city and its
 * ads (their digest, from the compiled ads index), and its nearby cities as shown (names,
 * distances, counts: a neighbour gaining its first ad or losing its last changes them). Plain
 * text but for the nearby list's hash: there is one city group for every city of the country.
 */
function cityInputs(stateName: string, cityName: string): string {
  const entry = cityAdsEntry(stateName, cityName);
  const population = getCity(stateName, cityName)?.population;
  const nearby = nearbyCitiesKey(stateName, cityName);
  return `${stateShellKey(stateName)} ${population} ${entry?.ads ?? 0} ${entry?.digest ?? ''} ${nearby}`;
}

let shellKeys: { site: unknown; byState: Map<string, string> } | undefined;

/** The site settings and a state's own fields, hashed once per state while the content is the same. */
function stateShellKey(stateName: string): string {
  const site = getSite();
  if (shellKeys?.site !== site) shellKeys = { site, byState: new Map() };
  let key = shellKeys.byState.get(stateName);
  if (key === undefined) {
    const { cities: _cities, guideHtml: _guide, ...state } = getState(stateName) ?? { name: '' };
    key = hashOf({ site, state });
    shellKeys.byState.set(stateName, key);
  }
  return key;
}
