// GET /metrics (server/operations/): Prometheus' text format, answered to a client on this machine
// that reaches the server directly, or to anyone bearing METRICS_TOKEN; to anyone else, the same
// 404 as an unknown path. A proxy on the same machine connects from 127.0.0.1 for anyone on the
// internet, so a forwarded request is never taken as local, whatever its header says.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppMetrics } from '../../../server/operations/metrics.ts';
import {
  cookieHeader,
  ORIGIN,
  postJson,
  signupBody,
  sessionTokenOf,
  type TestApp,
  testAppsForEachTest,
} from '../../helpers/api.ts';
import { withFixtureContent } from '../../helpers/pages.ts';
import { accountPath, meApiPath, signupApiPath } from '../../../core/paths.ts';

// Pages rendered on request read the compiled content.
withFixtureContent();

const TOKEN = 'a-long-random-metrics-token';

const apps = testAppsForEachTest();

const appWith = apps.open;
const serve = (t: TestApp) => apps.serve(t.app);

/** The scrape of the app's /metrics, asked with the token. */
const scrape = async (t: TestApp) =>
  (
    await t.app.request(`${ORIGIN}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).text();

/** The value of one sample of the scrape (`name{labels}`), or undefined when it is not there. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((each) => each.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('who may read /metrics', () => {
  it('a client on this machine, over a real socket: 200, in Prometheus text format', async () => {
    const server = await serve(await appWith());
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text).toContain('# TYPE localboard_http_requests_total counter');
    // The process' own, too.
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('a request forwarded by a proxy on this machine: the 404 of an unknown path', async () => {
    const t = await appWith();
    const server = await serve(t);
    const forwardings: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
    ];
    for (const header of forwardings) {
      const response = await fetch(`${server.url}/metrics`, { headers: header });
      expect(response.status, JSON.stringify(header)).toBe(404);
      expect(await response.text()).toContain('Page Not Found');
    }
  });

  it('any request when the peer is a trusted proxy (TRUST_PROXY), even one saying it is local', async () => {
    const server = await serve(await appWith({ trustProxy: 1 }));
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    const spoofed = await fetch(`${server.url}/metrics`, {
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(spoofed.status).toBe(404);
  });

  it('from elsewhere (no socket of this machine): only with the token, compared in full', async () => {
    const t = await appWith({ metricsToken: TOKEN });
    const scrape = (headers: Record<string, string> = {}) =>
      t.app.request(`${ORIGIN}/metrics`, { headers });
    expect((await scrape()).status).toBe(404);
    expect((await scrape({ authorization: `Bearer ${TOKEN}x` })).status).toBe(404);
    expect((await scrape({ authorization: `Bearer ${TOKEN.slice(0, -1)}` })).status).toBe(404);
    expect((await scrape({ authorization: TOKEN })).status).toBe(404);
    expect((await scrape({ 'x-forwarded-for': '127.0.0.1' })).status).toBe(404);
    const allowed = await scrape({ authorization: `Bearer ${TOKEN}` });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain('localboard_http_requests_total');
  });

  it('without a token set, no bearer opens it', async () => {
    const t = await appWith();
    const response = await t.app.request(`${ORIGIN}/metrics`, {
      headers: { authorization: 'Bearer ' },
    });
    expect(response.status).toBe(404);
  });
});

describe('what /metrics counts', () => {
  it('requests by kind of page and status, with latency, never by path', async () => {
    const t = await appWith({ metricsToken: TOKEN });
    mkdirSync(join(t.siteDir, 'assets'));
    writeFileSync(join(t.siteDir, 'assets', 'app-1234.js'), 'console.log(1);\n');
    const get = (path: string, headers: Record<string, string> = {}) =>
      t.app.request(`${ORIGIN}${path}`, { headers });

    expect((await get('/')).status).toBe(200);
    expect((await get('/')).status).toBe(200);
    expect((await get('/no-such-page')).status).toBe(404);
    expect((await get('/assets/app-1234.js')).status).toBe(200);
    // A members' page rendered on request, for someone signed out: on to sign in.
    expect((await get(accountPath())).status).toBe(303);
    const signup = await postJson(t.app, signupApiPath(), signupBody());
    expect(signup.status).toBe(201);
    const me = await get(meApiPath(), cookieHeader(sessionTokenOf(signup)));
    expect(me.status).toBe(200);
    expect((await get(meApiPath())).status).toBe(401);
    // The operations endpoints are not counted.
    await get('/healthz');
    await get('/readyz');

    const text = await (await get('/metrics', { authorization: `Bearer ${TOKEN}` })).text();
    const requests = (labels: string) => sample(text, `localboard_http_requests_total{${labels}}`);
    expect(requests('kind="static_page",status="200"')).toBe(2);
    expect(requests('kind="static_page",status="404"')).toBe(1);
    expect(requests('kind="asset",status="200"')).toBe(1);
    expect(requests('kind="on_request_page",status="303"')).toBe(1);
    expect(requests('kind="api",status="201"')).toBe(1);
    expect(requests('kind="api",status="200"')).toBe(1);
    expect(requests('kind="api",status="401"')).toBe(1);
    const counted = text
      .split('\n')
      .filter((line) => line.startsWith('localboard_http_requests_total{'));
    expect(counted).toHaveLength(7);
    expect(sample(text, 'localboard_http_request_duration_seconds_count{kind="api"}')).toBe(3);
    expect(sample(text, 'localboard_http_request_duration_seconds_count{kind="static_page"}')).toBe(
      3,
    );
    expect(text).not.toContain('/assets/');
    expect(text).not.toContain(meApiPath());
  });

  it('publishes and their duration, as the publisher reports them', async () => {
    const metrics = createAppMetrics();
    const t = await appWith({ metrics, metricsToken: TOKEN });
    metrics.recordPublish(1.5, true);
    metrics.recordPublish(0.4, false);
    metrics.recordPublish(2.5, true);
    const text = await scrape(t);
    expect(sample(text, 'localboard_publishes_total{outcome="ok"}')).toBe(2);
    expect(sample(text, 'localboard_publishes_total{outcome="failed"}')).toBe(1);
    expect(sample(text, 'localboard_publish_duration_seconds_count')).toBe(3);
    expect(sample(text, 'localboard_publish_duration_seconds_sum')).toBeCloseTo(4.4);
    expect(sample(text, 'localboard_publish_duration_seconds_bucket{le="2"}')).toBe(2);
  });

  it('the password hashing queue', async () => {
    const t = await appWith({ metricsToken: TOKEN, hashing: { threads: 1 } });
    const text = await scrape(t);
    expect(sample(text, 'localboard_password_hashes{state="running"}')).toBe(0);
    expect(sample(text, 'localboard_password_hashes{state="queued"}')).toBe(0);
    expect(sample(text, 'localboard_password_hash_threads')).toBe(1);
    expect(sample(text, 'localboard_password_hash_wait_seconds')).toBe(0);
  });

  it('each app its own counts: two apps in one process do not clash', async () => {
    const first = await appWith({ metricsToken: TOKEN });
    const second = await appWith({ metricsToken: TOKEN });
    await first.app.request(`${ORIGIN}/`);
    const series = 'localboard_http_requests_total{kind="static_page",status="200"}';
    expect(sample(await scrape(first), series)).toBe(1);
    expect(sample(await scrape(second), series)).toBeUndefined();
  });
});
