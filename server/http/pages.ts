// Pages rendered on request (docs/product.md section 3): the page registry's folders without
// +prerenderUrls.ts, rendered with the same components, layout and assets as the prerendered
// pages, on each request, and never cached; and a prerendered page when its request needs more
// than the file (/signin?next=…). What the server reads for a page (the member's ads, the queue)
// is declared once, in server/http/page-reads/{page folder}.ts (server/http/page-read.ts), found
// here by name as the registry finds the page's files; it is read once a request, only
// for whom the page is, with what createApp lends every read (PageReadDeps), and handed to the
// page as `request.read`. A members-only page sends anyone signed out to /signin?next=… and
// back; a page for moderators is, to anyone else, the not-found screen of a page that does not
// exist. Refused forms come back through here too (server/http/forms/refusal.ts).
import { readFileSync, statSync } from 'node:fs';
import type { Next } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { NO_ASSETS, type PageAssets } from '../../src/renderer/assets.ts';
import { renderPageHtml } from '../../src/renderer/renderPageHtml.tsx';
import { pages, type PageEntry } from '../../src/pages/registry.ts';
import type { FormFill } from '../../core/views/form-fill.ts';
import type { PageRequest } from '../../src/pages/request.ts';
import { signinThenPath } from '../../core/paths.ts';
import type { RouteParams } from '../../core/route.ts';
import type { AppContext, Member, PageTarget } from './app-env.ts';
import type { Audience, PageRead, PageReadDeps, PageReading, PageStatus } from './page-read.ts';

// Whom a read is for, and the statuses a page answers with (server/http/page-read.ts).
export type { Audience, PageStatus } from './page-read.ts';

/** Every page's server read (server/http/page-reads/<page folder>.ts), by its file's name. */
const readFiles = import.meta.glob<PageRead>('./page-reads/*.ts', {
  eager: true,
  import: 'read',
});

/** The reads of the registry's pages, by folder; a read without a page folder is a bug. */
function readsByFolder(): ReadonlyMap<string, PageRead> {
  const reads = new Map<string, PageRead>();
  for (const [file, read] of Object.entries(readFiles)) {
    const id = file.split('/').at(-1)!.replace(/\.ts$/, '');
    if (!pages.some((page) => page.id === id))
      throw new Error(`server/http/page-reads/${id}.ts names no page folder (src/pages/${id}/)`);
    reads.set(id, read);
  }
  return reads;
}

export interface OnRequestPagesOptions {
  /** The stylesheets and scripts every page links to. */
  pageAssets: () => PageAssets;
  /** What the pages' reads need from the server (the store, the search index, the clock…). */
  deps: PageReadDeps;
}

interface AnswerOptions {
  form?: FormFill;
  /**
   * The page's view, set by the answer itself (an emailed link's state after its form posted):
   * the page's own read is then not run.
   */
  view?: unknown;
  status?: PageStatus;
}

export function onRequestPages(options: OnRequestPagesOptions) {
  const reads = readsByFolder();

  const onRequest = (page: PageEntry, query: Readonly<Record<string, string>>) =>
    !page.prerenderUrls || (reads.get(page.id)?.onRequestWhen?.(query) ?? false);

  function find(path: string, query: Readonly<Record<string, string>>) {
    for (const page of pages) {
      const params = page.route.match(path);
      if (params && onRequest(page, query)) return { page, params: params as RouteParams };
    }
    return undefined;
  }

  /** The page's view and status, as its read gives them, or the Response that answers instead. */
  async function readFor(
    c: AppContext,
    page: PageEntry,
    params: RouteParams,
    member: Member | undefined,
    form: FormFill | undefined,
  ): Promise<PageReading<unknown> | Response> {
    const read = reads.get(page.id);
    if (!read?.read || !mayRead(read.for, member)) return {};
    // mayRead: a read for members or moderators always has its member.
    return read.read({ c, member: member!, params, ...(form ? { form } : {}) }, options.deps);
  }

  /** The page's answer, or `hidden` for a moderators' page asked for by anyone else. */
  async function answer(
    c: AppContext,
    page: PageEntry,
    params: RouteParams,
    target: PageTarget | undefined,
    { form, view, status }: AnswerOptions,
  ): Promise<Response | 'hidden'> {
    const member = await c.var.member();
    const reading = view === undefined ? await readFor(c, page, params, member, form) : { view };
    if (reading instanceof Response) return reading;
    const request: PageRequest = {
      query: c.req.query(),
      ...(member ? { member: signedInMember(member) } : {}),
      ...(reading.view === undefined ? {} : { read: reading.view }),
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
    return c.html(html, (status ?? reading.status ?? 200) as ContentfulStatusCode);
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
