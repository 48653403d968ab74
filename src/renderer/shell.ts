// Builds the head and chrome of a page from site settings and, on state, city and ad pages,
// the state's flags (which apply to every page within that state).
import { getSite } from '../../core/content/index.ts';
import type { CompiledState } from '../../core/schemas/compiled-content.ts';
import type { RobotsDirective } from '../../core/schemas/state.ts';
import { NATIONWIDE, type HeadMeta, type PageChrome, type PageShell } from './page-shell.ts';

interface ShellInput {
  title: string;
  description: string;
  /** Site-relative path of the page, already URL-encoded. */
  path: string;
  robots?: RobotsDirective;
  ogType?: HeadMeta['ogType'];
  place?: string;
  /** The state whose flags shape the header and footer. */
  state?: CompiledState;
  /** The page's Atom feed (city pages, searches). */
  feed?: HeadMeta['feed'];
}

export function pageShell(input: ShellInput): PageShell {
  const site = getSite();
  const chrome: PageChrome = {
    brand: site.brand,
    place: input.place ?? NATIONWIDE,
    headerMenu: input.state?.headerMenu ?? 'dropdown',
    footerButton: input.state?.footerButton ?? 'join',
    brandPrefix: input.state?.brandPrefix ?? true,
  };
  const head: HeadMeta = {
    title: input.title,
    description: input.description,
    canonicalUrl: `${site.baseUrl}${input.path}`,
    robots: input.robots ?? 'index, follow',
    ogType: input.ogType ?? 'website',
    ...(input.feed ? { feed: input.feed } : {}),
  };
  return { head, chrome };
}

/** "{title} - {brand}", unless the title already names the brand. */
export function withBrand(title: string): string {
  const { brand } = getSite();
  return title.includes(brand) ? title : `${title} - ${brand}`;
}
