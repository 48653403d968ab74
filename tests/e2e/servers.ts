// A server of the production build with its own temporary database: the one every e2e test uses,
// and others for tests that stop theirs on purpose.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../server/http/app.ts';
import { serveHttp } from '../../server/http/serve-http.ts';
import { openSqliteStore } from '../../store/open-store.ts';
import { getSite } from '../../core/content/index.ts';
import { testMailer } from '../helpers/mail.ts';
import { TEST_PASSWORD_HASH_COST } from '../helpers/password-cost.ts';
import { GENEROUS_RATE_LIMITS } from './rate-limits.ts';

export interface RunningServer {
  url: string;
  /** Where its mail is written. */
  outboxDir: string;
  /** Its SQLite file (tests may open it: WAL lets several processes share it). */
  databasePath: string;
  stop(): Promise<void>;
}

export async function startSiteServer(siteDir: string): Promise<RunningServer> {
  // A cheaper password hash keeps the many test sign-ups quick; production uses the default.
  process.env.PASSWORD_HASH_COST ??= String(TEST_PASSWORD_HASH_COST);
  const dataDir = mkdtempSync(join(tmpdir(), 'localboard-e2e-own-'));
  const databasePath = join(dataDir, 'test.sqlite');
  const store = openSqliteStore(databasePath);
  const outboxDir = join(dataDir, 'outbox');
  let url = '';
  const mailer = testMailer(outboxDir);
  const app = createApp({
    siteDir,
    store,
    mailer,
    // The mails link to this server, as PUBLIC_BASE_URL makes them do in production.
    mailSite: () => ({ brand: getSite().brand, baseUrl: url }),
    rateLimits: GENEROUS_RATE_LIMITS,
    log: false,
  });
  const server = await new Promise<Server>((resolve) => {
    const started = serveHttp(app.fetch, { port: 0, hostname: '127.0.0.1' }, () =>
      resolve(started),
    );
  });
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;
  let stopped = false;
  return {
    url,
    outboxDir,
    databasePath,
    stop: () =>
      new Promise<void>((resolve) => {
        if (stopped) return resolve();
        stopped = true;
        server.close(() => {
          void store.close().then(() => {
            rmSync(dataDir, { recursive: true, force: true });
            resolve();
          });
        });
        // Keep-alive connections would hold the server open: end them now.
        server.closeAllConnections();
      }),
  };
}
