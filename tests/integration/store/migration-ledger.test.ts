// Databases the older code migrated go on under the one numbering (store/migrations/ledger.ts):
// nothing they had runs again, nothing they lacked is skipped, and their rows stay.
//
// tests/fixtures/migrations/sqlite-migrated-before-one-numbering.sqlite was made by the code of
// main at 86961bf, before the one numbering: its store opened the file (SQLite's own 22
// migrations, user_version 22), then two accounts, a live ad, a conversation with two messages, a
// saved search and a push subscription were written into it, and it was made small (page_size
// 512, VACUUM). It is never written: each test works on a copy.
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, test } from 'vitest';
import { numberOfOldCount, OLD_COUNTS } from '../../../store/migrations/ledger.ts';
import { MIGRATIONS, migrationsOn } from '../../../store/migrations/migrations.ts';
import { openSqliteStore } from '../../../store/open-store.ts';
import { migratePostgres } from '../../../store/postgres-engine.ts';
import { migrateSqlite } from '../../../store/sqlite-engine.ts';
import { newPostgresSchemaUrl, onPostgres, testPostgresUrl } from '../../helpers/test-store.ts';

const FIXTURE = join(
  import.meta.dirname,
  '../../fixtures/migrations/sqlite-migrated-before-one-numbering.sqlite',
);
const LEDGER = MIGRATIONS.map(({ name }, index) => ({ number: index + 1, name }));

/** Every table, index and trigger of a SQLite database as its SQL, but the ledger's. */
const sqliteSchema = (db: Database.Database) =>
  db
    .prepare<[], { type: string; name: string; sql: string | null }>(
      `SELECT type, name, sql FROM sqlite_master
       WHERE name NOT LIKE 'sqlite_%' AND name != 'schema_migrations' ORDER BY type, name`,
    )
    .all();

const ledgerOf = (db: Database.Database) =>
  db.prepare('SELECT number, name FROM schema_migrations ORDER BY number').all();

describe.skipIf(onPostgres())('SQLite', () => {
  test('a file the older code migrated keeps its schema and rows, and is given its ledger once', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'localboard-ledger-')), 'localboard.sqlite');
    copyFileSync(FIXTURE, file);
    const before = new Database(file, { readonly: true });
    const schemaBefore = sqliteSchema(before);
    const rowsBefore = before
      .prepare('SELECT email FROM accounts UNION ALL SELECT body FROM messages')
      .all();
    expect(before.pragma('user_version', { simple: true })).toBe(22);
    before.close();

    const store = openSqliteStore(file);
    expect(await store.schemaVersion()).toBe(MIGRATIONS.length);
    // Its conversation reads as it did: one chat of the poster's.
    expect((await store.conversations.inbox(1, 10, 'chats')).map((row) => row.adTitle)).toEqual([
      'Walks by the river',
    ]);
    // Its device, stored before devices belonged to sessions (26), is still pushed to.
    const push = { payload: '{}', topic: 'c1', urgency: 'high' } as const;
    expect(await store.unitOfWork((tx) => tx.pushes.enqueue(2, push, '2026-12-01T00:00:00Z'))).toBe(
      1,
    );
    await store.close();

    const after = new Database(file);
    // What it had, untouched, and the migrations written since it was made run once: 24, the
    // CDN's purge budget; 25, the age check's OpenID4VP key; 26, a device's session.
    const since = (name: string) =>
      name.startsWith('cdn_purge_requests') ||
      name === 'age_check_requests' ||
      name.startsWith('push_subscriptions');
    expect(sqliteSchema(after).filter(({ name }) => !since(name))).toEqual(
      schemaBefore.filter(({ name }) => !since(name)),
    );
    expect(
      sqliteSchema(after)
        .filter(({ name }) => since(name))
        .map(({ name }) => name),
    ).toEqual([
      'cdn_purge_requests_by_time',
      'push_subscriptions_by_account',
      'push_subscriptions_by_session',
      'age_check_requests',
      'cdn_purge_requests',
      'push_subscriptions',
    ]);
    expect(
      after
        .prepare("SELECT name FROM pragma_table_info('age_check_requests') WHERE name = ?")
        .all('openid4vp_key'),
    ).toEqual([{ name: 'openid4vp_key' }]);
    expect(after.prepare('SELECT id, endpoint, session_id FROM push_subscriptions').all()).toEqual([
      { id: 1, endpoint: 'https://push.example/1', session_id: null },
    ]);
    expect(
      after.prepare('SELECT email FROM accounts UNION ALL SELECT body FROM messages').all(),
    ).toEqual(rowsBefore);
    expect(ledgerOf(after)).toEqual(LEDGER);
    expect(after.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    const stamped = after.prepare('SELECT number, applied_at FROM schema_migrations').all();
    // Opened again: nothing runs, nothing is recorded again.
    migrateSqlite(after);
    expect(after.prepare('SELECT number, applied_at FROM schema_migrations').all()).toEqual(
      stamped,
    );
    after.close();
  });

  test('every count the older code recorded goes on to the same schema as a new file', () => {
    const fresh = new Database(':memory:');
    migrateSqlite(fresh);
    const schema = sqliteSchema(fresh);
    expect(ledgerOf(fresh)).toEqual(LEDGER);
    fresh.close();
    // The older code's list: the first 23 with SQL for SQLite (those since are the ledger's alone).
    const old = migrationsOn('sqlite').slice(0, OLD_COUNTS.sqlite);
    expect(old).toHaveLength(23);
    for (let count = 0; count <= old.length; count++) {
      const db = new Database(':memory:');
      db.pragma('foreign_keys = ON');
      // As the older code migrated: SQLite's own list, counted in user_version.
      old.slice(0, count).forEach((sql, index) => {
        db.exec(sql);
        db.pragma(`user_version = ${index + 1}`);
      });
      migrateSqlite(db);
      expect({ count, schema: sqliteSchema(db) }).toEqual({ count, schema });
      expect(ledgerOf(db)).toEqual(LEDGER);
      db.close();
    }
  });

  test('a count the older code never recorded is refused, and the file left as it was', () => {
    const db = new Database(':memory:');
    db.pragma('user_version = 40');
    expect(() => migrateSqlite(db)).toThrow(
      "the database's old migration count (40) is not one Localboard ever recorded on sqlite (0 to 23)",
    );
    expect(sqliteSchema(db)).toEqual([]);
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE name = 'schema_migrations'").all(),
    ).toEqual([]);
    db.close();
  });
});

