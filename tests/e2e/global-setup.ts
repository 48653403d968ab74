// Builds the production site once per run (content published for a fixed date, so the tests do
// not age) and serves it on a free port on 127.0.0.1 for every e2e test; stops it afterwards.
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startSiteServer } from './servers.ts';

export const E2E_BUILD_DATE = '2026-11-22';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    siteDir: string;
    /** Where the shared server writes its mail. */
    outboxDir: string;
    /** The shared server's database file. */
    databasePath: string;
    compiledContentFile: string;
  }
}

export default async function setup(project: TestProject) {
  const root = join(import.meta.dirname, '..', '..');
  const build = spawnSync(
    process.execPath,
    [
      'scripts/build.mjs',
      ...['--if-needed', '--date', E2E_BUILD_DATE],
      // The shipped content only: a developer's member ads (data/localboard.sqlite) would change
      // the pages and counts the tests expect.
      ...['--database', join(tmpdir(), 'localboard-e2e-no-member-ads.sqlite')],
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) throw new Error(`The build failed:\n${build.stdout}\n${build.stderr}`);

  const siteDir = join(root, 'dist', 'site');
  const server = await startSiteServer(siteDir);
  project.provide('baseUrl', server.url);
  project.provide('siteDir', siteDir);
  project.provide('outboxDir', server.outboxDir);
  project.provide('databasePath', server.databasePath);
  project.provide('compiledContentFile', join(root, '.content', 'content.json'));
  return () => server.stop();
}
