// Pages rendered on request (docs/product.md section 3): the page registry's folders without
// +prerenderUrls.ts, rendered with the same components, layout and assets as the prerendered
// pages, on each request, and never cached; and a prerendered page when its request needs more
// than the file (/signin?next=…). What the server reads for a page (the member's ads, the queue)
// is declared once, beside the routes that own that data, as a page source keyed by the page's
// route in src/paths.ts; it is read once a request, and only for whom the page is. A members-only
// page sends anyone signed out to /signin?next=… and back; a page for moderators is, to anyone
// else, the not-found screen of a page that does not exist. Refused forms come back through here
// too (server/forms/refusal.ts).
import { readFileSync, statSync } from 'node:fs';
import type { Next } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { NO_ASSETS, type PageAssets } from '../renderer/assets.ts';
import { renderPageHtml } from '../renderer/renderPageHtml.tsx';
import { pages, type PageEntry } from '../src/pages/registry.ts';
import type { FormFill, PageRequest } from '../src/pages/request.ts';
import { signinThenPath } from '../src/paths.ts';
import type { Route, RouteParams } from '../src/route.ts';
import type { AppContext, Member, PageTarget } from './app-env.ts';
import type { RefusalStatus } from './forms/refusal.ts';

export type PageStatus = 200 | RefusalStatus;

/** What the server reads for a page besides the query and the member. */
export type PageExtras = Pick<
  PageRequest,
  'link' | 'memberAds' | 'moderation' | 'messages' | 'report' | 'reports' | 'search' | 'unsubscribe'
>;

/** A page source's reading: the page's extras, and its status when it is not 200. */
export interface PageRead extends PageExtras {
  status?: PageStatus;
}

/** Whom a page source reads for. */
export type Audience = 'anyone' | 'members' | 'moderators';

export interface PageReadInput<Params, For extends Audience = Audience> {
  /** Always there for a source read for members or moderators. */
  member: For extends 'anyone' ? Member | undefined : Member;
  params: Params;
  /** A refused form of this page, shown again: what was typed says what the form was about. */
  form?: FormFill;
}

/** What the server reads for one page of the registry, declared once. */
export interface PageSource<
  Params extends Partial<RouteParams> = Partial<RouteParams>,
  For extends Audience = Audience,
> {
  /** The page's route (src/paths.ts `routes`): the page this source is for. */
  route: Route<Params>;
  /** Whom `read` is for: it runs only for them (a signed-in member; a moderator). */
  for: For;
  /** A prerendered page is rendered on request, instead of served as its file, when this holds. */
  onRequestWhen?: (query: Readonly<Record<string, string>>) => boolean;
  /** What the page needs from the database; a Response (a redirect) answers instead of the page. */
  read?: (
    c: AppContext,
    input: PageReadInput<Params, For>,
  ) => Promise<PageRead | Response> | PageRead | Response;
}

/** Declares a page source, its `read` typed by its route's parameters and its audience. */
export const pageSource = <Params extends Partial<RouteParams>, For extends Audience>(
  source: PageSource<Params, For>,
) => source as unknown as PageSource;

export interface OnRequestPagesOptions {
  /** The stylesheets and scripts every page links to. */
  pageAssets: () => PageAssets;
  sources: readonly PageSource[];
}

interface AnswerOptions {
  form?: FormFill;
  /** What the answer sets itself (an emailed link's state after its form posted). */
  extras?: PageExtras;
  status?: PageStatus;
}

