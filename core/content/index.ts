// Typed access to the compiled content: .content/content.json (read once per process) and the
// published ads: one file a state (.content/ads/{State Name}.ndjson), grouped by city, with an
// index of where each city's lines are (.content/ads/index.json). A page reads only its city's
// ads, when it first needs them. Lookups are indexes built once, so data hooks never re-parse files.
import { readFileSync } from 'node:fs';
import { readFileRange } from './read-range.ts';
import { idOfLine } from './ad-lines.ts';
import type { CityAds } from './city-ads.ts';
import { cityAdsInWindows } from './city-ads-in-windows.ts';
import { join } from 'node:path';
import type {
  AdsIndex,
  CityAdsEntry,
  CompiledAd,
  CompiledCity,
  CompiledContent,
  CompiledState,
} from '../schemas/compiled-content.ts';
import type { PageSlug } from '../schemas/page.ts';
import { NO_DATABASE_REPORT } from '../schemas/transparency.ts';
import { compareForList } from './ad-order.ts';

export type {
  CompiledAd,
  CompiledCity,
  CompiledContent,
  CompiledGuide,
  CompiledState,
} from '../schemas/compiled-content.ts';

export const compiledContentDir = () =>
  process.env.COMPILED_CONTENT_DIR ?? join(process.cwd(), '.content');
export const compiledContentFile = (dir = compiledContentDir()) => join(dir, 'content.json');
export const stateAdsFile = (state: string, dir = compiledContentDir()) =>
  join(dir, 'ads', `${state}.ndjson`);
export const adsIndexFile = (dir = compiledContentDir()) => join(dir, 'ads', 'index.json');

interface ContentIndex {
  content: CompiledContent;
  stateByName: Map<string, CompiledState>;
  cityByKey: Map<string, CompiledCity>;
  citiesWithAds: number;
  /** Where each city's ads are; empty when the ads are in memory. */
  adsIndex: AdsIndex;
  /** In tests: every ad, by city, in list order, instead of the files. */
  adsInMemory?: Map<string, CompiledAd[]>;
  /** The same ads by id, made when first asked for. */
  adsInMemoryById?: Map<number, CompiledAd>;
}

/**
 * How a city's ads are read: whole (a server, whose files a publish may replace while it reads
 * them) or a window of lines at a time (the prerenderer: useCompiledContentDir).
 */
let readInWindows = false;

let index: ContentIndex | undefined;
/**
 * Cities whose ads were read, most recent last. Pages come city by city, so a few are kept, up to
 * about KEPT_ADS ads in all: a city of 20,000 ads is kept alone, so the biggest cities never sit
 * in memory together.
 */
const cityAdsCache = new Map<string, CityAds>();
const KEPT_ADS = 2_000;
let keptAds = 0;

const cityKey = (state: string, city: string) => `${state}\u0000${city}`;

function buildIndex(
  content: CompiledContent,
  adsIndex: AdsIndex,
  adsInMemory?: Map<string, CompiledAd[]>,
): ContentIndex {
  cityAdsCache.clear();
  keptAds = 0;
  return {
    content,
    stateByName: new Map(content.states.map((state) => [state.name, state])),
    cityByKey: new Map(
      content.states.flatMap((state) =>
        state.cities.map((city) => [cityKey(state.name, city.name), city] as const),
      ),
    ),
    citiesWithAds: Object.values(content.adCounts).reduce(
      (sum, cities) => sum + Object.keys(cities).length,
      0,
    ),
    adsIndex,
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
      throw new Error(
        `Compiled content not found at ${file}. Run \`npm run build\` (or \`npm run compile:content\`) first.`,
      );
    }
    const content = JSON.parse(text) as CompiledContent;
    const adsIndex =
      content.activeAds > 0 ? (JSON.parse(readFileSync(adsIndexFile(), 'utf8')) as AdsIndex) : {};
    index = buildIndex(content, adsIndex);
  }
  return index;
}

/** Uses the given content (and ads) instead of the compiled files: for tests. */
export function useContent(content: CompiledContent, ads: readonly CompiledAd[] = []): void {
  const byCity = new Map<string, CompiledAd[]>();
  for (const ad of ads) {
    const key = cityKey(ad.state, ad.city);
    byCity.set(key, [...(byCity.get(key) ?? []), ad]);
  }
  for (const list of byCity.values()) list.sort(compareForList);
  index = buildIndex(content, {}, byCity);
}

/**
 * In tests (useContent): the published ad with this id, or null when none has it. Undefined when
 * the ads are in the compiled files, where core/content/ad-by-id.ts finds them.
 */
export function adInMemory(id: number): CompiledAd | null | undefined {
  const current = contentIndex();
  if (!current.adsInMemory) return undefined;
  current.adsInMemoryById ??= new Map(
    [...current.adsInMemory.values()].flat().map((ad) => [ad.id, ad]),
  );
  return current.adsInMemoryById.get(id) ?? null;
}

/**
 * Reads the compiled content from another folder (the prerenderer's threads). `inWindows`: a
 * city's ads are read a window of lines at a time (city-ads-in-windows.ts), for a process that
 * renders city after city and in which nothing replaces the files while they are read (the
 * build's and the publisher's pages step).
 */
