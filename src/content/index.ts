// Typed access to the compiled content (.content/content.json). Read once per process; every
// lookup below is an index built once, so page data hooks never re-read or re-parse files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledAd, CompiledContent, CompiledState } from '../schemas/compiled-content.ts';
import type { PageSlug } from '../schemas/page.ts';

export type { CompiledAd, CompiledCity, CompiledContent, CompiledGuide, CompiledState } from '../schemas/compiled-content.ts';

export function compiledContentFile(): string {
  return join(process.env.COMPILED_CONTENT_DIR ?? join(process.cwd(), '.content'), 'content.json');
}

interface ContentIndex {
  content: CompiledContent;
  stateByName: Map<string, CompiledState>;
  cityKeys: Set<string>;
  adsByCity: Map<string, CompiledAd[]>;
  adById: Map<number, CompiledAd>;
  citiesWithAds: number;
}

let index: ContentIndex | undefined;

const cityKey = (state: string, city: string) => `${state}\u0000${city}`;

/** Featured ads first, then newest first, then highest id: the order of a city's list. */
export function compareForList(a: CompiledAd, b: CompiledAd): number {
  return Number(b.featured) - Number(a.featured) || b.postedAt.localeCompare(a.postedAt) || b.id - a.id;
}

function buildIndex(content: CompiledContent): ContentIndex {
  const adsByCity = new Map<string, CompiledAd[]>();
  for (const ad of content.ads) {
    const key = cityKey(ad.state, ad.city);
    const list = adsByCity.get(key);
    if (list) list.push(ad);
    else adsByCity.set(key, [ad]);
  }
  for (const list of adsByCity.values()) list.sort(compareForList);
  return {
    content,
    stateByName: new Map(content.states.map((state) => [state.name, state])),
    cityKeys: new Set(content.states.flatMap((state) => state.cities.map((city) => cityKey(state.name, city.name)))),
    adsByCity,
    adById: new Map(content.ads.map((ad) => [ad.id, ad])),
    citiesWithAds: adsByCity.size,
  };
}

function contentIndex(): ContentIndex {
  if (!index) {
    const file = compiledContentFile();
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new Error(`Compiled content not found at ${file}. Run \`npm run build\` (or \`npm run compile:content\`) first.`);
    }
    index = buildIndex(JSON.parse(text) as CompiledContent);
  }
  return index;
}

/** Uses the given content instead of the compiled file (tests, and the prerender workers). */
export function useContent(content: CompiledContent): void {
  index = buildIndex(content);
}

export const getSite = () => contentIndex().content.site;
export const getBuildDate = () => contentIndex().content.buildDate;
export const getStates = () => contentIndex().content.states;
export const getState = (name: string) => contentIndex().stateByName.get(name);
export const hasCity = (state: string, city: string) => contentIndex().cityKeys.has(cityKey(state, city));
export const getCity = (state: string, city: string) =>
  hasCity(state, city) ? getState(state)?.cities.find((entry) => entry.name === city) : undefined;
export const adsForCity = (state: string, city: string): readonly CompiledAd[] =>
  contentIndex().adsByCity.get(cityKey(state, city)) ?? [];
export const getAds = () => contentIndex().content.ads;
export const getAd = (id: number) => contentIndex().adById.get(id);
export const getGuides = () => contentIndex().content.guides;
export const getGuide = (slug: string) => getGuides().find((guide) => guide.slug === slug);
export const getPage = (slug: PageSlug) => contentIndex().content.pages[slug];

/** Counts shown to visitors, computed from the published content. */
export function getCounts() {
  const { content, citiesWithAds } = contentIndex();
  return {
    activeAds: content.ads.length,
    citiesWithAds,
    listedCities: contentIndex().cityKeys.size,
    states: content.states.length,
  };
}
