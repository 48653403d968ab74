// PostgreSQL going away while the server runs (docs/product.md section 12): what needs the
// database (the API, members' pages) answers 503 with a message and Retry-After; the prerendered
// site keeps serving; /healthz stays 200 and /readyz says why it is not ready; and when PostgreSQL
// is back (the same address), the instance serves members again by itself, without a restart.
// A cluster of this file's own, stopped and started again here (scripts/postgres.mjs), so the
// suite's shared cluster is never interrupted. PostgreSQL suite only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/http/app.ts';
import { hashToken, newSessionToken } from '../../../server/auth/session-cookie.ts';
import {
  DATABASE_UNAVAILABLE,
  UNAVAILABLE_RETRY_AFTER,
} from '../../../server/http/middleware/database-unavailable.ts';
import { openStore } from '../../../store/open-store.ts';
import { openPostgresEngine } from '../../../store/postgres-engine.ts';
import { storeOn, type StoreHandle } from '../../../store/store.ts';
import {
  cookieHeader,
  FORM_TYPE,
  GENEROUS_LIMITS,
  ORIGIN,
  writeTestSite,
} from '../../helpers/api.ts';
import { TEST_MAIL_SITE, testMailer } from '../../helpers/mail.ts';
import { withFixtureContent } from '../../helpers/pages.ts';
import { onPostgres } from '../../helpers/test-store.ts';
// @ts-expect-error: a plain JavaScript module of the scripts, without types.
import { ensurePostgres, startThrowawayPostgres } from '../../../scripts/postgres.mjs';
import { accountInStore } from '../../helpers/store-accounts.ts';
import { accountPath, meApiPath, signoutApiPath } from '../../../core/paths.ts';

interface Cluster {
  url: string;
  stop(): void;
  stopServer(): void;
  startServer(): void;
}

// Members' pages read the compiled content.
withFixtureContent();

const TOKEN = 'outage-metrics-token';

describe.runIf(onPostgres())('PostgreSQL stopped while the server runs, then started again', () => {
  let dir: string;
  let cluster: Cluster;
  let store: StoreHandle;
  let app: ReturnType<typeof createApp>;
  const session = newSessionToken();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'localboard-outage-'));
    writeTestSite(join(dir, 'site'));
    const found = ensurePostgres() as { binDir?: string; problem?: string };
    if (!found.binDir) throw new Error(found.problem);
    cluster = (await startThrowawayPostgres(found.binDir, { maxConnections: 20 })) as Cluster;
    store = await openStore({ url: cluster.url }, { poolSize: 4, log: () => {} });
    app = createApp({
      siteDir: join(dir, 'site'),
      store,
      mailer: testMailer(join(dir, 'outbox')),
      mailSite: TEST_MAIL_SITE,
      rateLimits: GENEROUS_LIMITS,
      log: false,
      metricsToken: TOKEN,
    });
    // A member and their session, written as another instance would have.
    const admin = await openPostgresEngine(cluster.url, { readOnly: true, poolSize: 1 });
    try {
      const other = storeOn(admin);
      const now = new Date().toISOString();
      const accountId = await accountInStore(other, 'outage@example.com', {
        at: now,
        verified: false,
      });
      await other.sessions.create(hashToken(session), accountId, now, '2099-01-01T00:00:00.000Z');
      // The throwaway cluster commits asynchronously (synchronous_commit=off: nothing in it is
      // meant to outlive a run), and an immediate stop is a crash: written to disk now, what was
      // committed outlives the stop, as it would on a PostgreSQL that commits durably.
      await sql`CHECKPOINT`.execute(admin.db);
    } finally {
      await admin.close();
    }
  });

  afterAll(async () => {
    await store?.close();
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    Promise.resolve(app.request(`${ORIGIN}${path}`, { headers }));
  const me = () => get(meApiPath(), cookieHeader(session));
  const scrape = async () => (await get('/metrics', { authorization: `Bearer ${TOKEN}` })).text();

  it('before: the member is signed in, the instance ready, the pool in the metrics', async () => {
    const answer = await me();
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ email: 'outage@example.com' });
    expect((await get('/readyz')).status).toBe(200);
    const metrics = await scrape();
    expect(metrics).toContain('localboard_database_connections{state="max"} 4');
    expect(metrics).toMatch(/^localboard_database_connections\{state="idle"\} [1-4]$/m);
    expect(metrics).toContain('localboard_database_waiting_queries 0');
  });

  it('while PostgreSQL is down: the API answers 503 with the message and Retry-After', async () => {
    cluster.stopServer();
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await me();
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER));
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(await answer.json()).toEqual({ error: DATABASE_UNAVAILABLE });
    }
  });

  it('while PostgreSQL is down: a browser posting a form gets a page saying so', async () => {
    const answer = await app.request(`${ORIGIN}${signoutApiPath()}`, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, ...cookieHeader(session) },
      body: '',
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER));
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await answer.text()).toContain(DATABASE_UNAVAILABLE);
  });

  it("while PostgreSQL is down: a member's page says so, 503", async () => {
    const answer = await get(accountPath(), cookieHeader(session));
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER));
    expect(await answer.text()).toContain(DATABASE_UNAVAILABLE);
  });

  it('while PostgreSQL is down: the prerendered pages are served, signed in or not', async () => {
    expect((await get('/')).status).toBe(200);
    const signedIn = await get('/', cookieHeader(session));
    expect(signedIn.status).toBe(200);
    expect(await signedIn.text()).toContain('<h1>Localboard</h1>');
  });

  it('while PostgreSQL is down: alive (/healthz), not ready (/readyz), metrics still read', async () => {
    expect((await get('/healthz')).status).toBe(200);
    const ready = await get('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.text()).toBe('not ready: the database does not answer\n');
    expect(await scrape()).toContain('localboard_http_requests_total{kind="api",status="503"}');
  });

  it('once PostgreSQL is back: members are served again, without restarting the server', async () => {
    cluster.startServer();
    const answer = await me();
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ email: 'outage@example.com' });
    expect((await get('/readyz')).status).toBe(200);
  });
});
