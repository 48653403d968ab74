// The page registry: every folder of src/pages/, read from the files Vike itself routes the dev
// server with (+route.ts, +data.ts, +Page.tsx) and the pages it prerenders (+prerenderUrls.ts).
// The prerenderer reads it, and so does the server for the pages it renders on request (a folder
// without +prerenderUrls.ts: member pages, emailed links; docs/product.md sections 6–9; server/http/pages.ts);
// adding a page means adding a folder. It lists the folders with Vite's import.meta.glob, so it
// runs where Vite builds or serves the code: the build's steps and the server (entries of Vite's
// server build, pipeline/build-steps.ts), the dev server, Vitest.
//
// Pages rendered on request get `request` in their data context (src/pages/request.ts): the
// signed-in member, the query, a refused form's message and values, and what the server read for
// the page (`request.read`: server/http/page-reads/{folder}.ts, which server/http/pages.ts finds
// by the folder's name; this registry never loads it, so pages never load the server).
// A page whose data says `access: 'members'` (src/renderer/page-shell.ts) is only rendered for a
// signed-in member; anyone else is sent to /signin?next=… and back. Its data hook still copes
// without a request (prerendering).
import type { ComponentType } from 'react';
import type { PageShell } from '../renderer/page-shell.ts';
import type { Route, RouteParams, VikeRouteFunction } from '../../core/route.ts';
import type { PrerenderUrls } from './prerender-groups.ts';
import type { PageRequest } from './request.ts';

/**
 * What a +data.ts hook is called with (a subset of Vike's pageContext). `Read`: the page's own view
 * type, what its server read gives (`request.read`).
 */
export interface DataContext<Read = unknown> {
  routeParams: RouteParams;
  urlPathname: string;
  /** Only for pages the server renders on request; absent when prerendering. */
  request?: PageRequest<Read>;
}

export interface PageEntry {
  /** The folder's name: `city` for src/pages/city/. */
  id: string;
  route: Route<Partial<RouteParams>>;
  data: (pageContext: DataContext) => PageShell;
  Page: ComponentType;
  /** Absent for pages rendered only on request. */
  prerenderUrls?: PrerenderUrls;
}

const routeFiles = import.meta.glob<VikeRouteFunction>('./*/+route.ts', {
  eager: true,
  import: 'default',
});
const dataFiles = import.meta.glob<PageEntry['data']>('./*/+data.ts', {
  eager: true,
  import: 'data',
});
const pageFiles = import.meta.glob<ComponentType>('./*/+Page.tsx', {
  eager: true,
  import: 'default',
});
const prerenderFiles = import.meta.glob<PrerenderUrls>('./*/+prerenderUrls.ts', {
  eager: true,
  import: 'prerenderUrls',
});

const folderOf = (file: string) => file.split('/')[1]!;
const inFolder = <T>(files: Record<string, T>, folder: string, name: string) =>
  files[`./${folder}/${name}`];

/** Every routed page (the error page has no route), in folder order. */
export const pages: readonly PageEntry[] = Object.keys(routeFiles)
  .map(folderOf)
  .sort()
  .map((id) => {
    const route = inFolder(routeFiles, id, '+route.ts')!.route;
    const data = inFolder(dataFiles, id, '+data.ts');
    const Page = inFolder(pageFiles, id, '+Page.tsx');
    if (!data || !Page) throw new Error(`src/pages/${id}/ needs a +data.ts and a +Page.tsx`);
    const prerenderUrls = inFolder(prerenderFiles, id, '+prerenderUrls.ts');
    return { id, route, data, Page, ...(prerenderUrls ? { prerenderUrls } : {}) };
  });

/** The error page (src/pages/_error/): the not-found screens and unexpected failures. */
export const ErrorPage = inFolder(pageFiles, '_error', '+Page.tsx')!;
