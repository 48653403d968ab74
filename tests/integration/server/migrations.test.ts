// Upgrading the database keeps everything: a database made with the migrations before email
// verification (versions 1–2), with an account in it, is migrated to the current version when the
// server opens it, and the account still signs in, now with a verification status and links.
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createHashingPool } from '../../../server/auth/hashing-pool.ts';
import { passwordHasher } from '../../../server/auth/passwords.ts';
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
const pool = createHashingPool({ threads: 1 });
let t: TestApp | undefined;
afterAll(async () => {
  t?.remove();
  await pool.close();
});

test('an account made before email verification still signs in after the upgrade', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'localboard-migrate-'));
  mkdirSync(join(dir, 'site'));
  writeTestSite(join(dir, 'site'));
  const old = new Database(join(dir, 'localboard.sqlite'));
  MIGRATIONS.slice(0, BEFORE_EMAIL_LINKS).forEach((sql, index) => {
    old.exec(sql);
    old.pragma(`user_version = ${index + 1}`);
  });
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
  expect(await me.json()).toEqual({ email: 'early@example.com', emailVerified: false });
  // The new table works for the old account: a reset link can be asked for.
  expect((await postJson(t.app, '/api/forgot', { email: 'early@example.com' })).status).toBe(200);
  expect(t.db.prepare('SELECT COUNT(*) AS n FROM email_tokens').get()).toEqual({ n: 1 });
});
