// PostgreSQL through node-postgres, for several server instances on one database
// (DATABASE_URL=postgres://…). Queries are the same Kysely queries as SQLite's (tables.ts).
// - A pool of connections (DATABASE_POOL_SIZE, default 10) per instance.
// - Counts come back as numbers: bigint (int8) is parsed as a JS number, which holds every count
//   and id this schema has.
// - A connection the server lost (PostgreSQL restarted, the network dropped) is an error on the
//   pool, logged in one line; the pool opens new connections when PostgreSQL is back.
// - Announcements ("publish needed") go to every instance on the same schema by NOTIFY, heard on
//   a connection of their own (postgres-announcements.ts).
import { Kysely, PostgresDialect, sql } from 'kysely';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import pg from 'pg';
import { drainingDialect } from './draining-dialect.ts';
import { errorChain, reasonOf, type StoreEngine } from './engine.ts';
import { channelOf, postgresAnnouncements } from './postgres-announcements.ts';
import { postgresSessionLock } from './postgres-session-lock.ts';
import {
  ledgerRowsOfOldCount,
  ledgerTable,
  LEDGER_TABLE,
  numberOfOldCount,
} from './migrations/ledger.ts';
import { MIGRATIONS } from './migrations/migrations.ts';
import type { Tables } from './tables.ts';

export interface PostgresEngineOptions {
  /** Connections in this instance's pool. Default: DATABASE_POOL_SIZE, or 10. */
  poolSize?: number;
  /** Never migrated (the build reading the server's database). */
  readOnly?: boolean;
  /** Where a lost connection is reported. Default: console.error. */
  log?: (line: string) => void;
}

const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The URL without its password, for logs and messages. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://…';
  }
}

/**
 * Connects and brings the schema up to date. Rejects with a one-line reason when PostgreSQL is not
 * there or refuses (the server prints it and exits).
 */
export async function openPostgresEngine(
  url: string,
  options: PostgresEngineOptions = {},
): Promise<StoreEngine> {
  const log = options.log ?? ((line: string) => console.error(line));
  const describe = describePostgresUrl(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? (Number(process.env.DATABASE_POOL_SIZE) || 10),
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    types,
  });
  let lastLogged = 0;
  const lost = (error: Error) => {
    // A connection lost; the next query opens another. Said once a minute at most.
    if (Date.now() - lastLogged < 60_000) return;
    lastLogged = Date.now();
    log(`PostgreSQL connection lost (${describe}): ${error.message}`);
  };
  pool.on('error', lost);
  // A connection in use (checked out of the pool: a query or a transaction under way) whose
  // server goes away emits 'error' on itself, where the pool does not listen: unheard, that would
  // end the process. Its query fails with the error already (answered 503), and the pool drops
  // the connection when it is given back.
  pool.on('connect', (client) => client.on('error', lost));
  let schema: string;
  try {
    const answer = await pool.query<{ schema: string | null }>('SELECT current_schema() AS schema');
    schema = answer.rows[0]?.schema ?? '';
    if (!options.readOnly) await migratePostgres(pool);
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(`PostgreSQL at ${describe} cannot be used: ${reasonOf(error)}`);
  }
  const db = new Kysely<Tables>({ dialect: drainingDialect(new PostgresDialect({ pool })) });
  const announcements = postgresAnnouncements({ url, pool, channel: channelOf(schema), log });
  let sweeper: NodeJS.Timeout | undefined;
  return {
    kind: 'postgres',
    db,
    describe,
    schemaVersion: () => schemaVersionOf(pool),
    async lock(trx, key) {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
    },
    rateLimiter(options) {
      sweeper ??= sweepRateLimits(pool);
      return new RateLimiterPostgres({
        ...options,
        storeClient: pool,
        storeType: 'pool',
        // Migration 8 made it (migrations/rate-limits.ts): no DDL at request time. Every limiter shares it, their keys told
        // apart by keyPrefix.
        tableName: 'rate_limits',
        tableCreated: true,
        // The library would start a timer per limiter; this engine sweeps once for all of them.
        clearExpiredByTimeout: false,
      });
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await announcements.close();
      // Kysely ends the pool only if it ran a query; a store used for ping() alone has its own.
      await db.destroy();
      if (!pool.ended) await pool.end();
    },
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max ?? 10,
    }),
    isUnavailable: isPostgresUnavailable,
    announcements,
    // Instances on other schemas of the same database are other sites: their own lock.
    sessionLock: (key) => postgresSessionLock({ url, key: `${key}:${schema}`, log }),
  };
}

/** Network errors of a connection that could not be made or was lost. */
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's error codes (SQLSTATE) of a server that is not there for now: class 08 (connection
 * exception), 57P01-57P03 (shut down by an administrator, crashed, not yet accepting connections),
 * 53300 (too many connections).
 */
