// Upgrading the database keeps everything: a database made with the migrations before email
// verification (versions 1–2), or before posting (version 3), with an account in it, is migrated
// to the current version when the server opens it, and the account still signs in (with the
// session it had), now with a verification status, links, a role and room for its ads.
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createHashingPool } from '../../../server/auth/hashing-pool.ts';
import { passwordHasher } from '../../../server/auth/passwords.ts';
import { hashToken } from '../../../server/auth/session-cookie.ts';
import { MIGRATIONS } from '../../../server/db/migrations.ts';
import {
  cookieHeader,
  openTestApp,
  ORIGIN,
  PASSWORD,
  postJson,
  sessionTokenOf,
  writeTestSite,
  type TestApp,
} from '../../helpers/api.ts';

process.env.PASSWORD_HASH_COST = String(2 ** 14);

const BEFORE_EMAIL_LINKS = 2;
const BEFORE_POSTING = 3;
const pool = createHashingPool({ threads: 1 });
let t: TestApp | undefined;
afterAll(async () => {
  t?.remove();
  await pool.close();
});

/** A database made by the migrations up to `version`, as that code left it. */
function databaseAtVersion(dir: string, version: number): Database.Database {
  mkdirSync(join(dir, 'site'));
  writeTestSite(join(dir, 'site'));
  const old = new Database(join(dir, 'localboard.sqlite'));
  MIGRATIONS.slice(0, version).forEach((sql, index) => {
    old.exec(sql);
    old.pragma(`user_version = ${index + 1}`);
  });
  return old;
}

test('an account made before email verification still signs in after the upgrade', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'localboard-migrate-'));
  const old = databaseAtVersion(dir, BEFORE_EMAIL_LINKS);
  const hash = await passwordHasher(pool).hash(PASSWORD);
  old
    .prepare(
      `INSERT INTO accounts (email, password_hash, date_of_birth, terms_accepted_at, created_at)
       VALUES (?, ?, '1990-05-04', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
    )
    .run('early@example.com', hash);
  old.close();

  t = openTestApp(dir);
  expect(t.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  const account = t.db
    .prepare('SELECT email, date_of_birth, email_verified_at FROM accounts')
    .all();
  expect(account).toEqual([
    { email: 'early@example.com', date_of_birth: '1990-05-04', email_verified_at: null },
  ]);

  const signedIn = await postJson(t.app, '/api/signin', {
    email: 'early@example.com',
    password: PASSWORD,
  });
  expect(signedIn.status).toBe(200);
  const me = await t.app.request(`${ORIGIN}/api/me`, {
    headers: cookieHeader(sessionTokenOf(signedIn)),
  });
  expect(await me.json()).toEqual({ email: 'early@example.com', emailVerified: false, unread: 0 });
  // The new table works for the old account: a reset link can be asked for.
  expect((await postJson(t.app, '/api/forgot', { email: 'early@example.com' })).status).toBe(200);
  expect(t.db.prepare('SELECT COUNT(*) AS n FROM email_tokens').get()).toEqual({ n: 1 });
});

test('a verified member from before posting keeps their session and sign-in, and can hold ads', async () => {
  t?.remove();
  const dir = mkdtempSync(join(tmpdir(), 'localboard-migrate-'));
  const old = databaseAtVersion(dir, BEFORE_POSTING);
  const hash = await passwordHasher(pool).hash(PASSWORD);
  old
    .prepare(
      `INSERT INTO accounts (email, password_hash, date_of_birth, terms_accepted_at, created_at,
         email_verified_at)
       VALUES (?, ?, '1985-02-03', '2026-10-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z',
         '2026-10-01T00:05:00.000Z')`,
    )
    .run('member@example.com', hash);
  // A session opened before the upgrade.
  const token = 'session-from-before-the-upgrade';
  old
    .prepare(
      `INSERT INTO sessions (token_hash, account_id, created_at, expires_at)
       VALUES (?, 1, '2026-11-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z')`,
    )
    .run(hashToken(token));
  old.close();

  t = openTestApp(dir);
  expect(t.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  expect(
    t.db.prepare('SELECT email, role, banned_at, email_verified_at FROM accounts').all(),
  ).toEqual([
    {
      email: 'member@example.com',
      role: 'member',
      banned_at: null,
      email_verified_at: '2026-10-01T00:05:00.000Z',
    },
  ]);
  const kept = await t.app.request(`${ORIGIN}/api/me`, { headers: cookieHeader(token) });
  expect(await kept.json()).toEqual({
    email: 'member@example.com',
    emailVerified: true,
    unread: 0,
  });
  const signedIn = await postJson(t.app, '/api/signin', {
    email: 'member@example.com',
    password: PASSWORD,
  });
  expect(signedIn.status).toBe(200);
  const me = await t.app.request(`${ORIGIN}/api/me`, {
    headers: cookieHeader(sessionTokenOf(signedIn)),
  });
  expect(await me.json()).toEqual({ email: 'member@example.com', emailVerified: true, unread: 0 });
  // Member ads are numbered far above the editors' CSV ids.
  const stored = t.db
    .prepare(
      `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description, status,
         created_at, submitted_at, updated_at)
       VALUES (1, 'Ohio', 'Columbus', 40, 'm4w', 'Hello', 'Hi there', 'review', 'now', 'now', 'now')`,
    )
    .run();
  expect(stored.lastInsertRowid).toBe(100000001);
});
