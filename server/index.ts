// Starts the server: the prerendered site and the API on PORT (default 3000), with the SQLite
// database at DATABASE_PATH (default data/localboard.sqlite).
import { serve } from '@hono/node-server';
import { resolve } from 'node:path';
import { createApp } from './app.ts';
import { parseTrustProxy } from './client-address.ts';
import { openDatabase } from './db/database.ts';

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
const siteDir = resolve(process.env.SITE_DIR ?? 'dist/site');
const databasePath = resolve(process.env.DATABASE_PATH ?? 'data/localboard.sqlite');
const optionalNumber = (value: string | undefined) => (value ? Number(value) : undefined);

let trustProxy;
try {
  trustProxy = parseTrustProxy(process.env.TRUST_PROXY);
} catch (error) {
  console.error(`TRUST_PROXY: ${(error as Error).message}`);
  process.exit(1);
}

const db = openDatabase(databasePath);
const app = createApp({
  siteDir,
  db,
  trustProxy,
  hashing: {
    threads: optionalNumber(process.env.PASSWORD_HASH_THREADS),
    maxQueued: optionalNumber(process.env.PASSWORD_HASH_QUEUE),
  },
  allowedOrigins: process.env.ALLOWED_ORIGINS?.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean),
});
const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  const shown = hostname === '127.0.0.1' ? 'localhost' : hostname;
  console.log(
    `Localboard is serving ${siteDir} at http://${shown}:${info.port} (database: ${databasePath})`,
  );
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () =>
    server.close(() => {
      db.close();
      process.exit(0);
    }),
  );
}
