// Starts the server: the prerendered site (and the API) on PORT, default 3000.
import { serve } from '@hono/node-server';
import { resolve } from 'node:path';
import { createApp } from './app.ts';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
const siteDir = resolve(process.env.SITE_DIR ?? 'dist/client');

const app = createApp({ siteDir });
const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(`Localboard is serving ${siteDir} at http://${hostname === '127.0.0.1' ? 'localhost' : hostname}:${info.port}`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => server.close(() => process.exit(0)));
}
