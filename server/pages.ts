// Pages rendered on request (product.md section 3): the page registry's folders without
// +prerenderUrls.ts, rendered with the same components, layout and assets as the prerendered
// pages, on each request, with what the request tells their data hook (src/pages/request.ts), and
// never cached. A members-only page sends anyone signed out to /signin?next=… and back.
import { readFileSync, statSync } from 'node:fs';
import type { Context } from 'hono';
import { NO_ASSETS, type PageAssets } from '../renderer/assets.ts';
import { renderPageHtml } from '../renderer/renderPageHtml.tsx';
import { pages, type PageEntry } from '../src/pages/registry.ts';
import type { PageRequest, SignedInMember } from '../src/pages/request.ts';
import { signinThenPath } from '../src/paths.ts';
import type { RouteParams } from '../src/route.ts';
import { hashToken, sessionTokenOf } from './auth/session-cookie.ts';
import type { Db } from './db/database.ts';
import { sessionStore } from './db/sessions.ts';

export interface OnRequestPagesOptions {
  db: Db;
  /**
   * The stylesheets and scripts every page links to, as the prerender step wrote them
   * ({out}/server/page-assets.json); read again whenever a build replaces the file.
   */
  pageAssetsFile: string;
}

export type OnRequestPageId = 'verify' | 'account' | 'forgot' | 'reset' | 'post';

/** What the server adds to a page's request besides the query and the member. */
export type RequestExtras = Pick<PageRequest, 'form' | 'link' | 'memberAds'>;

export function onRequestPages(options: OnRequestPagesOptions) {
  const onRequest = pages.filter((page) => !page.prerenderUrls);
  const sessions = sessionStore(options.db);
  const assets = pageAssetsReader(options.pageAssetsFile);

  function memberOf(c: Context): (SignedInMember & { accountId: number }) | undefined {
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

  /** The page's answer: its HTML (no-store), or the way to sign in for a members-only page. */
  function answer(
    c: Context,
    page: PageEntry,
    params: RouteParams,
    extras: RequestExtras = {},
    status: 200 | 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 429 | 503 = 200,
  ): Response {
    const member = memberOf(c);
    const request: PageRequest = {
      query: c.req.query(),
      ...(member
        ? {
            member: {
              email: member.email,
              emailVerified: member.emailVerified,
              dateOfBirth: member.dateOfBirth,
            },
          }
        : {}),
      ...extras,
    };
    const data = page.data({ routeParams: params, urlPathname: c.req.path, request });
    c.header('Cache-Control', 'no-store');
    if (data.access === 'members' && !member) {
      const url = new URL(c.req.url);
      return c.redirect(signinThenPath(`${url.pathname}${url.search}`), 303);
    }
    return c.html(renderPageHtml(page.Page, data, assets()), status);
  }

  return {
    memberOf,
    find,
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
