// Upgrading the database keeps everything: a database made with the migrations before email
// verification (versions 1–2), or before posting (version 3), with an account in it, is migrated
// to the current version when the server opens it, and the account still signs in (with the
// session it had), now with a verification status, links, a role and room for its ads. A database
// from before reports weighed their reporters (version 6) keeps its reports as each reporter's
// first, still one per reporter and ad, and a decided one may be followed by another once the ad
// was edited.
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createHashingPool } from '../../../server/auth/hashing-pool.ts';
import { passwordHasher } from '../../../server/auth/passwords.ts';
import { hashToken } from '../../../server/auth/session-cookie.ts';
import { MIGRATIONS } from '../../../server/store/sqlite-migrations.ts';
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
const BEFORE_WEIGHING_REPORTERS = 6;
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

  t = await openTestApp(dir);
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

  t = await openTestApp(dir);
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

test("reports from before the weighing stay one per reporter, until a decided one's ad is edited", async () => {
  t?.remove();
  const dir = mkdtempSync(join(tmpdir(), 'localboard-migrate-'));
  const old = databaseAtVersion(dir, BEFORE_WEIGHING_REPORTERS);
  const at = '2026-10-01T00:00:00.000Z';
  const hash = await passwordHasher(pool).hash(PASSWORD);
  const account = (email: string) =>
    Number(
      old
        .prepare(
          `INSERT INTO accounts (email, password_hash, date_of_birth, terms_accepted_at,
             created_at, email_verified_at) VALUES (?, ?, '1985-02-03', ?, ?, ?)`,
        )
        .run(email, hash, at, at, at).lastInsertRowid,
    );
  const poster = account('poster@example.com');
  const reporter = account('reporter@example.com');
  const today = new Date().toISOString().slice(0, 10);
  const inMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const ad = (title: string) =>
    Number(
      old
        .prepare(
          `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description, status,
             created_at, submitted_at, approved_at, posted_on, expires_on, updated_at)
           VALUES (?, 'Ohio', 'Columbus', 40, 'm4w', ?, 'Walks by the river.', 'live', ?, ?, ?, ?,
             ?, ?)`,
        )
        .run(poster, title, at, at, at, today, inMonth, at).lastInsertRowid,
    );
  const decided = ad('Decided before the upgrade');
  const open = ad('Reported before the upgrade');
  const copy = (id: number, title: string) =>
    JSON.stringify({
      kind: 'member',
      id,
      state: 'Ohio',
      city: 'Columbus',
      age: 40,
      seeks: 'm4w',
      title,
      description: 'Walks by the river.',
      postedAt: today,
      sample: false,
    });
  const insertReport = old.prepare(
    `INSERT INTO reports (ad_id, reported_account_id, reporter_key, reporter_account_id, reason,
       ad_copy, created_at, resolved_at, resolution, resolved_by)
     VALUES (?, ?, ?, ?, 'spam', ?, ?, ?, ?, NULL)`,
  );
  insertReport.run(
    decided,
    poster,
    `account:${reporter}`,
    reporter,
    copy(decided, 'Decided before the upgrade'),
    at,
    at,
    'dismissed',
  );
  insertReport.run(
    open,
    poster,
    `account:${reporter}`,
    reporter,
    copy(open, 'Reported before the upgrade'),
    at,
    null,
    null,
  );
  old.close();

  const upgraded = await openTestApp(dir);
  t = upgraded;
  expect(t.db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  expect(
    t.db
      .prepare('SELECT reporter_round AS round, reporter_dismissed AS dismissed FROM reports')
      .all(),
  ).toEqual([
    { round: 1, dismissed: 0 },
    { round: 1, dismissed: 0 },
  ]);
  const indexes = (
    t.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reports'")
      .all() as {
      name: string;
    }[]
  ).map((row) => row.name);
  expect(indexes).toContain('reports_one_per_reporter_ad_and_round');
  expect(indexes).not.toContain('reports_one_per_reporter_and_ad');

  const signedIn = await postJson(t.app, '/api/signin', {
    email: 'reporter@example.com',
    password: PASSWORD,
  });
  const session = cookieHeader(sessionTokenOf(signedIn));
  const reportAgain = (id: number) =>
    postJson(upgraded.app, '/api/reports', { ad: id, reason: 'spam' }, session);
  // Still one report per reporter and ad: the open one, and the decided one of an unchanged ad.
  expect((await reportAgain(open)).status).toBe(409);
  expect((await reportAgain(decided)).status).toBe(409);
  // The index holds too, whatever the route would allow.
  expect(() =>
    upgraded.db
      .prepare(
        `INSERT INTO reports (ad_id, reporter_key, reason, ad_copy, created_at)
         VALUES (?, ?, 'spam', '{}', ?)`,
      )
      .run(open, `account:${reporter}`, at),
  ).toThrow(/UNIQUE constraint failed/);
  // Edited since it was decided: a second report, as the reporter's round 2.
  t.db
    .prepare("UPDATE member_ads SET title = 'Edited after the upgrade' WHERE id = ?")
    .run(decided);
  expect((await reportAgain(decided)).status).toBe(201);
  expect(
    t.db
      .prepare('SELECT reporter_round AS round FROM reports WHERE ad_id = ? ORDER BY id')
      .all(decided),
  ).toEqual([{ round: 1 }, { round: 2 }]);
});
