// The benchmarks' database: the store the server opens (store/), and the few rows a benchmark
// writes itself as the routes would (a member ad in a state of its choosing), with Kysely, so that
// they run on either engine as the server does.
import type { Kysely } from 'kysely';
import type { StoreEngine } from '../store/engine.ts';
import { openPostgresEngine } from '../store/postgres-engine.ts';
import { openSqliteEngine } from '../store/sqlite-engine.ts';
import type { StoreLocation } from '../store/store-location.ts';
import { storeOn, type StoreHandle } from '../store/store.ts';
import type { Tables } from '../store/tables.ts';

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

/** A verified account (its password is no password: the benchmark never signs it in); its id. */
export async function insertBenchAccount(store: StoreHandle, email: string): Promise<number> {
  const now = new Date().toISOString();
  const id = await store.accounts.create({
    email,
    passwordHash: 'not a hash',
    dateOfBirth: '1990-01-01',
    termsAcceptedAt: now,
    createdAt: now,
  });
  if (id === undefined) throw new Error(`${email} has an account already`);
  await store.accounts.markVerified(id, now);
  return id;
}