export function useCompiledContentDir(dir: string, { inWindows = false } = {}): void {
  process.env.COMPILED_CONTENT_DIR = dir;
  readInWindows = inWindows;
  index = undefined;
  cityAdsCache.clear();
  keptAds = 0;
}

/** Where a city's ads are in its state's file (and their digest), if it has any. */
export const cityAdsEntry = (state: string, city: string): CityAdsEntry | undefined =>
  contentIndex().adsIndex[state]?.cities[city];

const NO_ADS: CityAds = { count: 0, at: () => noAdAt(), ids: () => [] };

function noAdAt(): never {
  throw new Error('No ad at that position');
}

function readCityAds(state: string, city: string, retried = false): CityAds {
  const { adsInMemory } = contentIndex();
  if (adsInMemory) {
    const list = adsInMemory.get(cityKey(state, city)) ?? [];
    return { count: list.length, at: (index) => list[index]!, ids: () => list.map((ad) => ad.id) };
  }
  const entry = cityAdsEntry(state, city);
  if (!entry) return NO_ADS;
  if (readInWindows) return cityAdsInWindows(stateAdsFile(state), entry);
  const text = readCityLines(stateAdsFile(state), entry);
  if (text === undefined) {
    // A publish replaced the state files under this process (the server takes the new index only
    // once the publish is done): take the index on disk and read again. While that is not written
    // yet either, the city reads as empty for now, never as another version's bytes.
    if (retried) return NO_ADS;
    index = undefined;
    return hasCity(state, city) ? readCityAds(state, city, true) : NO_ADS;
  }
  const lines = text.trimEnd().split('\n');
  return {
    count: lines.length,
    at: (index) => JSON.parse(lines[index]!) as CompiledAd,
    // The compiler writes each ad's id first: `{"id":1297,...`.
    ids: () => lines.map((line) => idOfLine(line)),
  };
}

/**
 * A city's lines where the index says they are, or undefined when the file no longer holds them
 * there (gone, shorter, or not whole lines: `{"id":` only ever starts a line, as JSON escapes the
 * quotes inside strings).
 */
function readCityLines(file: string, entry: CityAdsEntry): string | undefined {
  const buffer = readFileRange(file, entry.offset, entry.bytes);
  if (!buffer) return undefined;
  const text = buffer.toString('utf8');
  return text.startsWith('{"id":') && text.endsWith('\n') ? text : undefined;
}

export const getSite = () => contentIndex().content.site;
export const getStates = () => contentIndex().content.states;
export const getState = (name: string) => contentIndex().stateByName.get(name);
export const hasCity = (state: string, city: string) =>
  contentIndex().cityByKey.has(cityKey(state, city));
export const getCity = (state: string, city: string) =>
  contentIndex().cityByKey.get(cityKey(state, city));
function cityAds(state: string, city: string) {
  const key = cityKey(state, city);
  let ads = cityAdsCache.get(key);
  if (ads) {
    cityAdsCache.delete(key);
  } else {
    ads = hasCity(state, city) ? readCityAds(state, city) : NO_ADS;
    keptAds += ads.count;
    for (const [oldest, old] of cityAdsCache) {
      if (keptAds <= KEPT_ADS) break;
      cityAdsCache.delete(oldest);
      keptAds -= old.count;
    }
  }
  cityAdsCache.set(key, ads);
  return ads;
}
/** Published ads of a city from position `start` to before `end` of its list (a page of it). */
export function adsForCity(state: string, city: string, start = 0, end = Infinity): CompiledAd[] {
  const ads = cityAds(state, city);
  const page: CompiledAd[] = [];
  for (let index = Math.max(0, start); index < Math.min(end, ads.count); index += 1)
    page.push(ads.at(index));
  return page;
}
/** The ids of a city's published ads, in list order, without parsing the ads. */
export const adIdsForCity = (state: string, city: string): readonly number[] =>
  cityAds(state, city).ids();
/** How many published ads a city has, without reading any ad. */
export const adCount = (state: string, city: string): number =>
  contentIndex().content.adCounts[state]?.[city] ?? 0;
/** A published ad of that city, or undefined. */
export function getAd(state: string, city: string, id: number): CompiledAd | undefined {
  const ads = cityAds(state, city);
  ads.positions ??= new Map(ads.ids().map((adId, index) => [adId, index]));
  const index = ads.positions.get(id);
  return index === undefined ? undefined : ads.at(index);
}
export const getAdCounts = () => contentIndex().content.adCounts;
export const getGuides = () => contentIndex().content.guides;
export const getGuide = (slug: string) => getGuides().find((guide) => guide.slug === slug);
export const getPage = (slug: PageSlug) => contentIndex().content.pages[slug];
/** The policy terms the build compiled (content/policy/): pass them to scanAd() from core/policy/. */
export const getPolicyTerms = () => contentIndex().content.policyTerms;
/** The scam signals the build compiled: pass them to judgeMessage() or findScamSignals(). */
export const getScamSignals = () => contentIndex().content.scamSignals;

/** The moderation counts /transparency shows (zeros when the build read no database). */
export const getTransparency = () => contentIndex().content.transparency ?? NO_DATABASE_REPORT;

/** Counts shown to visitors, computed from the published content. */
export function getCounts() {
  const { content, citiesWithAds, cityByKey } = contentIndex();
  return {
    activeAds: content.activeAds,
    citiesWithAds,
    listedCities: cityByKey.size,
    states: content.states.length,
  };
}
