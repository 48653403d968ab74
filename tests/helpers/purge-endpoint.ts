// A CDN's purge API for a test file: a real HTTP server on 127.0.0.1 that takes JSON posts
// (`{"files": [...]}`, as the purge hook's body template writes them), hands each one to the
// file with its Authorization header, and answers with the status the file returns (200 unless
// told) and the success body Cloudflare sends. Started before the file's tests, closed after them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** One purge request as the CDN receives it. */
export interface PurgeRequest {
  /** The Authorization header, if the hook sent one. */
  authorization: string | undefined;
  files: string[];
}

/**
 * The endpoint at `path`, each request handed to `receive`; its `url` is filled in by `beforeAll`:
 * read it inside hooks and tests only.
 */
export function purgeEndpointForFile(
  path: string,
  receive: (request: PurgeRequest) => number | void,
): { url: string } {
  const endpoint = { url: '' };
  let server: Server | undefined;
  beforeAll(async () => {
    const started = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const { files } = JSON.parse(body) as { files: string[] };
        const status = receive({ authorization: request.headers.authorization, files }) ?? 200;
        response.writeHead(status, { 'Content-Type': 'application/json' });
        response.end('{"success":true}');
      });
    });
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    server = started;
    endpoint.url = `http://127.0.0.1:${(started.address() as AddressInfo).port}${path}`;
  });
  afterAll(
    () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  );
  return endpoint;
}
