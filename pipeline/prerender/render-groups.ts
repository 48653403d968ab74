// The prerenderer's work list, from the page registry: every page folder's +prerenderUrls.ts
// groups, merged by key (a city's list pages and its ads' pages are one group), in sitemap order.
// Every thread lists them the same way from the same compiled content.
import { pages, type PageEntry } from '../../src/pages/registry.ts';
import type { GroupFile, PrerenderGroup } from '../../src/pages/prerender-groups.ts';
import type { RouteParams } from '../../core/route.ts';

export interface RenderGroup {
  key: string;
  order: readonly string[];
  inputs: string;
  weight: number;
  /** Each folder's part of the group, in folder order. */
  parts: Array<{ page: PageEntry; pages: PrerenderGroup['pages'] }>;
  /** Each folder's files that are not pages (a city's feed). */
  files: Array<() => Iterable<GroupFile>>;
}

/** One page of a group: its folder, URL and route parameters. */
export interface GroupPage {
  page: PageEntry;
  path: string;
  routeParams: RouteParams;
}

export function listRenderGroups(): RenderGroup[] {
  const byKey = new Map<string, RenderGroup>();
  for (const page of pages) {
    for (const group of page.prerenderUrls?.() ?? []) {
      const merged = byKey.get(group.key);
      if (!merged) {
        const { key, order, inputs, weight } = group;
        byKey.set(key, {
          key,
          order,
          inputs,
          weight,
          parts: [{ page, pages: group.pages }],
          files: group.files ? [group.files] : [],
        });
        continue;
      }
      if (merged.inputs !== group.inputs) {
        throw new Error(
          `src/pages/${page.id}/+prerenderUrls.ts: group ${group.key} has other inputs than ` +
            `${merged.parts.map((part) => `src/pages/${part.page.id}`).join(', ')} gives it`,
        );
      }
      merged.weight += group.weight;
      merged.parts.push({ page, pages: group.pages });
      if (group.files) merged.files.push(group.files);
    }
  }
  return [...byKey.values()].sort((a, b) => compareOrder(a.order, b.order));
}

/** The pages of a group, URLs built from each folder's route. */
export function* pagesOfGroup(group: RenderGroup): Iterable<GroupPage> {
  for (const part of group.parts) {
    for (const routeParams of part.pages()) {
      yield { page: part.page, path: part.page.route.path(routeParams), routeParams };
    }
  }
}

/** The files of a group that are not pages. */
export function* filesOfGroup(group: RenderGroup): Iterable<GroupFile> {
  for (const files of group.files) yield* files();
}

/** Shorter first (site-wide, then a state, then its cities), then name by name. */
function compareOrder(a: readonly string[], b: readonly string[]): number {
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const byName = a[index]! < b[index]! ? -1 : a[index]! > b[index]! ? 1 : 0;
    if (byName !== 0) return byName;
  }
  return a.length - b.length;
}
