// `npm run backup -- FILE` (server/operations/backup.ts), run as the operator runs it, as a
// process, while the server writes: the copy opens, holds the rows written before it was made,
// and is one private file. An existing file is kept unless --force; PostgreSQL is pg_dump's.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USE_PG_DUMP } from '../../../server/operations/backup.ts';
import { openSqliteEngine } from '../../../store/sqlite-engine.ts';
import { testAppsForEachTest, type TestApp } from '../../helpers/api.ts';
import { onPostgres, testSql } from '../../helpers/test-store.ts';
import { accountInStore } from '../../helpers/store-accounts.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

const root = join(import.meta.dirname, '..', '..', '..');

const apps = testAppsForEachTest();

const app = () => apps.open();

/** `npm run backup -- ...args`, as a process; resolves with its exit code and its lines. */
function backup(args: string[], env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!('DATABASE_URL' in env)) delete childEnv.DATABASE_URL;
  const child = spawn('npm', ['run', '--silent', 'backup', '--', ...args], {
    cwd: root,
    env: childEnv,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise<{ code: number | null; lines: string[] }>((resolve) =>
    child.once('close', (code) =>
      resolve({
        code,
        lines: output
          .split('\n')
          .filter((line) => line.trim() !== '' && !line.startsWith('npm warn')),
      }),
    ),
  );
}

/** Opens a copy read-only, as a restore would find it. */
async function inCopy<T>(file: string, read: (sql: ReturnType<typeof testSql>) => Promise<T>) {
  const engine = openSqliteEngine(file, { readOnly: true });
  try {
    return await read(testSql(engine.db));
  } finally {
    await engine.close();
  }
}

/** A member's account, made through the store as sign-up makes it; its id. */
async function addAccount(t: TestApp): Promise<number> {
  return accountInStore(t.store, 'ana@example.com', {
    at: '2026-11-01T00:00:00.000Z',
    verified: false,
  });
}

const sessionCount = async (sql: ReturnType<typeof testSql>) =>
  (await storedRow<{ n: number }>(sql, 'SELECT count(*) AS n FROM sessions'))!.n;

// The SQLite default's command: the PostgreSQL suite has nothing of its own to run here.
describe.skipIf(onPostgres())('npm run backup -- FILE', () => {
  it('copies the database while the server writes to it: the copy opens, with its rows', async () => {
    const t = await app();
    const accountId = await addAccount(t);
    const write = () =>
      t.store.sessions.create(
        randomBytes(32),
        accountId,
        new Date().toISOString(),
        '2099-01-01T00:00:00.000Z',
      );
    for (let i = 0; i < 200; i++) await write();
    const before = await sessionCount(t.sql);

    const file = join(t.dir, 'backups', 'localboard-copy.sqlite');
    const running = backup([file], { DATABASE_PATH: t.dbPath });
    let done = false;
    void running.then(() => (done = true));
    let writes = 0;
    while (!done) {
      await write();
      writes += 1;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    const answer = await running;
    const after = await sessionCount(t.sql);

    expect(answer.code).toBe(0);
    expect(answer.lines).toHaveLength(1);
    expect(answer.lines[0]).toMatch(
      /^Backed up .*localboard\.sqlite to .*localboard-copy\.sqlite \(\d+ KiB\)\.$/,
    );
    expect(writes).toBeGreaterThan(10);
    const copied = await inCopy(file, async (sql) => ({
      integrity: (await storedRow<{ integrity_check: string }>(sql, 'PRAGMA integrity_check'))!
        .integrity_check,
      journal: (await storedRow<{ journal_mode: string }>(sql, 'PRAGMA journal_mode'))!
        .journal_mode,
      sessions: await sessionCount(sql),
      account: await storedRow<{ email: string }>(
        sql,
        'SELECT email FROM accounts WHERE id = ?',
        accountId,
      ),
    }));
    expect(copied.integrity).toBe('ok');
    expect(copied.account).toEqual({ email: 'ana@example.com' });
    // Everything written before the backup began, and nothing that was not written.
    expect(copied.sessions).toBeGreaterThanOrEqual(before);
    expect(copied.sessions).toBeLessThanOrEqual(after);
    // One self-contained file, readable by its owner only, and nothing left beside it.
    expect(copied.journal).toBe('delete');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(t.dir, 'backups'))).toEqual(['localboard-copy.sqlite']);
  });

  it('keeps an existing file unless told to replace it (--force)', async () => {
    const t = await app();
    const accountId = await addAccount(t);
    const file = join(t.dir, 'existing.sqlite');
    writeFileSync(file, 'yesterday’s backup');

    const refused = await backup([file], { DATABASE_PATH: t.dbPath });
    expect(refused.code).toBe(1);
    expect(refused.lines).toEqual([
      `${file} exists: add --force to replace it, or name another file.`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe('yesterday’s backup');

    const forced = await backup([file, '--force'], { DATABASE_PATH: t.dbPath });
    expect(forced.code).toBe(0);
    const email = await inCopy(file, (sql) =>
      storedRow<{ email: string }>(sql, 'SELECT email FROM accounts WHERE id = ?', accountId),
    );
    expect(email).toEqual({ email: 'ana@example.com' });
  });

  it('with DATABASE_URL (PostgreSQL): one line naming pg_dump, exit 1, nothing written', async () => {
    const t = await app();
    const file = join(t.dir, 'copy.sqlite');
    const answer = await backup([file], {
      DATABASE_URL: 'postgres://localboard@127.0.0.1:1/localboard',
    });
    expect(answer).toEqual({ code: 1, lines: [USE_PG_DUMP] });
    expect(USE_PG_DUMP).toContain('pg_dump');
    expect(existsSync(file)).toBe(false);
  });

  it('without a database there, says so and creates none', async () => {
    const t = await app();
    const missing = join(t.dir, 'no-such.sqlite');
    const answer = await backup([join(t.dir, 'copy.sqlite')], { DATABASE_PATH: missing });
    expect(answer).toEqual({
      code: 1,
      lines: [`No database at ${missing} (DATABASE_PATH): nothing to back up.`],
    });
    expect(existsSync(missing)).toBe(false);
  });

  it('without a file: the usage, exit 2', async () => {
    const t = await app();
    const answer = await backup([], { DATABASE_PATH: t.dbPath });
    expect(answer.code).toBe(2);
    expect(answer.lines).toHaveLength(1);
    expect(answer.lines[0]).toMatch(/^Usage: npm run backup -- FILE \[--force\]/);
  });
});
