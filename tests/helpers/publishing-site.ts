// For the e2e tests that publish: a copy of the shared build (dist/ and .content/) in a temporary
// folder, served with the real build publisher (server/publishing/build-publisher.ts) and a real
// SQLite file, so that publishing changes nothing other tests read.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createApp } from '../../server/http/app.ts';
import { serveHttp } from '../../server/http/serve-http.ts';
import type { StoreHandle } from '../../store/store.ts';
import { buildPublisher, type BuildPublisher } from '../../server/publishing/build-publisher.ts';
import { getSite, useCompiledContentDir } from '../../core/content/index.ts';
import { GENEROUS_RATE_LIMITS } from '../e2e/rate-limits.ts';
import { launchChromium } from '../e2e/support.ts';
import { testMailer } from './mail.ts';
import { openSqliteTestStore, type TestSql } from './test-store.ts';

const root = join(import.meta.dirname, '..', '..');

export interface PublishingSite {
  url: string;
  /** The server's store (moderators are made through it, as the operator's command does). */
  store: StoreHandle;
  /** Rows of the server's store read and written directly (test-store.ts). */
  sql: TestSql;
  publisher: BuildPublisher;
  /** Where its mail is written. */
  outboxDir: string;
  /** Waits for the publishing under way, stops the server and removes the folder. */
  close(): Promise<void>;
}

export interface PublishingSiteOptions {
  /** Names the temporary folder. */
  label: string;
  /** The day the publisher builds for; today (UTC) unless told. */
  buildDate?: () => string;
  /** Proxy hops the server trusts (X-Forwarded-For names the client); none unless told. */
  trustProxy?: number;
  /**
   * What the file's tests need on the site from the start (live member ads written through the
   * store): written before the start-up publish, which publishes it with the rest, rather than a
   * publish of its own each (a publish is a build of a few seconds).
   */
  beforePublish?: (site: PublishingSite) => Promise<void>;
}

/**
 * Chromium, then the site (its `beforePublish` may use the browser), for the file's tests: started
 * before them (within `timeout` ms), closed after. The object is filled in by `beforeAll`: read it
 * inside hooks and tests only.
 */
export function chromiumAndPublishingSite(
  options: PublishingSiteOptions,
  timeout = 180_000,
): { browser: Browser; site: PublishingSite } {
  const started = {} as { browser: Browser; site: PublishingSite };
  beforeAll(async () => {
    started.browser = await launchChromium();
    started.site = await startPublishingSite(options);
  }, timeout);
  afterAll(async () => {
    await started.browser?.close();
    await started.site?.close();
  });
  return started;
}

/** Starts the site and publishes it once, as the daily publish does at start-up. */
export async function startPublishingSite(options: PublishingSiteOptions): Promise<PublishingSite> {
  const today = new Date().toISOString().slice(0, 10);
  const work = mkdtempSync(join(tmpdir(), `localboard-${options.label}-`));
  cpSync(join(root, 'dist'), join(work, 'out'), { recursive: true });
  cpSync(join(root, '.content'), join(work, 'compiled'), { recursive: true });
  // The build's steps in {out}/server import the project's dependencies.
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'));
  useCompiledContentDir(join(work, 'compiled'));
  const { store, sql } = openSqliteTestStore(join(work, 'localboard.sqlite'));
  const publisher = buildPublisher({
    outDir: join(work, 'out'),
    database: { path: join(work, 'localboard.sqlite') },
    contentDir: join(root, 'content'),
    compiledContentDir: join(work, 'compiled'),
    buildDate: options.buildDate ?? (() => today),
    log: () => {},
  });
  const outboxDir = join(work, 'outbox');
  let url = '';
  const app = createApp({
    siteDir: join(work, 'out', 'site'),
    pageAssetsFile: join(work, 'out', 'server', 'page-assets.json'),
    store,
    mailer: testMailer(outboxDir),
    // The mails link to this server, as PUBLIC_BASE_URL makes them do in production.
    mailSite: () => ({ brand: getSite().brand, baseUrl: url }),
    rateLimits: GENEROUS_RATE_LIMITS,
    publisher,
    trustProxy: options.trustProxy,
    log: false,
  });
  const server = await new Promise<Server>((resolve) => {
    const started = serveHttp(app.fetch, { port: 0, hostname: '127.0.0.1' }, () =>
      resolve(started),
    );
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const site: PublishingSite = {
    url,
    store,
    sql,
    publisher,
    outboxDir,
    close: async () => {
      await publisher.idle();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would hold the server open: end them now.
        server.closeAllConnections();
      });
      await store.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
  try {
    await options.beforePublish?.(site);
    // The copied site was built for the e2e date: published for today first.
    expect(await publisher.publish('start-up')).toEqual({ ok: true });
  } catch (error) {
    await site.close();
    throw error;
  }
  return site;
}
