// The operations endpoints, for load balancers, orchestrators and Prometheus rather than people:
// - GET /healthz: the process answers (200 "ok"). Touches nothing else, so a database outage never
//   makes an instance look dead (a restart would not bring the database back).
// - GET /readyz: whether this instance should be sent traffic: the database answers and the site
//   is built (and published for the first time, when the server says so). 503 with the reason in
//   one line otherwise.
// - GET /metrics: Prometheus' text format (metrics.ts), to a client on this machine that came
//   straight to the server, or to anyone with `Authorization: Bearer <METRICS_TOKEN>`. To anyone
//   else it is not there: the same 404 as any unknown path.
// None is cached, logged or counted in the request metrics: probes every few seconds would drown
// the log and the counts of what people asked for.
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, Next } from 'hono';
import { createHash, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isIP, BlockList } from 'node:net';
import { join } from 'node:path';
import { normaliseAddress, type ProxyTrust } from '../auth/client-address.ts';
import type { StoreHandle } from '../../store/store.ts';
import type { AppMetrics } from './metrics.ts';

export interface OperationsSettings {
  store: Pick<StoreHandle, 'ping'>;
  /** The prerendered site: ready once its index.html is there. */
  siteDir: string;
  /**
   * The prerendered pages are served from SITE_BUCKET, not from siteDir (an instance that does not
   * publish never writes one): `readiness` alone says when the site's content is here.
   */
  siteInBucket?: boolean;
  /** The server's own say: a reason not to be sent traffic yet ("the site is being built"). */
  readiness?: () => string | undefined;
  metrics: AppMetrics;
  /** Opens /metrics to requests from anywhere that bear it as a bearer token. */
  metricsToken?: string;
  /** Which peers are our reverse proxies: a request through one is never taken as local. */
  trust: ProxyTrust;
  /** Whether this instance's search index is there (/readyz/search; a new instance's comes late). */
  searchAvailable?: () => boolean;
  /** How long /readyz waits for the database. Default 2 s. */
  pingTimeoutMs?: number;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Headers a reverse proxy adds: a request bearing one did not come to us straight. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

export function operationsEndpoints(settings: OperationsSettings) {
  const pingTimeoutMs = settings.pingTimeoutMs ?? 2_000;
  const token = settings.metricsToken ? digest(settings.metricsToken) : undefined;

  const plain = (c: Context, text: string, status: 200 | 503) => {
    c.header('Cache-Control', 'no-store');
    return c.text(`${text}\n`, status);
  };

  /** Why this instance is not ready, or undefined when it is. */
  async function notReadyBecause(): Promise<string | undefined> {
    const said = settings.readiness?.();
    if (said) return said;
    if (!settings.siteInBucket && !existsSync(join(settings.siteDir, 'index.html')))
      return 'the site is not built yet';
    // The reason itself (an address, a user name) is for the log, not for whoever asks.
    const answered = await within(settings.store.ping(), pingTimeoutMs).then(
      (inTime) => (inTime ? undefined : `the database did not answer within ${pingTimeoutMs} ms`),
      () => 'the database does not answer',
    );
    return answered;
  }

  /** Whether this request may read the metrics. */
  function mayScrape(c: Context): boolean {
    const authorization = c.req.header('authorization') ?? '';
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (token && bearer && timingSafeEqual(digest(bearer), token)) return true;
    return isLocalAndDirect(c, settings.trust);
  }

  return {
    health: (c: Context) => plain(c, 'ok', 200),
    async readiness(c: Context) {
      const reason = await notReadyBecause();
      return reason ? plain(c, `not ready: ${reason}`, 503) : plain(c, 'ready', 200);
    },
    /** Ready, and its search index there: haproxy sends /search only to such instances. */
    async searchReadiness(c: Context) {
      const reason =
        (await notReadyBecause()) ??
        (settings.searchAvailable?.() === false ? 'the search index is being made' : undefined);
      return reason ? plain(c, `not ready: ${reason}`, 503) : plain(c, 'ready', 200);
    },
    async metrics(c: Context, next: Next) {
      // Not for this client: on to what answers unknown paths (the site's not-found page).
      if (!mayScrape(c)) return next();
      const { body, contentType } = await settings.metrics.scrape();
      c.header('Cache-Control', 'no-store');
      c.header('Content-Type', contentType);
      return c.body(body, 200);
    },
  };
}

/** Same length whatever was sent, so comparing them takes the same time. */
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The socket's peer is this machine, is not one of our proxies, and no proxy forwarded the request
 * (a proxy on this machine connects from 127.0.0.1 on behalf of anyone). Forwarding headers are
 * only ever a reason to refuse: sent by a client to spoof, they close, never open.
 * Requests without a socket (app.request() in tests) are not local.
 */
export function isLocalAndDirect(c: Context, trust: ProxyTrust): boolean {
  let peer: string | undefined;
  try {
    peer = getConnInfo(c).remote.address;
  } catch {
    return false;
  }
  if (!peer) return false;
  const address = normaliseAddress(peer);
  const family = isIP(address);
  if (family === 0 || !LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6')) return false;
  if (trust.kind === 'hops' && trust.hops > 0) return false;
  if (trust.kind === 'list' && trust.addresses.check(address, family === 4 ? 'ipv4' : 'ipv6'))
    return false;
  return !FORWARDING_HEADERS.some((name) => c.req.header(name) !== undefined);
}

/** Resolves true when `promise` resolves within `ms`, false after; rejects as it does. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([promise.then(() => true), timeout]).finally(() => clearTimeout(timer));
}
