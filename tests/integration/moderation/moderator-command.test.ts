// `npm run moderator -- add EMAIL` / `remove EMAIL`, run as the operator runs it: a process on the
// test's database (DATABASE_PATH, or DATABASE_URL in the PostgreSQL suite), which the test holds
// open as a running server would. One line of answer, exit codes, the role stored, each change in
// the log as `operator`; an unknown address changes nothing; an unreachable database is one line
// and exit 1.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { onPostgres, openTestStore, type TestStore } from '../../helpers/test-store.ts';
import { accountInStore } from '../../helpers/store-accounts.ts';
import { storedRow, storedRows } from '../../helpers/stored-rows.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const member = { email: 'cli-member@example.com' };
let dir: string;
let t: TestStore;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'localboard-moderator-'));
  t = await openTestStore(dir);
  expect(await accountInStore(t.store, member.email, { verified: false })).toBe(1);
});
afterAll(async () => {
  await t.store.close();
  rmSync(dir, { recursive: true, force: true });
});

function moderator(args: string[], env: Record<string, string> = t.env) {
  const { DATABASE_URL: _url, DATABASE_PATH: _path, ...rest } = process.env;
  const run = spawnSync('npm', ['run', '--silent', 'moderator', '--', ...args], {
    cwd: root,
    env: { ...rest, ...env },
    encoding: 'utf8',
  });
  const output = `${run.stdout}${run.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
  return { code: run.status, output };
}

async function stored() {
  const account = await storedRow<{ role: string }>(
    t,
    'SELECT role FROM accounts WHERE email = ?',
    member.email,
  );
  return {
    role: account!.role,
    log: await storedRows(
      t,
      'SELECT moderator_email, action, account_email FROM moderation_log ORDER BY id',
    ),
  };
}

describe('npm run moderator', () => {
  test('add: the member becomes a moderator, logged as the operator; again: nothing to do', async () => {
    expect(moderator(['add', member.email.toUpperCase()])).toEqual({
      code: 0,
      output: [`${member.email} is now a moderator (logged in the moderation log).`],
    });
    expect(await stored()).toEqual({
      role: 'moderator',
      log: [{ moderator_email: 'operator', action: 'grant-role', account_email: member.email }],
    });
    expect(moderator(['add', member.email])).toEqual({
      code: 0,
      output: [`${member.email} is already a moderator: nothing changed.`],
    });
    expect((await stored()).log).toHaveLength(1);
  });

  test('remove: the role goes, logged; again: not a moderator', async () => {
    expect(moderator(['remove', member.email])).toEqual({
      code: 0,
      output: [`${member.email} is no longer a moderator (logged in the moderation log).`],
    });
    expect((await stored()).role).toBe('member');
    expect((await stored()).log.at(-1)).toEqual({
      moderator_email: 'operator',
      action: 'revoke-role',
      account_email: member.email,
    });
    expect(moderator(['remove', member.email])).toEqual({
      code: 0,
      output: [`${member.email} is not a moderator: nothing changed.`],
    });
  });

  test('an address without an account: exit 1, nothing changed', async () => {
    const before = await stored();
    const answer = moderator(['add', 'nobody@example.com']);
    expect(answer.code).toBe(1);
    // The database as the operator named it: the file, or the URL without its password.
    const where = 'DATABASE_PATH' in t.env ? t.env.DATABASE_PATH : t.store.describe;
    expect(answer.output).toEqual([`No account with the email nobody@example.com in ${where}.`]);
    expect(await stored()).toEqual(before);
  });

  test('an unreachable database: one line, exit 1', () => {
    const answer = moderator(['add', member.email], {
      DATABASE_URL: 'postgres://operator:secret@127.0.0.1:1/localboard',
    });
    expect(answer.code).toBe(1);
    expect(answer.output).toHaveLength(1);
    expect(answer.output[0]).toMatch(
      /^PostgreSQL at postgres:\/\/operator:\*\*\*@127\.0\.0\.1:1\/localboard cannot be used: /,
    );
  });

  // The command's arguments, read before any database is opened: run once, on SQLite.
  test.skipIf(onPostgres())('anything else: the usage, exit 2', () => {
    for (const args of [[], ['promote', member.email], ['add'], ['add', 'a@b.c', 'extra']]) {
      const answer = moderator(args);
      expect(answer.code).toBe(2);
      expect(answer.output).toEqual([
        'Usage: npm run moderator -- add EMAIL | remove EMAIL (gives or takes the moderator role)',
      ]);
    }
  });
});