describe.runIf(onPostgres())('PostgreSQL', () => {
  /** Every column, index and constraint of the connection's schema, but the ledgers'. */
  async function postgresSchema(pool: pg.Pool) {
    const query = async (text: string) => (await pool.query(text)).rows;
    return {
      columns: await query(`SELECT table_name, column_name, data_type, is_nullable, column_default,
          collation_name FROM information_schema.columns
        WHERE table_schema = current_schema()
          AND table_name NOT IN ('schema_migrations', 'schema_version')
        ORDER BY table_name, column_name`),
      indexes: await query(`SELECT indexname, replace(indexdef, current_schema() || '.', '') AS def
        FROM pg_indexes WHERE schemaname = current_schema()
          AND tablename NOT IN ('schema_migrations', 'schema_version')
        ORDER BY indexname`),
      constraints: await query(`SELECT c.conname, t.relname, pg_get_constraintdef(c.oid) AS def
        FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
        WHERE c.connamespace = current_schema()::regnamespace
          AND t.relname NOT IN ('schema_migrations', 'schema_version')
        ORDER BY t.relname, c.conname`),
    };
  }

  async function withSchema<T>(work: (pool: pg.Pool) => Promise<T>): Promise<T> {
    const pool = new pg.Pool({
      connectionString: await newPostgresSchemaUrl(testPostgresUrl()!),
      max: 1,
    });
    try {
      return await work(pool);
    } finally {
      await pool.end();
    }
  }

  test('every count the older code recorded goes on to the same schema, its times kept', async () => {
    const schema = await withSchema(async (pool) => {
      await migratePostgres(pool);
      expect(
        (await pool.query('SELECT number, name FROM schema_migrations ORDER BY number')).rows,
      ).toEqual(LEDGER);
      return postgresSchema(pool);
    });
    const old = migrationsOn('postgres').slice(0, OLD_COUNTS.postgres);
    expect(old).toHaveLength(18);
    for (const count of [0, 1, 2, 3, 12, 16, 17, 18])
      await withSchema(async (pool) => {
        // As the older code migrated: PostgreSQL's own list, one schema_version row each.
        await pool.query(`CREATE TABLE schema_version (
          version integer PRIMARY KEY, applied_at text NOT NULL)`);
        const times: string[] = [];
        for (const [index, sql] of old.slice(0, count).entries()) {
          times.push(`2026-01-${String(index + 1).padStart(2, '0')}T00:00:00.000Z`);
          await pool.query(sql);
          await pool.query('INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)', [
            index + 1,
            times[index],
          ]);
        }
        await migratePostgres(pool);
        expect({ count, schema: await postgresSchema(pool) }).toEqual({ count, schema });
        const ledger = (
          await pool.query('SELECT number, name, applied_at FROM schema_migrations ORDER BY number')
        ).rows as { number: number; name: string; applied_at: string }[];
        expect(ledger.map(({ number, name }) => ({ number, name }))).toEqual(LEDGER);
        // The migrations it had keep the times it had them at, under their new numbers.
        for (let n = 1; n <= count; n++)
          expect(
            ledger.find((row) => row.number === numberOfOldCount('postgres', n)),
          ).toMatchObject({ applied_at: times[n - 1] });
        // The old ledger is left as it was, for an older instance starting beside this one.
        expect((await pool.query('SELECT count(*)::int AS n FROM schema_version')).rows).toEqual([
          { n: count },
        ]);
      });
  });
});
