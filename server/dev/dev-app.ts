// The Hono app as the dev server (`npm run dev`) runs it, through Vite's SSR loader
// (server/dev/vite-plugin.ts): the page registry it renders from is read with import.meta.glob,
// and an edited server or page module is then used from the next request on.
//
// Its pages link Vite's assets. The one file of a build it reads is the not-found screen, of a page a
// visitor may not see ({site}/404.html): the dev server has no build, so it writes that file into
// a folder of its own, rendered as the prerenderer renders it. A city's Atom feed and the
// transparency report's CSV, files of a build too, it makes on request from the same functions
// the build writes them with.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PageAssets } from '../../src/renderer/assets.ts';
import { renderPageHtml } from '../../src/renderer/renderPageHtml.tsx';
import { getSite, hasCity } from '../../core/content/index.ts';
import { cityFeedText } from '../../core/feeds/city-feed-text.ts';
import { transparencyCsv } from '../../core/transparency/transparency-csv.ts';
import { notFoundData } from '../../src/pages/_error/errorPageData.ts';
import { ErrorPage } from '../../src/pages/registry.ts';
import { NOT_FOUND_FILES, routes } from '../../core/paths.ts';
import { ATOM_TYPE } from '../http/static-site.ts';
import { createApp } from '../http/app.ts';
import { openSqliteStore } from '../../store/open-store.ts';
import type { StoreHandle } from '../../store/store.ts';
import { createMailer, type Mailer } from '../mail/mailer.ts';
import type { Publisher } from '../publishing/publisher.ts';

export interface DevResources {
  store: StoreHandle;
  mailer: Mailer;
}

/** Opened once per dev server and kept while its modules are edited. */
export function devResources(databasePath: string, outboxDir: string): DevResources {
  return {
    store: openSqliteStore(databasePath),
    // Never SMTP: sign-ups made while developing must not mail anyone.
    mailer: createMailer({ outboxDir, from: `"${getSite().brand}" <no-reply@localhost>` }),
  };
}

export interface DevAppSettings extends DevResources {
  publisher: Publisher;
  /** The dev server's stand-in for a build's site folder (see above). */
  siteDir: string;
  /** The scripts and stylesheet Vite serves, as Vike links them. */
  assets: PageAssets;
  /** Where mails link to: the dev server, or PUBLIC_BASE_URL. */
  baseUrl: () => string;
}

export function devApp(settings: DevAppSettings) {
  const { siteDir } = settings;
  mkdirSync(siteDir, { recursive: true });
  const notFound = renderPageHtml(ErrorPage, notFoundData('page'), settings.assets);
  writeFileSync(join(siteDir, NOT_FOUND_FILES.page), notFound);
  const app = createApp({
    siteDir,
    pageAssets: () => settings.assets,
    store: settings.store,
    mailer: settings.mailer,
    publisher: settings.publisher,
    mailSite: () => ({ brand: getSite().brand, baseUrl: settings.baseUrl() }),
  });
  return {
    fetch(request: Request, env?: unknown): Response | Promise<Response> {
      const path = new URL(request.url).pathname;
      const feed = routes.cityFeed.match(path);
      if (feed && request.method === 'GET' && hasCity(feed.stateName, feed.cityName))
        return new Response(cityFeedText(feed.stateName, feed.cityName), {
          headers: { 'Content-Type': ATOM_TYPE, 'Cache-Control': 'no-cache' },
        });
      if (routes.transparencyCsv.match(path) && request.method === 'GET')
        return new Response(transparencyCsv(), {
          headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Cache-Control': 'no-cache' },
        });
      return app.fetch(request, env);
    },
  };
}
