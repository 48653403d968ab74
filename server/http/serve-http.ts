// The app on its port, over HTTP/1.1: server/index.ts, and the tests that go through a real server
// (tests/e2e/, tests/helpers/), so that they keep connections as production does.
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How long an idle keep-alive connection is kept open: announced in each answer as
 * `Keep-Alive: timeout=65`, closed a second later (Node's keepAliveTimeoutBuffer). Whoever reuses
 * a connection must give it up before the server does: a request sent on one the server is
 * closing at that moment is reset (ECONNRESET; behind a proxy, a 502 for the visitor). Node's
 * default, 5 s, is shorter than reverse proxies keep idle connections to their upstream (nginx's
 * `keepalive_timeout` and AWS's load balancers: 60 s) and than clients that ignore the
 * announcement (Playwright's API requests: tests/e2e/) leave between two requests.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

type Fetch = Parameters<typeof serve>[0]['fetch'];

/** Serves `fetch` on `port` of `hostname`; `onListening` once it listens. */
export function serveHttp(
  fetch: Fetch,
  { port, hostname }: { port: number; hostname: string },
  onListening?: (info: AddressInfo) => void,
): Server {
  const server = serve(
    { fetch, port, hostname, serverOptions: { keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS } },
    onListening,
  ) as Server;
  // Once it is closed (SIGTERM), a connection is closed as soon as its answer is sent: close()
  // closes only the idle ones, and one busy then would otherwise be kept the minute above.
  server.on('request', (_request, response) =>
    response.once('finish', () => {
      if (!server.listening) server.closeIdleConnections();
    }),
  );
  return server;
}
