// For the moderation end-to-end tests: a server of the production build (like the shared one of
// tests/e2e/servers.ts) whose database the test holds, to make moderators as the operator's
// command does and to insert member ads, and whose publisher records what it was asked.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../server/http/app.ts';
import { serveHttp } from '../../server/http/serve-http.ts';
import { createPusher, type Pusher } from '../../server/push/pusher.ts';
import type { WebPushSettings } from '../../server/push/web-push-settings.ts';
import type { StoreHandle } from '../../store/store.ts';
import { getSite } from '../../core/content/index.ts';
import { GENEROUS_LIMITS } from './api.ts';
import { testMailer } from './mail.ts';
import { recordingPublisher } from './moderation.ts';
import { openSqliteTestStore, type TestSql } from './test-store.ts';

export interface ModerationServer {
  url: string;
  /** The server's store (moderators are made through it, as the operator's command does). */
  store: StoreHandle;
  /** Its rows, read and written directly. */
  sql: TestSql;
  outboxDir: string;
  /** What the server asked to publish, in order. */
  published: string[];
  /** Its Web Push, when the test gave it settings (webPush). */
  pusher?: Pusher;
  stop(): Promise<void>;
}

export async function startModerationServer(
  siteDir: string,
  /** The app's explicit threshold, when a test sets it low (issue 31); Web Push's settings. */
  {
    photoExplicitThreshold,
    webPush,
  }: { photoExplicitThreshold?: number; webPush?: WebPushSettings } = {},
): Promise<ModerationServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'localboard-e2e-moderation-'));
  const { store, sql } = openSqliteTestStore(join(dataDir, 'test.sqlite'));
  const outboxDir = join(dataDir, 'outbox');
  const publisher = recordingPublisher();
  let url = '';
  const mailSite = () => ({ brand: getSite().brand, baseUrl: url });
  const pusher =
    webPush && createPusher({ store, settings: webPush, site: mailSite, now: () => new Date() });
  const app = createApp({
    siteDir,
    store,
    mailer: testMailer(outboxDir),
    mailSite,
    rateLimits: GENEROUS_LIMITS,
    publisher,
    log: false,
    ...(pusher ? { pusher } : {}),
    ...(photoExplicitThreshold === undefined ? {} : { photoExplicitThreshold }),
  });
  const server = await new Promise<Server>((resolve) => {
    const started = serveHttp(app.fetch, { port: 0, hostname: '127.0.0.1' }, () =>
      resolve(started),
    );
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    store,
    sql,
    outboxDir,
    published: publisher.reasons,
    ...(pusher ? { pusher } : {}),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(async () => {
          await pusher?.settled();
          void store.close().then(() => {
            rmSync(dataDir, { recursive: true, force: true });
            resolve();
          });
        });
        server.closeAllConnections();
      }),
  };
}
