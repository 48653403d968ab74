// How the server keeps its connections (server/http/serve-http.ts): an idle one longer than the
// proxies in front of it keep theirs, so that they give it up first and never send a request on
// one the server is closing (a reset, then a 502 for the visitor); and when it is stopped, it
// answers what it was answering and closes that connection at once, not a minute later.
import { Agent, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveHttp } from '../../../server/http/serve-http.ts';
import { listen, makeTestApp, type RunningServer, type TestApp } from '../../helpers/api.ts';

let testApp: TestApp;
let server: RunningServer;
beforeAll(async () => {
  testApp = await makeTestApp();
  server = await listen(testApp.app);
});
afterAll(async () => {
  await server.close();
  await testApp.remove();
});

/** GET over `agent`: the status, headers and body. */
function getOver(agent: Agent, url: string) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      get(url, { agent }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, body }),
        );
      }).on('error', reject);
    },
  );
}

it('keeps an idle connection 65 s, past the 60 s nginx and load balancers keep theirs', async () => {
  const agent = new Agent({ keepAlive: true });
  // What a load balancer asks over and over, on the connections it keeps.
  const answer = await getOver(agent, `${server.url}/readyz`);
  agent.destroy();
  expect(answer.status).toBe(200);
  expect(answer.headers.connection).toBe('keep-alive');
  expect(answer.headers['keep-alive']).toBe('timeout=65');
});

it('when stopped, answers the request under way, then closes its connection at once', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const stopping = await new Promise<Server>((resolve) => {
    const started = serveHttp(
      async () => {
        await held;
        return new Response('answered');
      },
      { port: 0, hostname: '127.0.0.1' },
      () => resolve(started),
    );
  });
  const url = `http://127.0.0.1:${(stopping.address() as AddressInfo).port}/`;
  const agent = new Agent({ keepAlive: true });
  const arrived = new Promise((resolve) => stopping.once('request', resolve));
  const underWay = getOver(agent, url);
  await arrived;
  const closed = new Promise<string>((resolve) => stopping.close(() => resolve('closed')));
  release();
  expect(await underWay).toMatchObject({ status: 200, body: 'answered' });
  // Kept alive, that connection would hold the server open for the 65 s above.
  const bound = new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 5_000));
  expect(await Promise.race([closed, bound])).toBe('closed');
  agent.destroy();
  stopping.closeAllConnections();
});
