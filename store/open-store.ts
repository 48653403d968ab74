// Opens the store a server (or a command) uses: its engine at the location (open-engine.ts) with
// every part built on it (store.ts). The build reads through published-ads-reader.ts instead.
import { openEngine, type OpenEngineOptions } from './open-engine.ts';
import { openSqliteEngine } from './sqlite-engine.ts';
import { storeOn, type StoreHandle } from './store.ts';
import type { StoreLocation } from './store-location.ts';

export { isPostgresUrl, storeLocationFromEnv, type StoreLocation } from './store-location.ts';

export type OpenStoreOptions = OpenEngineOptions;

/**
 * Opens and migrates the store. Rejects with a one-line message (no stack worth showing) when
 * the database cannot be used.
 */
export async function openStore(
  location: StoreLocation,
  options: OpenStoreOptions = {},
): Promise<StoreHandle> {
  return storeOn(await openEngine(location, options));
}

/** The SQLite store at `path`, opened at once (the dev server's, and the tests'). */
export function openSqliteStore(path: string, options: OpenStoreOptions = {}): StoreHandle {
  return storeOn(openSqliteEngine(path, options));
}
