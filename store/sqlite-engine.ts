// The embedded engine: one SQLite file (WAL mode) through better-sqlite3, the default
// (DATABASE_PATH). Queries are written once with Kysely (tables.ts); this module and
// postgres-engine.ts are the only ones that know a driver.
import Database from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { drainingDialect } from './draining-dialect.ts';
import { errorChain, type EngineAnnouncements, type StoreEngine } from './engine.ts';
import {
  ledgerRowsOfOldCount,
  ledgerTable,
  LEDGER_TABLE,
  numberOfOldCount,
} from './migrations/ledger.ts';
import { MIGRATIONS } from './migrations/migrations.ts';
import type { Tables } from './tables.ts';

export interface SqliteEngineOptions {
  /** Opened read-only and never migrated (the build reading the server's database). */
  readOnly?: boolean;
}

export function openSqliteEngine(path: string, options: SqliteEngineOptions = {}): StoreEngine {
  if (path !== ':memory:' && !options.readOnly) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    createPrivately(path);
  }
  const db = new Database(path, options.readOnly ? { readonly: true, fileMustExist: true } : {});
  if (!options.readOnly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  if (!options.readOnly) migrateSqlite(db);
  const config = { database: withStatementCache(db) };
  const kysely = new Kysely<Tables>({
    dialect: drainingDialect(
      options.readOnly ? new SqliteDialect(config) : new ImmediateSqliteDialect(config),
    ),
  });
  const announcements = inProcessAnnouncements(path === ':memory:' ? {} : resolve(path));
  return {
    kind: 'sqlite',
    db: kysely,
    describe: path,
    schemaVersion: async () => sqliteVersion(db),
    // One process writes the file, and Kysely runs one transaction at a time on its one
    // connection: a unit of work is never interleaved with another's writes.
    lock: async () => {},
    // One instance: its counters in its memory, as fast as a counter gets (docs/product.md
    // section 12). They start again from zero when the server restarts.
    rateLimiter: (options) => new RateLimiterMemory(options),
    ping: async () => {
      db.prepare('SELECT 1').get();
    },
    close: () => {
      announcements.close();
      return kysely.destroy();
    },
    backup: async (file) => {
      // All pages in one step: one read snapshot of the file (WAL lets the server write on
      // meanwhile), where steps of 100 pages would start again after every write of another
      // connection, and might never finish on a busy server.
      await db.backup(file, { progress: () => 0x7fffffff });
      // The copy is one self-contained file: out of WAL mode, so no -wal file goes with it.
      const copy = new Database(file);
      try {
        copy.pragma('journal_mode = DELETE');
      } finally {
        copy.close();
      }
    },
    isUnavailable: isSqliteUnavailable,
    announcements,
  };
}

/** The listeners of each SQLite file in this process: one server a file, so no other process. */
const listenersOfFile = new Map<unknown, Set<(payload: string | undefined) => void>>();

function inProcessAnnouncements(file: unknown): EngineAnnouncements & { close(): void } {
  const own = new Set<(payload: string | undefined) => void>();
  const listeners = () => {
    let found = listenersOfFile.get(file);
    if (!found) listenersOfFile.set(file, (found = new Set()));
    return found;
  };
  const stop = (listener: (payload: string | undefined) => void) => {
    own.delete(listener);
    const found = listenersOfFile.get(file);
    found?.delete(listener);
    if (found?.size === 0) listenersOfFile.delete(file);
  };
  return {
    async announce(payload) {
      // Heard after the announcer goes on, as a notification from another process would be.
      for (const listener of listeners())
        setImmediate(() => {
          if (listenersOfFile.get(file)?.has(listener)) listener(payload);
        });
    },
    listen(listener) {
      const each = (payload: string | undefined) => listener(payload);
      own.add(each);
      listeners().add(each);
      return () => stop(each);
    },
    close() {
      for (const listener of [...own]) stop(listener);
    },
  };
}

/**
 * The file is locked past busy_timeout (another process holds the writer: a backup, a command),
 * or the disk fails or is full: try again later. Any other error (a constraint, SQL) is ours.
 */
export function isSqliteUnavailable(error: unknown): boolean {
  for (const each of errorChain(error)) {
    const code = (each as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
    if (code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_')) return true;
    if (code === 'SQLITE_FULL') return true;
  }
  return false;
}

/**
 * A unit of work takes SQLite's write lock when it begins (BEGIN IMMEDIATE), not at its first
 * write: another process writing the same file (`npm run moderator` beside the server) then waits
 * its turn (busy_timeout) instead of failing a transaction that had already read. A transaction
 * that only reads (`setAccessMode('read only')`: the build's snapshot, published-ads.ts) takes no
 * write lock: a plain BEGIN, whose snapshot the writers do not wait for.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(
    connection: DatabaseConnection,
    // Kysely passes the transaction's settings to every driver (its SqliteDriver declares none).
    settings?: TransactionSettings,
  ): Promise<void> {
    await connection.executeQuery(
      CompiledQuery.raw(settings?.accessMode === 'read only' ? 'begin' : 'begin immediate'),
    );
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/**
 * Kysely prepares every query it runs; better-sqlite3's statements can be kept and run again, so
 * each distinct SQL text is prepared once (Kysely runs one query at a time on the connection).
 */
function withStatementCache(db: Database.Database) {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => db.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * A new database file is readable by its owner only (600), whatever the umask. SQLite gives the
 * -wal and -shm files it creates beside it the main file's permissions.
 */
function createPrivately(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

const hasLedger = (db: Database.Database) =>
  db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(LEDGER_TABLE) !==
  undefined;

/** The file's version: its ledger's highest number (migrations/ledger.ts), or its old count's. */
function sqliteVersion(db: Database.Database): number {
  if (!hasLedger(db))
    return numberOfOldCount('sqlite', db.pragma('user_version', { simple: true }) as number);
  return (
    (db.prepare(`SELECT max(number) AS n FROM ${LEDGER_TABLE}`).get() as { n: number | null }).n ??
    0
  );
}

/**
 * Runs the migrations the file has not had yet (migrations/migrations.ts, up to number `upTo`),
 * each in a transaction with its ledger row. A file the older code migrated (user_version counted
 * SQLite's own numbering) is given its ledger first, once (migrations/ledger.ts).
 */
export function migrateSqlite(db: Database.Database, upTo = MIGRATIONS.length): void {
  if (!hasLedger(db))
    db.transaction(() => {
      const oldCount = db.pragma('user_version', { simple: true }) as number;
      const rows = ledgerRowsOfOldCount('sqlite', oldCount, new Date().toISOString());
      db.exec(ledgerTable('sqlite'));
      const insert = db.prepare(
        `INSERT INTO ${LEDGER_TABLE} (number, name, applied_at) VALUES (?, ?, ?)`,
      );
      for (const row of rows) insert.run(row.number, row.name, row.applied_at);
      db.pragma(`user_version = ${rows.length}`);
    })();
  const insert = db.prepare(
    `INSERT INTO ${LEDGER_TABLE} (number, name, applied_at) VALUES (?, ?, ?)`,
  );
  for (let number = sqliteVersion(db) + 1; number <= upTo; number++) {
    const migration = MIGRATIONS[number - 1]!;
    db.transaction(() => {
      if (migration.sqlite !== undefined) db.exec(migration.sqlite);
      insert.run(number, migration.name, new Date().toISOString());
      // For a copy of the older code, which counted with user_version: nothing to run.
      db.pragma(`user_version = ${number}`);
    })();
  }
}
