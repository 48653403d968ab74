// Global set-up of the PostgreSQL suite (vitest.config.ts, project `postgres`): one throwaway
// cluster for the whole run (scripts/postgres.mjs), its URL provided to the tests; every test
// store is a schema of its own in it (test-store.ts).
import type { TestProject } from 'vitest/node';
// @ts-expect-error: a plain JavaScript module of the scripts, without types.
import { ensurePostgres, startThrowawayPostgres } from '../../scripts/postgres.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const found = ensurePostgres() as { binDir?: string; problem?: string };
  if (!found.binDir) throw new Error(found.problem);
  const cluster = (await startThrowawayPostgres(found.binDir)) as { url: string; stop(): void };
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
