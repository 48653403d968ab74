// `npm run dev`: Vike renders the prerendered pages as it always has, and the Hono app
// (server/http/app.ts, through server/dev/dev-app.ts) answers the rest as the server does: the API and
// the pages rendered on request, with sessions, on a development database (DATABASE_PATH, default
// data/dev.sqlite) and the mail outbox (MAIL_OUTBOX_DIR, default data/outbox/). An approved ad
// compiles the content again (dev-publisher.ts).
//
// The app is loaded with server.ssrLoadModule, as Vike loads the pages: one module graph, so an
// edited page or server module is used from the next request on, and Vike's own hotUpdate (its
// pluginWorkaroundVite6HmrRegression) reloads the open page for any module only the server runs.
import { getRequestListener } from '@hono/node-server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Plugin, ViteDevServer } from 'vite';
import type { PageAssets } from '../../src/renderer/assets.ts';
import type * as Content from '../../core/content/index.ts';
import type * as AppRequests from './app-requests.ts';
import type * as DevAppModule from './dev-app.ts';
import { devDatabasePath, devOutboxDir } from './dev-data.ts';
import { devPublisher } from './dev-publisher.ts';

const DEV_APP = '/server/dev/dev-app.ts';
const APP_REQUESTS = '/server/dev/app-requests.ts';
const CONTENT = '/core/content/index.ts';

export function devServerApp(): Plugin {
  return {
    name: 'localboard:dev-server-app',
    apply: 'serve',
    configureServer(server) {
      const app = devAppLoader(server);
      const listener = getRequestListener((request, env) => app.current!.fetch(request, env), {
        overrideGlobalObjects: false,
      });
      server.middlewares.use((req, res, next) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        server
          .ssrLoadModule(APP_REQUESTS)
          .then(
            (requests) => (requests as typeof AppRequests).answeredByApp(req.method ?? 'GET', url),
            // A page being edited into shape: Vike shows why, and Vite's own files still load.
            () => false,
          )
          .then(async (answered) => {
            if (!answered) return next();
            await app.load();
            await listener(req, res);
          })
          .catch(next);
      });
      server.httpServer?.once('close', () => void app.close());
    },
  };
}

type DevApp = ReturnType<typeof DevAppModule.devApp>;

/**
 * The dev app, made again whenever Vite loads a new dev-app.ts (an edit to it or to any module
 * it imports); the database, the outbox and the publisher stay.
 */
function devAppLoader(server: ViteDevServer) {
  const root = server.config.root;
  const databasePath = devDatabasePath(root);
  const outboxDir = devOutboxDir(root);
  const outDir = mkdtempSync(join(tmpdir(), 'localboard-dev-'));
  const log = (line: string) => server.config.logger.info(line, { timestamp: true });
  const publisher = devPublisher({
    root,
    databasePath,
    compiledContentDir: process.env.COMPILED_CONTENT_DIR ?? join(root, '.content'),
    // The content module caches what it read (in the one instance Vike's rendering shares).
    published: async () => {
      const content = (await server.ssrLoadModule(CONTENT)) as typeof Content;
      content.useCompiledContentDir(content.compiledContentDir());
    },
    log,
  });
  // Mails link to the dev server (known once it listens) unless PUBLIC_BASE_URL says otherwise.
  const baseUrl = () =>
    (process.env.PUBLIC_BASE_URL ?? server.resolvedUrls?.local[0] ?? '').replace(/\/+$/, '');
  let resources: DevAppModule.DevResources | undefined;
  let assets: PageAssets | undefined;
  let loaded: { module: typeof DevAppModule; app: DevApp } | undefined;
  const loader = {
    current: undefined as DevApp | undefined,
    async load(): Promise<DevApp> {
      const module = (await server.ssrLoadModule(DEV_APP)) as typeof DevAppModule;
      if (loaded?.module !== module) {
        resources ??= module.devResources(databasePath, outboxDir);
        const app = module.devApp({
          ...resources,
          publisher,
          siteDir: join(outDir, 'site'),
          assets: (assets ??= await devPageAssets()),
          baseUrl,
        });
        loaded = { module, app };
      }
      loader.current = loaded.app;
      return loaded.app;
    },
    async close() {
      rmSync(outDir, { recursive: true, force: true });
      await resources?.store
        .close()
        .catch((error: unknown) =>
          server.config.logger.error(`Closing the dev database: ${(error as Error).message}`),
        );
    },
  };
  return loader;
}

/**
 * The stylesheets and scripts Vike's dev rendering links to (Vite's client, the site's stylesheet
 * and the client entry, as Vite serves them). Vike writes its scripts as one inline module, which
 * the server's Content-Security-Policy refuses, so the pages link each as a file of its own.
 */
async function devPageAssets(): Promise<PageAssets> {
  const { renderPage } = await import('vike/server');
  const { httpResponse } = await renderPage({ urlOriginal: '/about' });
  if (httpResponse?.statusCode !== 200)
    throw new Error(`Vike could not render /about (status ${httpResponse?.statusCode})`);
  const html = httpResponse.body;
  return {
    stylesheets: [...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map(
      (match) => match[1]!,
    ),
    scripts: [
      ...[...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]!),
      ...[...html.matchAll(/\bimport\("([^"]+)"\)/g)].map((match) => match[1]!),
    ],
  };
}
