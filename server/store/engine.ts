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
  /** Messages between the processes on this database ("publish needed": announcements.ts). */
  announcements: EngineAnnouncements;
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
