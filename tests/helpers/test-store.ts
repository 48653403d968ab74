// The store a test runs on: a SQLite file in the test's folder, or, in the PostgreSQL suite
// (vitest project `postgres`), a schema of its own in the run's throwaway cluster
// (postgres-global-setup.ts). `sql` reads and writes rows directly, the same text on both engines:
// `?` placeholders, portable SQL (no `x IS NULL AS flag`: SQLite answers 0/1, PostgreSQL true/false).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { StoreEngine } from '../../store/engine.ts';
import { openPostgresEngine } from '../../store/postgres-engine.ts';
import { openSqliteEngine } from '../../store/sqlite-engine.ts';
import { storeOn, type StoreHandle } from '../../store/store.ts';
import type { Tables } from '../../store/tables.ts';
import { providedBySuite } from './suite-provided.ts';

export interface TestSql {
  all<T = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<T[]>;
  get<T = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<T | undefined>;
  /** Runs a statement; answers the rows it changed. */
  run(text: string, ...params: unknown[]): Promise<number>;
}

export interface TestStore {
  store: StoreHandle;
  sql: TestSql;
  kind: StoreEngine['kind'];
  /** How another process opens the same store: DATABASE_URL or DATABASE_PATH. */
  env: { DATABASE_URL: string } | { DATABASE_PATH: string };
}

/** The PostgreSQL suite's cluster, or undefined in every other suite. */
export const testPostgresUrl = (): string | undefined => providedBySuite('postgresUrl');

export const onPostgres = () => testPostgresUrl() !== undefined;

/** A new schema of the suite's cluster, as a URL whose connections use it. */
export async function newPostgresSchemaUrl(baseUrl: string): Promise<string> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = await openPostgresEngine(baseUrl, { readOnly: true, poolSize: 1 });
  try {
    await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(admin.db);
  } finally {
    await admin.close();
  }
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/**
 * Opens the test's store in `dir`: the SQLite file `localboard.sqlite` there, or a new schema
 * whose URL is kept in `postgres-url` there; opened again, the same (a server restart).
 */
export async function openTestStore(dir: string): Promise<TestStore> {
  const base = testPostgresUrl();
  let engine: StoreEngine;
  let env: TestStore['env'];
  if (base) {
    const urlFile = join(dir, 'postgres-url');
    const url = existsSync(urlFile)
      ? readFileSync(urlFile, 'utf8')
      : await newPostgresSchemaUrl(base);
    writeFileSync(urlFile, url);
    engine = await openPostgresEngine(url, { poolSize: 4 });
    env = { DATABASE_URL: url };
  } else {
    const path = join(dir, 'localboard.sqlite');
    engine = openSqliteEngine(path);
    env = { DATABASE_PATH: path };
  }
  return { store: storeOn(engine), sql: testSql(engine.db), kind: engine.kind, env };
}

/** The SQLite store at `path` and its rows (the e2e servers' own file). */
export function openSqliteTestStore(path: string): Pick<TestStore, 'store' | 'sql'> {
  const engine = openSqliteEngine(path);
  return { store: storeOn(engine), sql: testSql(engine.db) };
}

/** `?` placeholders bound in order, as both engines take them through Kysely. */
function query(text: string, params: readonly unknown[]): RawBuilder<Record<string, unknown>> {
  const parts = text.split('?');
  if (parts.length - 1 !== params.length)
    throw new Error(`${params.length} parameters for ${parts.length - 1} placeholders: ${text}`);
  let built: RawBuilder<unknown> = sql.raw(parts[0]!);
  parts.slice(1).forEach((part, index) => {
    built = sql`${built}${params[index]}${sql.raw(part)}`;
  });
  return built as RawBuilder<Record<string, unknown>>;
}

export function testSql(db: Kysely<Tables>): TestSql {
  return {
    async all<T>(text: string, ...params: unknown[]) {
      return (await query(text, params).execute(db)).rows as T[];
    },
    async get<T>(text: string, ...params: unknown[]) {
      return (await query(text, params).execute(db)).rows[0] as T | undefined;
    },
    async run(text: string, ...params: unknown[]) {
      const result = await query(text, params).execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
  };
}

/**
 * A store of its own for each test of the file (a new folder, a new SQLite file or PostgreSQL
 * schema), closed and removed after the test. The object is filled in by `beforeEach`: read it
 * inside tests (and later hooks) only.
 */
export function storeForEachTest(): TestStore & { dir: string } {
  const t = {} as TestStore & { dir: string };
  beforeEach(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'localboard-store-'));
    Object.assign(t, await openTestStore(dir), { dir });
  });
  afterEach(async () => {
    await t.store.close();
    rmSync(t.dir, { recursive: true, force: true });
  });
  return t;
}
