// What GET /metrics tells Prometheus (endpoints.ts): requests by the kind of page they asked for
// and their status, with latency; publishes and their duration; the password hashing queue; the
// database pool. One registry per app (not prom-client's global one), so that several apps in one
// process (the tests) each count their own. Labels are a small fixed set, never a raw path: a
// label value per URL would make a series per ad.
import type { Context, MiddlewareHandler } from 'hono';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { HashingPool } from '../auth/hashing-pool.ts';
import type { StoreHandle } from '../../store/store.ts';
import { isApiPath } from '../../core/paths.ts';

/**
 * What a request asked for: the API; a page rendered on request (member pages, search, a
 * refused form's page…); a prerendered page (or its not-found screen); any other file of the site
 * (scripts, stylesheets, images, robots.txt…); anything else (a POST to no endpoint).
 */
export type RequestKind = 'api' | 'on_request_page' | 'static_page' | 'asset' | 'other';

/** Seconds: a page from memory is ~1 ms, a member page a few, a sign-up's hash ~0.2 s. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: an incremental publish takes 1-3 s on the 117,000-page site, a full one minutes. */
const PUBLISH_BUCKETS = [0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300, 600];

export interface AppMetrics {
  readonly registry: Registry;
  /**
   * One publish of the site has finished (server/publishing/): how long it took, and whether it
   * succeeded. Called once a build, however many requests it carried.
   */
  recordPublish(seconds: number, ok: boolean): void;
  /** Counts one answered request (the middleware of `requestMetrics` calls it). */
  recordRequest(kind: RequestKind, status: number, seconds: number): void;
  /** The gauges that read the app's hashing pool and store when scraped (createApp calls it). */
  observe(sources: { hashing?: HashingPool; store?: StoreHandle }): void;
  /** The text Prometheus reads, and its content type. */
  scrape(): Promise<{ body: string; contentType: string }>;
}

/** The metrics of one app; server/index.ts makes it to hand it to the publisher too. */
export function createAppMetrics(): AppMetrics {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: 'localboard_http_requests_total',
    help: 'Requests answered, by what they asked for (kind) and the status answered.',
    labelNames: ['kind', 'status'] as const,
    registers,
  });
  const requestSeconds = new Histogram({
    name: 'localboard_http_request_duration_seconds',
    help: 'Time from a request to its answer (before its body is sent), by kind.',
    labelNames: ['kind'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  });
  const publishes = new Counter({
    name: 'localboard_publishes_total',
    help: 'Publishes of the site (builds), by outcome: ok or failed.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const publishSeconds = new Histogram({
    name: 'localboard_publish_duration_seconds',
    help: 'Duration of a publish of the site (one build), whatever its outcome.',
    buckets: PUBLISH_BUCKETS,
    registers,
  });
  // Zero from the start, so a rate() has a series before the first publish.
  publishes.inc({ outcome: 'ok' }, 0);
  publishes.inc({ outcome: 'failed' }, 0);

  let sources: { hashing?: HashingPool; store?: StoreHandle } = {};
  /** A gauge of one value, read at each scrape: no sample while its source is absent. */
  const valueGauge = (name: string, help: string, read: () => number | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const value = read();
        if (value !== undefined) this.set(value);
      },
    });
  new Gauge({
    name: 'localboard_password_hashes',
    help: 'Password hashes on the hashing threads (running) and waiting for one (queued).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const load = sources.hashing?.load();
      if (!load) return;
      this.set({ state: 'running' }, load.running);
      this.set({ state: 'queued' }, load.queued);
    },
  });
  valueGauge(
    'localboard_password_hash_wait_seconds',
    'How long a password hash asked for now is expected to wait for a thread.',
    () => {
      const load = sources.hashing?.load();
      return load && load.waitMs / 1000;
    },
  );
  valueGauge(
    'localboard_password_hash_threads',
    'Threads the password hashing pool runs at most.',
    () => sources.hashing?.threads,
  );
  // PostgreSQL only: SQLite has one connection and no pool, so these have no sample there.
  new Gauge({
    name: 'localboard_database_connections',
    help: "Connections of this instance's database pool: in use, idle, and the most it opens (max).",
    labelNames: ['state'] as const,
    registers,
    collect() {
      const stats = sources.store?.poolStats?.();
      if (!stats) return;
      this.set({ state: 'in_use' }, stats.total - stats.idle);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'max' }, stats.max);
    },
  });
  valueGauge(
    'localboard_database_waiting_queries',
    'Queries waiting for a connection of the database pool (PostgreSQL).',
    () => sources.store?.poolStats?.()?.waiting,
  );

  // The process' own (CPU, memory, event loop lag, GC…), started at the first scrape: an app
  // nobody scrapes (most tests) watches nothing.
  let processMetrics = false;

  return {
    registry,
    recordPublish(seconds, ok) {
      publishes.inc({ outcome: ok ? 'ok' : 'failed' });
      publishSeconds.observe(seconds);
    },
    recordRequest(kind, status, seconds) {
      requests.inc({ kind, status: String(status) });
      requestSeconds.observe({ kind }, seconds);
    },
    observe(given) {
      sources = { ...sources, ...given };
    },
    async scrape() {
      if (!processMetrics) {
        processMetrics = true;
        collectDefaultMetrics({ register: registry });
      }
      return { body: await registry.metrics(), contentType: registry.contentType };
    },
  };
}

/** Requests that reached the prerendered site (the middleware `reachesSite` marks them). */
const reachedSite = new WeakSet<Request>();

/** Placed just before the static site: what gets here was not the API nor a page on request. */
export const reachesSite: MiddlewareHandler = async (c, next) => {
  reachedSite.add(c.req.raw);
  await next();
};

function kindOf(c: Context): RequestKind {
  if (isApiPath(c.req.path)) return 'api';
  if (!reachedSite.has(c.req.raw)) {
    // Answered before the site: a page of the registry rendered on request (GET), or a request
    // nothing answered.
    return c.req.method === 'GET' || c.req.method === 'HEAD' ? 'on_request_page' : 'other';
  }
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return 'other';
  const type = c.res.headers.get('content-type') ?? '';
  return type.startsWith('text/html') ? 'static_page' : 'asset';
}

/** Counts and times every request that goes through it (all but the operations endpoints). */
export function requestMetrics(metrics: AppMetrics): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.recordRequest(kindOf(c), c.res.status, (performance.now() - started) / 1000);
    }
  };
}
