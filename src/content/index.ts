// Typed access to the compiled content: .content/content.json (read once per process) and the
// published ads, one file a state (.content/ads/{State Name}.ndjson), read when a page of that
// state first needs them. Lookups are indexes built once, so data hooks never re-parse files.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledAd, CompiledCity, CompiledContent, CompiledState } from '../schemas/compiled-content.ts';
import type { PageSlug } from '../schemas/page.ts';

export type { CompiledAd, CompiledCity, CompiledContent, CompiledGuide, CompiledState } from '../schemas/compiled-content.ts';

export const compiledContentDir = () => process.env.COMPILED_CONTENT_DIR ?? join(process.cwd(), '.content');
export const compiledContentFile = (dir = compiledContentDir()) => join(dir, 'content.json');
export const stateAdsFile = (state: string, dir = compiledContentDir()) => join(dir, 'ads', `${state}.ndjson`);

interface ContentIndex {
  content: CompiledContent;
  stateByName: Map<string, CompiledState>;
  cityByKey: Map<string, CompiledCity>;
  citiesWithAds: number;
  /** In tests: every ad, by state, instead of the files. */
  adsInMemory?: Map<string, CompiledAd[]>;
}

interface StateAds {
  byCity: Map<string, CompiledAd[]>;
  byId: Map<number, CompiledAd>;
}

let index: ContentIndex | undefined;
const stateAdsCache = new Map<string, StateAds>();
/** How many states' ads stay in memory; the prerenderer keeps one, everything else keeps all. */
let stateAdsCacheLimit = Number.POSITIVE_INFINITY;

const cityKey = (state: string, city: string) => `${state}\u0000${city}`;

/** Featured ads first, then newest first, then highest id: the order of a city's list. */
function compareForList(a: CompiledAd, b: CompiledAd): number {
  return Number(b.featured) - Number(a.featured) || b.postedAt.localeCompare(a.postedAt) || b.id - a.id;
}

function buildIndex(content: CompiledContent, adsInMemory?: Map<string, CompiledAd[]>): ContentIndex {
  stateAdsCache.clear();
  return {
    content,
    stateByName: new Map(content.states.map((state) => [state.name, state])),
    cityByKey: new Map(content.states.flatMap((state) => state.cities.map((city) => [cityKey(state.name, city.name), city] as const))),
    citiesWithAds: Object.values(content.adCounts).reduce((sum, cities) => sum + Object.keys(cities).length, 0),
    adsInMemory,
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

/** Uses the given content (and ads) instead of the compiled files: for tests. */
export function useContent(content: CompiledContent, ads: readonly CompiledAd[] = []): void {
  const byState = new Map<string, CompiledAd[]>();
  for (const ad of ads) byState.set(ad.state, [...(byState.get(ad.state) ?? []), ad]);
  index = buildIndex(content, byState);
}

/** Reads the compiled content from another folder (the prerenderer's workers). */
export function useCompiledContentDir(dir: string, keepStates = Number.POSITIVE_INFINITY): void {
  process.env.COMPILED_CONTENT_DIR = dir;
  stateAdsCacheLimit = keepStates;
  index = undefined;
  stateAdsCache.clear();
}

/** Every published ad of a state, in the order of its file. */
function readStateAds(state: string): CompiledAd[] {
  const { adsInMemory, content } = contentIndex();
  if (adsInMemory) return adsInMemory.get(state) ?? [];
  if (!content.adCounts[state]) return [];
  const text = readFileSync(stateAdsFile(state), 'utf8');
  return text === '' ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as CompiledAd);
}

function stateAds(state: string): StateAds {
  let ads = stateAdsCache.get(state);
  if (!ads) {
    const byCity = new Map<string, CompiledAd[]>();
    const byId = new Map<number, CompiledAd>();
    for (const ad of readStateAds(state)) {
      byId.set(ad.id, ad);
      const list = byCity.get(ad.city);
      if (list) list.push(ad);
      else byCity.set(ad.city, [ad]);
    }
    for (const list of byCity.values()) list.sort(compareForList);
    ads = { byCity, byId };
    if (stateAdsCache.size >= stateAdsCacheLimit) stateAdsCache.clear();
    stateAdsCache.set(state, ads);
  }
  return ads;
}

export const getSite = () => contentIndex().content.site;
export const getStates = () => contentIndex().content.states;
export const getState = (name: string) => contentIndex().stateByName.get(name);
export const hasCity = (state: string, city: string) => contentIndex().cityByKey.has(cityKey(state, city));
export const getCity = (state: string, city: string) => contentIndex().cityByKey.get(cityKey(state, city));
/** Published ads of a city, in list order. */
export const adsForCity = (state: string, city: string): readonly CompiledAd[] => stateAds(state).byCity.get(city) ?? [];
/** Every published ad of a state (read once, then kept with its indexes). */
export const adsOfState = (state: string): readonly CompiledAd[] => [...stateAds(state).byId.values()];
/** How many published ads a city has, without reading any ad. */
export const adCount = (state: string, city: string): number => contentIndex().content.adCounts[state]?.[city] ?? 0;
/** A published ad of that city, or undefined. */
export function getAd(state: string, city: string, id: number): CompiledAd | undefined {
  const ad = hasCity(state, city) ? stateAds(state).byId.get(id) : undefined;
  return ad?.city === city ? ad : undefined;
}
export const getAdCounts = () => contentIndex().content.adCounts;
/** Signature of each state's ads file (.content/shards.json), which changes with its content. */
export function getStateAdFileSignatures(): Record<string, string> {
  try {
    return JSON.parse(readFileSync(join(compiledContentDir(), 'shards.json'), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}
export const getGuides = () => contentIndex().content.guides;
export const getGuide = (slug: string) => getGuides().find((guide) => guide.slug === slug);
export const getPage = (slug: PageSlug) => contentIndex().content.pages[slug];

/** Counts shown to visitors, computed from the published content. */
export function getCounts() {
  const { content, citiesWithAds, cityByKey } = contentIndex();
  return { activeAds: content.activeAds, citiesWithAds, listedCities: cityByKey.size, states: content.states.length };
}
