// GET /healthz and GET /readyz (server/operations/endpoints.ts): what a load balancer or an
// orchestrator asks before sending an instance traffic, and whether to restart it. /readyz/search:
// tests/integration/search/search-readiness.test.ts.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ORIGIN, testAppsForEachTest, type TestApp } from '../../helpers/api.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

const apps = testAppsForEachTest();

const appWith = apps.open;

/**
 * Closes the app's database under it. After the clean-up createApp starts (accounts' removal of
 * expired sessions), which would otherwise run on a closed database: queries on one connection
 * run in turn.
 */
async function closeDatabase(t: TestApp): Promise<void> {
  await storedRow(t, 'SELECT 1');
  await t.close();
}

async function get(t: TestApp, path: string) {
  const response = await t.app.request(`${ORIGIN}${path}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('GET /healthz', () => {
  it('answers 200 with a tiny body, never cached', async () => {
    const t = await appWith();
    const answer = await get(t, '/healthz');
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('ok\n');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('answers 200 while the database is gone: the process is alive', async () => {
    const t = await appWith();
    await closeDatabase(t);
    expect((await get(t, '/healthz')).status).toBe(200);
  });

  it('answers HEAD too', async () => {
    const t = await appWith();
    const response = await t.app.request(`${ORIGIN}/healthz`, { method: 'HEAD' });
    expect(response.status).toBe(200);
  });
});

describe('GET /readyz', () => {
  it('answers 200 when the database answers and the site is built', async () => {
    const t = await appWith();
    const answer = await get(t, '/readyz');
    expect(answer).toMatchObject({ status: 200, text: 'ready\n' });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 with the reason while the site has no index.html', async () => {
    const t = await appWith();
    rmSync(join(t.siteDir, 'index.html'));
    const answer = await get(t, '/readyz');
    expect(answer).toMatchObject({ status: 503, text: 'not ready: the site is not built yet\n' });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it("answers 503 with the server's reason while it gives one (the first publish), 200 after", async () => {
    let building = true;
    const t = await appWith({
      readiness: () => (building ? 'the site is being built' : undefined),
    });
    expect(await get(t, '/readyz')).toMatchObject({
      status: 503,
      text: 'not ready: the site is being built\n',
    });
    building = false;
    expect((await get(t, '/readyz')).status).toBe(200);
  });

  it('answers 503 when the database does not answer', async () => {
    const t = await appWith();
    await closeDatabase(t);
    expect(await get(t, '/readyz')).toMatchObject({
      status: 503,
      text: 'not ready: the database does not answer\n',
    });
  });
});

describe('with the site in a bucket (SITE_BUCKET)', () => {
  it("is ready on the server's word alone: the pages are not in its folder", async () => {
    let released = false;
    const t = await appWith({
      siteInBucket: true,
      readiness: () => (released ? undefined : "waiting for the publisher's first release"),
    });
    rmSync(join(t.siteDir, 'index.html'));
    expect((await get(t, '/readyz')).status).toBe(503);
    released = true;
    expect(await get(t, '/readyz')).toMatchObject({ status: 200, text: 'ready\n' });
  });
});
