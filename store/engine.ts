// What a store runs on: a Kysely instance over one of the two engines (sqlite-engine.ts, the
// default; postgres-engine.ts, for several instances on one database), with what differs between
// them beyond SQL: locking, health, closing, backing up.
import type { Kysely } from 'kysely';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Tables } from './tables.ts';

/** Counts attempts per key in windows (rate-limiter-flexible), wherever the engine keeps them. */
export type RateLimiter = RateLimiterAbstract;

export interface RateLimiterOptions {
  /** Names the limiter's keys; unique per limiter, since the limiters of an engine share a table. */
  keyPrefix: string;
  /** Attempts allowed in each window. */
  points: number;
  /** Window length in seconds. */
  duration: number;
  /** Seconds a key stays refused once it goes over `points` (default: until its window ends). */
  blockDuration?: number;
}

export interface StoreEngine {
  kind: 'sqlite' | 'postgres';
  db: Kysely<Tables>;
  /** The database, as logs name it (a path, or the URL without its password). */
  describe: string;
  /** Its version: the number of the last migration it has had (migrations/ledger.ts). */
  schemaVersion(): Promise<number>;
  /**
   * Within a transaction (`trx`): waits until no other transaction holds `key`, in any process,
   * and holds it until this one ends (PostgreSQL's transaction-level advisory locks). SQLite has
   * one writer, so there it waits for nothing.
   */
  lock(trx: Kysely<Tables>, key: string): Promise<void>;
  /**
   * A rate limiter kept where every instance of this store counts together (docs/product.md
   * section 12): in this process's memory on SQLite (one instance), in the rate_limits table on
   * PostgreSQL. On PostgreSQL a limiter asked while the database is unreachable rejects with the
   * driver's error, as a query does; it never answers as if the attempt were allowed.
   */
  rateLimiter(options: RateLimiterOptions): RateLimiter;
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
  /** Messages between the processes on this database ("publish needed": publish-announcements.ts). */
  announcements: EngineAnnouncements;
  /**
   * A lock one process at a time holds for as long as it lives (PostgreSQL's session-level
   * advisory lock, on a connection of its own: postgres-session-lock.ts). Absent on SQLite: one
   * process, which holds it always.
   */
  sessionLock?(key: string): SessionLock;
}

/** A lock held by one process of those on a database, until it ends or its connection does. */
export interface SessionLock {
  /** Whether this process holds it now. */
  readonly held: boolean;
  /** Calls `listener` each time it is taken or lost; returns the function that stops it. */
  onChange(listener: (held: boolean) => void): () => void;
  /** Gives it up (and stops trying to take it). */
  release(): Promise<void>;
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

/**
 * Announcements: what one process says, every listener on the same database hears, in every
 * process (its own included). PostgreSQL: NOTIFY, heard on one connection of its own that LISTENs
 * and comes back by itself when the database does. SQLite: the processes' listeners in this
 * process (one server a SQLite file).
 */
export interface EngineAnnouncements {
  /** Sends `payload` (a few hundred characters at most) to every listener. */
  announce(payload: string): Promise<void>;
  /**
   * Calls `listener` with each payload announced from now on. On PostgreSQL, also with `undefined`
   * each time the listening connection is in place, the first time and after each time it was
   * lost: whatever was announced before may have been missed. (In one process nothing is missed.)
   * Returns the function that stops it.
   */
  listen(listener: (payload: string | undefined) => void): () => void;
}

/**
 * What went wrong, in one line of at most 200 characters: node-postgres' refused connection is an
 * AggregateError of every address, without a message of its own (its first address's is told).
 */
export function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && !error.message && error.errors.length > 0)
    return reasonOf(error.errors[0]);
  const { message, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  const text = typeof message === 'string' && message ? message : String(code ?? error);
  return text.split('\n')[0]!.slice(0, 200);
}
