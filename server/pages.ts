// Pages rendered on request (product.md section 3): the page registry's folders without
// +prerenderUrls.ts, rendered with the same components, layout and assets as the prerendered
// pages, on each request, with what the request tells their data hook (src/pages/request.ts), and
// never cached. A members-only page sends anyone signed out to /signin?next=… and back; a page for
// moderators is, to anyone else, the not-found screen of a page that does not exist.
import { readFileSync, statSync } from 'node:fs';
import type { Context, Next } from 'hono';
import { NO_ASSETS, type PageAssets } from '../renderer/assets.ts';
import { renderPageHtml } from '../renderer/renderPageHtml.tsx';
import { notFoundData } from '../src/pages/_error/errorPageData.ts';
import { ErrorPage, pages, type PageEntry } from '../src/pages/registry.ts';
import type { PageRequest, SignedInMember } from '../src/pages/request.ts';
import { signinThenPath } from '../src/paths.ts';
import type { RouteParams } from '../src/route.ts';
import { hashToken, sessionTokenOf } from './auth/session-cookie.ts';
import type { Db } from './db/database.ts';
import { sessionStore, type SessionAccount } from './db/sessions.ts';

export interface OnRequestPagesOptions {
  db: Db;
  /**
   * The stylesheets and scripts every page links to, as the prerender step wrote them
   * ({out}/server/page-assets.json); read again whenever a build replaces the file.
   */
  pageAssetsFile: string;
  /**
   * What the database holds for a page, by folder name (the moderation pages' queue and log),
   * read only once the visitor may see the page.
   */
  pageExtras?: Readonly<Record<string, PageExtrasReader>>;
}

export type OnRequestPageId =
  'verify' | 'account' | 'forgot' | 'reset' | 'post' | 'moderate' | 'report' | 'moderate-reports';

/** What the server adds to a page's request besides the query and the member. */
export type RequestExtras = Pick<
  PageRequest,
  'form' | 'link' | 'memberAds' | 'moderation' | 'messages' | 'report' | 'reports' | 'search'
>;

export type PageExtrasReader = (c: Context, member: SessionAccount) => RequestExtras;

export function onRequestPages(options: OnRequestPagesOptions) {
  const onRequest = pages.filter((page) => !page.prerenderUrls);
  const sessions = sessionStore(options.db);
  const assets = pageAssetsReader(options.pageAssetsFile);

  function memberOf(c: Context): (SignedInMember & SessionAccount) | undefined {
    const token = sessionTokenOf(c);
    return token ? sessions.findValid(hashToken(token), new Date().toISOString()) : undefined;
  }

  function find(path: string): { page: PageEntry; params: RouteParams } | undefined {
    for (const page of onRequest) {
      const params = page.route.match(path);
      if (params) return { page, params: params as RouteParams };
    }
    return undefined;
  }

  /**
   * The page's answer: its HTML (no-store), the way to sign in for a members-only page, or
   * `hidden` for a moderators' page asked for by anyone else.
   */
  function pageAnswer(
    c: Context,
    page: PageEntry,
    params: RouteParams,
    extras: RequestExtras,
    status: PageStatus,
  ): Response | 'hidden' {
    const member = memberOf(c);
    const request: PageRequest = {
      query: c.req.query(),
      ...(member
        ? {
            member: {
              email: member.email,
              emailVerified: member.emailVerified,
              role: member.role,
              dateOfBirth: member.dateOfBirth,
            },
          }
        : {}),
      ...extras,
    };
    const context = { routeParams: params, urlPathname: c.req.path };
    let data = page.data({ ...context, request });
    if (data.access === 'moderators' && member?.role !== 'moderator') return 'hidden';
    c.header('Cache-Control', 'no-store');
    if (data.access === 'members' && !member) {
      const url = new URL(c.req.url);
      return c.redirect(signinThenPath(`${url.pathname}${url.search}`), 303);
    }
    const reader = options.pageExtras?.[page.id];
    if (reader && member)
      data = page.data({ ...context, request: { ...request, ...reader(c, member), ...extras } });
    return c.html(renderPageHtml(page.Page, data, assets()), status);
  }

  /** The page's answer; a hidden page answers as the not-found screen. */
  function answer(
    c: Context,
    page: PageEntry,
    params: RouteParams,
    extras: RequestExtras = {},
    status: PageStatus = 200,
  ): Response {
    const response = pageAnswer(c, page, params, extras, status);
    if (response !== 'hidden') return response;
    c.header('Cache-Control', 'no-cache');
    return c.html(renderPageHtml(ErrorPage, notFoundData('page'), assets()), 404);
  }

  return {
    memberOf,
    find,
    /**
     * A request for one of the pages: its answer, or, for a page this visitor may not know of,
     * on to whatever answers paths that are not pages (the site's own not-found screen).
     */
    async serve(c: Context, page: PageEntry, params: RouteParams, next: Next) {
      const response = pageAnswer(c, page, params, {}, 200);
      if (response !== 'hidden') return response;
      await next();
      return c.res;
    },
    /** Renders one of the on-request pages by its folder name (form answers, refusals). */
    render(
      c: Context,
      id: OnRequestPageId,
      extras?: RequestExtras,
      status?: Parameters<typeof answer>[4],
    ): Response {
      const page = onRequest.find((entry) => entry.id === id);
      if (!page) throw new Error(`src/pages/${id}/ is not a page rendered on request`);
      return answer(c, page, {}, extras, status);
    },
    answer,
  };
}

export type OnRequestPages = ReturnType<typeof onRequestPages>;

type PageStatus = 200 | 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 429 | 503;

function pageAssetsReader(file: string): () => PageAssets {
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
