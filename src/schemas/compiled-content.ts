// The shape of the compiled content (.content/content.json) that the build writes and the site
// reads. It is produced only by scripts/compile-content.ts from validated files.
import type { AdRow } from './ad.ts';
import type { GuideFrontMatter } from './guide.ts';
import type { PageFrontMatter, PageSlug } from './page.ts';
import type { SiteSettings } from './site.ts';
import type { StateFrontMatter } from './state.ts';

export interface CompiledCity {
  name: string;
  population: number;
}

export interface CompiledState extends StateFrontMatter {
  /** The state's guide, sanitised HTML. */
  guideHtml: string;
  /** Cities, most populous first. */
  cities: CompiledCity[];
}

/** A published ad: valid, its city exists, live on the build date. */
export type CompiledAd = AdRow;

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
  /** Published ads, in id order. */
  ads: CompiledAd[];
  /** Guides in their `order`. */
  guides: CompiledGuide[];
  pages: Record<PageSlug, CompiledPage>;
}
