// Opens the store a server (or a command, or the build) uses: PostgreSQL when given a
// postgres:// URL (DATABASE_URL), else the SQLite file at a path (DATABASE_PATH).
import { openSqliteEngine } from './sqlite-engine.ts';
import { storeOn, type StoreHandle } from './store.ts';
import { isPostgresUrl, type StoreLocation } from './store-location.ts';

export { isPostgresUrl, storeLocationFromEnv, type StoreLocation } from './store-location.ts';

export interface OpenStoreOptions {
  /** Read only, never migrated: the build reading the server's database. */
  readOnly?: boolean;
  /** PostgreSQL connections in this process. */
  poolSize?: number;
  log?: (line: string) => void;
}

/**
 * Opens and migrates the store. Rejects with a one-line message (no stack worth showing) when
 * the database cannot be used.
 */
export async function openStore(
  location: StoreLocation,
  options: OpenStoreOptions = {},
): Promise<StoreHandle> {
  if (location.url) {
    if (!isPostgresUrl(location.url))
      throw new Error(
        `DATABASE_URL must start with postgres:// (got ${location.url.split(':')[0]}:)`,
      );
    // Loaded only for PostgreSQL: node-postgres takes longer to load than a small publish's
    // build takes to read its member ads.
    const { openPostgresEngine } = await import('./postgres-engine.ts');
    return storeOn(await openPostgresEngine(location.url, options));
  }
  if (!location.path) throw new Error('no database given: set DATABASE_URL or DATABASE_PATH');
  try {
    return storeOn(openSqliteEngine(location.path, options));
  } catch (error) {
    throw new Error(`SQLite database ${location.path} cannot be used: ${(error as Error).message}`);
  }
}

/** The SQLite store at `path`, opened at once (the dev server's, and the tests'). */
export function openSqliteStore(path: string, options: OpenStoreOptions = {}): StoreHandle {
  return storeOn(openSqliteEngine(path, options));
}
