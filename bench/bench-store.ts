// The benchmarks' database: the store the server opens (server/store/), and the few rows a benchmark
// writes itself as the routes would (an account, a member ad), with Kysely, so that they run on
// either engine as the server does.
import { sql, type Kysely } from 'kysely';
import type { StoreEngine } from '../server/store/engine.ts';
import { openPostgresEngine } from '../server/store/postgres-engine.ts';
import { openSqliteEngine } from '../server/store/sqlite-engine.ts';
import type { StoreLocation } from '../server/store/store-location.ts';
import { storeOn, type StoreHandle } from '../server/store/store.ts';
import type { Tables } from '../server/store/tables.ts';

export interface BenchStore {
  store: StoreHandle;
  /** For the rows the benchmark writes itself. */
  db: Kysely<Tables>;
  close(): Promise<void>;
}

/** Opens (and migrates, or creates) the database at `location`, as the server would. */
export async function openBenchStore(location: StoreLocation): Promise<BenchStore> {
  const engine: StoreEngine = location.url
    ? await openPostgresEngine(location.url, { poolSize: 2 })
    : openSqliteEngine(location.path!);
  const store = storeOn(engine);
  return { store, db: engine.db, close: () => store.close() };
}

/** Inserts an account (its password is no password: the benchmark never signs it in); its id. */
export async function insertBenchAccount(db: Kysely<Tables>, email: string): Promise<number> {
  const now = new Date().toISOString();
  // Raw: accounts' id is not marked as generated in tables.ts.
  const { rows } = await sql<{ id: number }>`INSERT INTO accounts
      (email, password_hash, date_of_birth, terms_accepted_at, created_at, email_verified_at)
    VALUES (${email}, 'not a hash', '1990-01-01', ${now}, ${now}, ${now}) RETURNING id`.execute(db);
  const id = rows[0]!.id;
  return id;
}