const isUnavailableState = (code: string) =>
  code.startsWith('08') ||
  code === '57P01' ||
  code === '57P02' ||
  code === '57P03' ||
  code === '53300';

/** node-postgres' own words for a lost connection or a connect that timed out. */
const LOST_CONNECTION =
  /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable/i;

/**
 * PostgreSQL cannot be reached, went away or is not accepting connections: the request may be
 * tried again once it is back (the pool opens new connections by itself). SQL errors, constraint
 * violations and the like are not this.
 */
export function isPostgresUnavailable(error: unknown): boolean {
  for (const each of errorChain(error)) {
    const { code, message } = each as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (CONNECTION_ERRNOS.has(code) || isUnavailableState(code)))
      return true;
    if (typeof message === 'string' && LOST_CONNECTION.test(message)) return true;
  }
  return false;
}

/** Whether the connection's schema has `table` (in its search path, as the queries find it). */
async function hasTable(client: pg.Pool | pg.PoolClient, table: string): Promise<boolean> {
  const found = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [
    table,
  ]);
  return found.rows[0]?.found != null;
}

/** The schema's version: its ledger's highest number (migrations/ledger.ts), or its old count's. */
async function schemaVersionOf(client: pg.Pool | pg.PoolClient): Promise<number> {
  if (!(await hasTable(client, LEDGER_TABLE))) {
    const old = (await hasTable(client, 'schema_version'))
      ? (
          await client.query<{ version: number }>(
            'SELECT COALESCE(MAX(version), 0) AS version FROM schema_version',
          )
        ).rows[0]!.version
      : 0;
    return numberOfOldCount('postgres', old);
  }
  const result = await client.query<{ version: number }>(
    `SELECT COALESCE(MAX(number), 0) AS version FROM ${LEDGER_TABLE}`,
  );
  return result.rows[0]?.version ?? 0;
}

/**
 * Runs the migrations the schema has not had yet (migrations/migrations.ts, up to number `upTo`),
 * one at a time across every instance, each in a transaction with its ledger row. A schema the
 * older code migrated (schema_version, PostgreSQL's own numbering) is given its ledger first,
 * once, in the same lock (migrations/ledger.ts).
 */
export async function migratePostgres(pool: pg.Pool, upTo = MIGRATIONS.length): Promise<void> {
  const client = await pool.connect();
  const insert = `INSERT INTO ${LEDGER_TABLE} (number, name, applied_at) VALUES ($1, $2, $3)`;
  const inTransaction = async (work: () => Promise<void>) => {
    await client.query('BEGIN');
    try {
      await work();
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  };
  try {
    await client.query(`SELECT pg_advisory_lock(hashtextextended('localboard:migrations', 0))`);
    try {
      if (!(await hasTable(client, LEDGER_TABLE)))
        await inTransaction(async () => {
          const old = (await hasTable(client, 'schema_version'))
            ? (
                await client.query<{ version: number; applied_at: string }>(
                  'SELECT version, applied_at FROM schema_version ORDER BY version',
                )
              ).rows
            : [];
          const rows = ledgerRowsOfOldCount(
            'postgres',
            old.at(-1)?.version ?? 0,
            new Date().toISOString(),
            old.map((row) => row.applied_at),
          );
          await client.query(ledgerTable('postgres'));
          for (const row of rows)
            await client.query(insert, [row.number, row.name, row.applied_at]);
        });
      for (let number = (await schemaVersionOf(client)) + 1; number <= upTo; number++) {
        const migration = MIGRATIONS[number - 1]!;
        await inTransaction(async () => {
          if (migration.postgres !== undefined) await client.query(migration.postgres);
          await client.query(insert, [number, migration.name, new Date().toISOString()]);
        });
      }
    } finally {
      await client.query(`SELECT pg_advisory_unlock(hashtextextended('localboard:migrations', 0))`);
    }
  } finally {
    client.release();
  }
}

/**
 * The rate limiters read a row whose window has ended as absent and start it again when counted;
 * rows nobody counts again (an address seen once) are deleted here every five minutes, so the
 * table holds about the live windows only. Every instance sweeps: deleting what has expired is the
 * same however many do it. A sweep that fails (PostgreSQL away) is skipped: the next one will do.
 * The sweeps end with the pool (the store closed).
 */
function sweepRateLimits(pool: pg.Pool): NodeJS.Timeout {
  const sweeper = setInterval(() => {
    if (pool.ending) return clearInterval(sweeper);
    pool.query('DELETE FROM rate_limits WHERE expire < $1', [Date.now()]).catch(() => {});
  }, 5 * 60_000);
  sweeper.unref();
  return sweeper;
}
