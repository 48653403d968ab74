// `npm run moderator -- add EMAIL` / `remove EMAIL`, run as the operator runs it, as a process on a
// temporary database: one line of answer, exit codes, the role stored, each change in the log as
// `operator`; an unknown address changes nothing.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/api.ts';
import { signUpMember, type TestMember } from '../../helpers/moderation.ts';

process.env.PASSWORD_HASH_COST = String(2 ** 14);

const root = join(import.meta.dirname, '..', '..', '..');
let t: TestApp;
let member: TestMember;
beforeAll(async () => {
  t = await makeTestApp();
  member = await signUpMember(t.app, t.store, 'cli');
  // The command opens the file itself, as it would beside a running server.
  t.close();
});
afterAll(() => t.remove());

function moderator(...args: string[]) {
  const run = spawnSync('npm', ['run', '--silent', 'moderator', '--', ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_PATH: t.dbPath },
    encoding: 'utf8',
  });
  const output = `${run.stdout}${run.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));
  return { code: run.status, output };
}

function stored() {
  const db = new Database(t.dbPath, { readonly: true });
  try {
    return {
      role: (
        db.prepare('SELECT role FROM accounts WHERE email = ?').get(member.email) as {
          role: string;
        }
      ).role,
      log: db
        .prepare('SELECT moderator_email, action, account_email FROM moderation_log ORDER BY id')
        .all(),
    };
  } finally {
    db.close();
  }
}

describe('npm run moderator', () => {
  test('add: the member becomes a moderator, logged as the operator; again: nothing to do', () => {
    expect(moderator('add', member.email.toUpperCase())).toEqual({
      code: 0,
      output: [`${member.email} is now a moderator (logged in the moderation log).`],
    });
    expect(stored()).toEqual({
      role: 'moderator',
      log: [{ moderator_email: 'operator', action: 'grant-role', account_email: member.email }],
    });
    expect(moderator('add', member.email)).toEqual({
      code: 0,
      output: [`${member.email} is already a moderator: nothing changed.`],
    });
    expect(stored().log).toHaveLength(1);
  });

  test('remove: the role goes, logged; again: not a moderator', () => {
    expect(moderator('remove', member.email)).toEqual({
      code: 0,
      output: [`${member.email} is no longer a moderator (logged in the moderation log).`],
    });
    expect(stored().role).toBe('member');
    expect(stored().log.at(-1)).toEqual({
      moderator_email: 'operator',
      action: 'revoke-role',
      account_email: member.email,
    });
    expect(moderator('remove', member.email)).toEqual({
      code: 0,
      output: [`${member.email} is not a moderator: nothing changed.`],
    });
  });

  test('an address without an account: exit 1, nothing changed', () => {
    const before = stored();
    const answer = moderator('add', 'nobody@example.com');
    expect(answer.code).toBe(1);
    expect(answer.output).toEqual([`No account with the email nobody@example.com in ${t.dbPath}.`]);
    expect(stored()).toEqual(before);
  });

  test('anything else: the usage, exit 2', () => {
    for (const args of [[], ['promote', member.email], ['add'], ['add', 'a@b.c', 'extra']]) {
      const answer = moderator(...args);
      expect(answer.code).toBe(2);
      expect(answer.output).toEqual([
        'Usage: npm run moderator -- add EMAIL | remove EMAIL (gives or takes the moderator role)',
      ]);
    }
  });
});
