// Where the store is: PostgreSQL at a postgres:// URL (DATABASE_URL), else the SQLite file at a path
// (DATABASE_PATH). Apart from open-store.ts so that what only names a store (the build passing it
// on to its steps) loads no driver.

export interface StoreLocation {
  /** postgres://… or postgresql://…: PostgreSQL. */
  url?: string;
  /** The SQLite file, when there is no url. */
  path?: string;
}

export const isPostgresUrl = (value: string) => /^postgres(ql)?:\/\//i.test(value);

/** The location a server's environment names: DATABASE_URL, else DATABASE_PATH or the default file. */
export function storeLocationFromEnv(
  env: NodeJS.ProcessEnv,
  defaultPath = 'data/localboard.sqlite',
): StoreLocation {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL };
  return { path: env.DATABASE_PATH || defaultPath };
}
