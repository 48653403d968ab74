// Builds the production site once per run (content published for a fixed date, so the tests do
// not age) and serves it on a free port on 127.0.0.1 for every e2e test; stops it afterwards.
import { serve, type ServerType } from '@hono/node-server';
import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createApp } from '../../server/app.ts';
import { openDatabase } from '../../server/db/database.ts';
import { GENEROUS_RATE_LIMITS } from './rate-limits.ts';

export const E2E_BUILD_DATE = '2026-11-22';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    siteDir: string;
    compiledContentFile: string;
  }
}

export default async function setup(project: TestProject) {
  const root = join(import.meta.dirname, '..', '..');
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--if-needed', '--date', E2E_BUILD_DATE], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`The build failed:\n${build.stdout}\n${build.stderr}`);

  const siteDir = join(root, 'dist', 'client');
  // A cheaper password hash keeps the many test sign-ups quick; production uses the default.
  process.env.PASSWORD_HASH_COST ??= String(2 ** 14);
  const dataDir = mkdtempSync(join(tmpdir(), 'localboard-e2e-'));
  const db = openDatabase(join(dataDir, 'e2e.sqlite'));
  const app = createApp({ siteDir, db, rateLimits: GENEROUS_RATE_LIMITS, log: false });
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  project.provide('baseUrl', `http://127.0.0.1:${port}`);
  project.provide('siteDir', siteDir);
  project.provide('compiledContentFile', join(root, '.content', 'content.json'));
  return () =>
    new Promise<void>((resolve) =>
      server.close(() => {
        db.close();
        rmSync(dataDir, { recursive: true, force: true });
        resolve();
      }),
    );
}
