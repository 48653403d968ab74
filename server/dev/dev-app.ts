// The Hono app as the dev server (`npm run dev`) runs it, through Vite's SSR loader
// (server/dev/vite-plugin.ts): the page registry it renders from is read with import.meta.glob,
// and an edited server or page module is then used from the next request on.
//
// createApp reads a few files of the build it serves ({out}): the sign-in and sign-up forms it
// answers a refused post with ({out}/site/signin/index.html), the not-found screen of a page a
// visitor may not see ({out}/site/404.html) and the assets its pages link to
// ({out}/server/page-assets.json). The dev server has no build, so it writes them into a folder of
// its own: the pages rendered as the prerenderer renders them, linking Vite's assets.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PageAssets } from '../../renderer/assets.ts';
import { renderPageHtml } from '../../renderer/renderPageHtml.tsx';
import { getSite } from '../../src/content/index.ts';
import { notFoundData } from '../../src/pages/_error/errorPageData.ts';
import { ErrorPage, pages } from '../../src/pages/registry.ts';
import { NOT_FOUND_FILES } from '../../src/paths.ts';
import { createApp } from '../app.ts';
import { openDatabase, type Db } from '../db/database.ts';
import { createMailer, type Mailer } from '../mail/mailer.ts';
import type { Publisher } from '../publishing/publisher.ts';

export interface DevResources {
  db: Db;
  mailer: Mailer;
}

/** Opened once per dev server and kept while its modules are edited. */
export function devResources(databasePath: string, outboxDir: string): DevResources {
  return {
    db: openDatabase(databasePath),
    // Never SMTP: sign-ups made while developing must not mail anyone.
    mailer: createMailer({ outboxDir, from: `"${getSite().brand}" <no-reply@localhost>` }),
  };
}

export interface DevAppSettings extends DevResources {
  publisher: Publisher;
  /** The dev server's stand-in for a build's output folder (see above). */
  outDir: string;
  /** The scripts and stylesheet Vite serves, as Vike links them. */
  assets: PageAssets;
  /** Where mails link to: the dev server, or PUBLIC_BASE_URL. */
  baseUrl: () => string;
}

export function devApp(settings: DevAppSettings) {
  const siteDir = join(settings.outDir, 'site');
  const pageAssetsFile = join(settings.outDir, 'server', 'page-assets.json');
  mkdirSync(join(settings.outDir, 'server'), { recursive: true });
  writeFileSync(pageAssetsFile, JSON.stringify(settings.assets));
  for (const id of ['signin', 'signup']) {
    const page = pages.find((entry) => entry.id === id)!;
    const data = page.data({ routeParams: {}, urlPathname: page.route.path({}) });
    mkdirSync(join(siteDir, id), { recursive: true });
    writeFileSync(
      join(siteDir, id, 'index.html'),
      renderPageHtml(page.Page, data, settings.assets),
    );
  }
  const notFound = renderPageHtml(ErrorPage, notFoundData('page'), settings.assets);
  writeFileSync(join(siteDir, NOT_FOUND_FILES.page), notFound);
  return createApp({
    siteDir,
    pageAssetsFile,
    db: settings.db,
    mailer: settings.mailer,
    publisher: settings.publisher,
    mailSite: () => ({ brand: getSite().brand, baseUrl: settings.baseUrl() }),
  });
}
