// The shape of the compiled content that the build writes and the site reads: .content/content.json
// (everything but the ads), .content/ads/{State Name}.ndjson (that state's published ads, one JSON
// object a line, city by city, each city's in list order) and .content/ads/index.json (where each
// city's ads are in its state's file). Produced only by the content compiler from validated files.
import type { AdRow } from './ad.ts';
import type { GuideFrontMatter } from './guide.ts';
import type { PageFrontMatter, PageSlug } from './page.ts';
import type { PublishedPhoto } from './photos.ts';
import type { AdVerification } from './verification.ts';
import type { PolicyTerms } from '../policy/terms.ts';
import type { ScamSignals } from '../policy/scam-signals.ts';
import type { SiteSettings } from './site.ts';
import type { StateFrontMatter } from './state.ts';
import type { TransparencyReport } from './transparency.ts';

export interface CompiledCity {
  name: string;
  population: number;
  /** Degrees north and east (core/schemas/city.ts): nearby cities and distances. */
  latitude: number;
  longitude: number;
}

export interface CompiledState extends StateFrontMatter {
  /** The state's guide, sanitised HTML. */
  guideHtml: string;
  /** Cities, most populous first. */
  cities: CompiledCity[];
}

/**
 * A published ad: valid, its city exists, live on the build date. A member's ad with photos has
 * `photos` (absent otherwise: the compiled line of an ad without stays as short as it was); an
 * editor's has its CSV `images` instead.
 */
export type CompiledAd = AdRow & {
  /** A member ad's approved photos, in order, their alt texts as shown (core/schemas/photos.ts). */
  photos?: PublishedPhoto[];
  /** A verified member's ad: how many of its photos the verification covers (verification.ts). */
  verification?: AdVerification;
};

/** Published ads per city: state name → city name → count (cities without ads are absent). */
export type AdCounts = Record<string, Record<string, number>>;

export interface CompiledGuide extends GuideFrontMatter {
  html: string;
}

export interface CompiledPage extends PageFrontMatter {
  html: string;
}

export interface CompiledContent {
  /** The day the content was published for, YYYY-MM-DD: ads live on that day are included. */
  buildDate: string;
  site: SiteSettings;
  /** All 50 states, alphabetical. */
  states: CompiledState[];
  /** Guides in their `order`. */
  guides: CompiledGuide[];
  pages: Record<PageSlug, CompiledPage>;
  adCounts: AdCounts;
  /** Published ads in all. The ads themselves are in one file a state: see core/content/. */
  activeAds: number;
  /** The policy terms of content/policy/, for the scan of members' ads on the server. */
  policyTerms: PolicyTerms;
  /** The scam signals of content/policy/scam-signals.txt, for messages and members' ads. */
  scamSignals: ScamSignals;
  /** The moderation counts /transparency shows, from the database (absent: none was read). */
  transparency?: TransparencyReport;
}

/** Where one city's published ads are in its state's ads file, and a digest that changes with them. */
export interface CityAdsEntry {
  /** Byte offset of the city's first line. */
  offset: number;
  /** Bytes of its lines, the last newline included. */
  bytes: number;
  /** How many ads (lines). */
  ads: number;
  /** Hash of the city's lines: equal digests, equal ads. */
  digest: string;
}

/** .content/ads/index.json: state name → what its ads file is made of, and its cities' entries. */
export type AdsIndex = Record<string, { pieces: string; cities: Record<string, CityAdsEntry> }>;