export function onRequestPages(options: OnRequestPagesOptions) {
  const sources = new Map<Route<Partial<RouteParams>>, PageSource>();
  for (const source of options.sources) {
    const label = source.route.patterns.join(', ');
    if (!pages.some((page) => page.route === source.route))
      throw new Error(`No folder of src/pages/ has the route ${label}`);
    if (sources.has(source.route)) throw new Error(`Two page sources for ${label}`);
    sources.set(source.route, source);
  }

  const onRequest = (page: PageEntry, query: Readonly<Record<string, string>>) =>
    !page.prerenderUrls || (sources.get(page.route)?.onRequestWhen?.(query) ?? false);

  function find(path: string, query: Readonly<Record<string, string>>) {
    for (const page of pages) {
      const params = page.route.match(path);
      if (params && onRequest(page, query)) return { page, params: params as RouteParams };
    }
    return undefined;
  }

  /** The page's answer, or `hidden` for a moderators' page asked for by anyone else. */
  async function answer(
    c: AppContext,
    page: PageEntry,
    params: RouteParams,
    target: PageTarget | undefined,
    { form, extras, status }: AnswerOptions,
  ): Promise<Response | 'hidden'> {
    const member = await c.var.member();
    const source = sources.get(page.route);
    let read: PageRead = {};
    if (source?.read && mayRead(source.for, member)) {
      // mayRead: a source read for members or moderators always has its member.
      const input = { member: member!, params, ...(form ? { form } : {}) };
      const result = await source.read(c, input);
      if (result instanceof Response) return result;
      read = result;
    }
    const { status: readStatus, ...readExtras } = read;
    const request: PageRequest = {
      query: c.req.query(),
      ...(member ? { member: signedInMember(member) } : {}),
      ...readExtras,
      ...extras,
      ...(form ? { form } : {}),
    };
    // A form's answer (a POST to the API) is about the form's page, not the API's path.
    const pagePath = target?.url ?? page.route.path(params);
    const urlPathname = c.req.method === 'GET' ? c.req.path : pagePath.split('?')[0]!;
    const data = page.data({ routeParams: params, urlPathname, request });
    if (data.access === 'moderators' && member?.role !== 'moderator') return 'hidden';
    c.header('Cache-Control', 'no-store');
    if (data.access === 'members' && !member) {
      const url = new URL(c.req.url);
      const back = c.req.method === 'GET' ? `${url.pathname}${url.search}` : pagePath;
      return c.redirect(signinThenPath(back), 303);
    }
    const html = renderPageHtml(page.Page, data, options.pageAssets());
    return c.html(html, (status ?? readStatus ?? 200) as ContentfulStatusCode);
  }

  return {
    /**
     * GET of any path: the page rendered on request that has this path, or, for none (or for a
     * page this visitor may not know of), on to what answers paths that are not such pages.
     */
    async serve(c: AppContext, next: Next) {
      const found = find(c.req.path, c.req.query());
      if (found) {
        const response = await answer(c, found.page, found.params, undefined, {});
        if (response !== 'hidden') return response;
      }
      await next();
      return c.res;
    },
    /**
     * One page of the registry, answering a form post: the refused form again, or what its action
     * did. Undefined for a page this visitor may not know of.
     */
    async render(
      c: AppContext,
      target: PageTarget,
      answerOptions: AnswerOptions = {},
    ): Promise<Response | undefined> {
      const page = pages.find((entry) => entry.route === target.route);
      if (!page) throw new Error(`No folder of src/pages/ has ${target.route.patterns.join(', ')}`);
      const response = await answer(c, page, target.params ?? {}, target, answerOptions);
      return response === 'hidden' ? undefined : response;
    },
  };
}

export type OnRequestPages = ReturnType<typeof onRequestPages>;

function mayRead(audience: Audience, member: Member | undefined): boolean {
  if (audience === 'anyone') return true;
  return audience === 'members' ? member !== undefined : member?.role === 'moderator';
}

function signedInMember(member: Member): NonNullable<PageRequest['member']> {
  const { email, emailVerified, role, dateOfBirth } = member;
  return { email, emailVerified, role, dateOfBirth };
}

/**
 * The stylesheets and scripts as the prerender step wrote them ({out}/server/page-assets.json),
 * read again whenever a build replaces the file.
 */
export function pageAssetsFromFile(file: string): () => PageAssets {
  let cached: { mtimeMs: number; assets: PageAssets } | undefined;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      // No build beside the server (the API's own tests): pages without stylesheet or script.
      return NO_ASSETS;
    }
    if (cached?.mtimeMs !== mtimeMs)
      cached = { mtimeMs, assets: JSON.parse(readFileSync(file, 'utf8')) as PageAssets };
    return cached.assets;
  };
}
