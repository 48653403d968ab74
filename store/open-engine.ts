// Opens the engine at a location: PostgreSQL when given a postgres:// URL (DATABASE_URL), else the
// SQLite file at a path (DATABASE_PATH). Apart from open-store.ts, so that what reads the database
// without the store's parts (the build: published-ads-reader.ts) loads none of them.
import type { StoreEngine } from './engine.ts';
import { openSqliteEngine } from './sqlite-engine.ts';
import { isPostgresUrl, type StoreLocation } from './store-location.ts';

export interface OpenEngineOptions {
  /** Read only, never migrated: the build reading the server's database. */
  readOnly?: boolean;
  /** PostgreSQL connections in this process. */
  poolSize?: number;
  log?: (line: string) => void;
}

/**
 * Opens (and, unless read only, migrates) the engine. Rejects with a one-line message (no stack
 * worth showing) when the database cannot be used.
 */
export async function openEngine(
  location: StoreLocation,
  options: OpenEngineOptions = {},
): Promise<StoreEngine> {
  if (location.url) {
    if (!isPostgresUrl(location.url))
      throw new Error(
        `DATABASE_URL must start with postgres:// (got ${location.url.split(':')[0]}:)`,
      );
    // Loaded only for PostgreSQL: node-postgres takes longer to load than a small publish's
    // build takes to read its member ads.
    const { openPostgresEngine } = await import('./postgres-engine.ts');
    return openPostgresEngine(location.url, options);
  }
  if (!location.path) throw new Error('no database given: set DATABASE_URL or DATABASE_PATH');
  try {
    return openSqliteEngine(location.path, options);
  } catch (error) {
    throw new Error(`SQLite database ${location.path} cannot be used: ${(error as Error).message}`);
  }
}
