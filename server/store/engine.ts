// What a store runs on: a Kysely instance over one of the two engines (sqlite-engine.ts, the
// default; postgres-engine.ts, for several instances on one database), with what differs between
// them beyond SQL: locking, health, closing, backing up.
import type { Kysely } from 'kysely';
import type { Tables } from './tables.ts';

export interface StoreEngine {
  kind: 'sqlite' | 'postgres';
  db: Kysely<Tables>;
  /** The database, as logs name it (a path, or the URL without its password). */
  describe: string;
  /** How many migrations the database has had. */
  schemaVersion(): Promise<number>;
  /**
   * Within a transaction (`trx`): waits until no other transaction holds `key`, in any process,
   * and holds it until this one ends (PostgreSQL's transaction-level advisory locks). SQLite has
   * one writer, so there it waits for nothing.
   */
  lock(trx: Kysely<Tables>, key: string): Promise<void>;
  /** Resolves when the database answers; rejects with the reason otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** An online, consistent copy into `file` (SQLite only: PostgreSQL has pg_dump). */
  backup?(file: string): Promise<void>;
  /** The connections of this instance's pool (PostgreSQL; SQLite has one connection, no pool). */
  poolStats?(): PoolStats;
  /**
   * Whether `error` says the database cannot be reached or used for now (PostgreSQL gone, its
   * connection lost, SQLite busy past its timeout or its disk failing): the server answers 503
   * and the request can be tried again, rather than a bug's 500.
   */
  isUnavailable(error: unknown): boolean;
}

export interface PoolStats {
  /** Connections open, idle or in use. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
  /** The most connections the pool opens. */
  max: number;
}

/** `error`, the errors it aggregates and its causes, a few levels deep. */
export function* errorChain(error: unknown, depth = 0): Generator<unknown> {
  if (error === null || error === undefined || depth > 4) return;
  yield error;
  if (error instanceof AggregateError)
    for (const inner of error.errors) yield* errorChain(inner, depth + 1);
  if (error instanceof Error && error.cause !== undefined)
    yield* errorChain(error.cause, depth + 1);
}
