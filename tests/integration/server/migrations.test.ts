// Upgrading the database keeps everything.
//
// SQLite: a database made with the migrations before email verification (versions 1–2), or before
// posting (version 3), with an account in it, is migrated to the current version when the server
// opens it, and the account still signs in (with the session it had), now with a verification
// status, links, a role and room for its ads. A database from before reports weighed their
// reporters (version 6) keeps its reports as each reporter's first, still one per reporter and
// ad, and a decided one may be followed by another once the ad was edited.
//
// PostgreSQL (the postgres suite): a schema at its first version, with a row in every table a
// member's data is in, is brought to the current version, and the store reads every row back and
// goes on from them. Every later migration runs over those rows as it is added.
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { openAccount } from '../../../server/accounts/new-account.ts';
import { createHashingPool } from '../../../server/auth/hashing-pool.ts';
import { passwordHasher } from '../../../server/auth/passwords.ts';
import { hashToken } from '../../../server/auth/session-cookie.ts';
import { openStore } from '../../../store/open-store.ts';
import { migratePostgres } from '../../../store/postgres-engine.ts';
import { MIGRATIONS, migrationsOn } from '../../../store/migrations/migrations.ts';
import {
  meWithNothingNew,
  cookieHeader,
  openTestApp,
  ORIGIN,
  PASSWORD,
  postJson,
  sessionTokenOf,
  writeTestSite,
  type TestApp,
} from '../../helpers/api.ts';
import { newPostgresSchemaUrl, onPostgres, testPostgresUrl } from '../../helpers/test-store.ts';
import { forgotApiPath, meApiPath, reportsApiPath, signinApiPath } from '../../../core/paths.ts';

// SQLite's own counts before the one numbering (store/migrations/ledger.ts): these databases are
// made as the older code made them, and counted as it counted them.
const BEFORE_EMAIL_LINKS = 2;
const BEFORE_POSTING = 3;
const BEFORE_WEIGHING_REPORTERS = 6;
const BEFORE_REQUESTS = 19;
const pool = createHashingPool({ threads: 1 });
let t: TestApp | undefined;
afterAll(async () => {
  await t?.remove();
  await pool.close();
});

/** A database made by SQLite's first `version` migrations, as the older code left it. */
function databaseAtVersion(dir: string, version: number): Database.Database {
  mkdirSync(join(dir, 'site'));
  writeTestSite(join(dir, 'site'));
  const old = new Database(join(dir, 'localboard.sqlite'));
  migrationsOn('sqlite')
    .slice(0, version)
    .forEach((sql, index) => {
      old.exec(sql);
      old.pragma(`user_version = ${index + 1}`);
    });
  return old;
}

/** Signs in as `email` (PASSWORD) on the migrated app: what /api/me then answers. */
async function meAfterSigningIn(testApp: TestApp, email: string): Promise<unknown> {
  const signedIn = await postJson(testApp.app, signinApiPath(), { email, password: PASSWORD });
  expect(signedIn.status).toBe(200);
  const me = await testApp.app.request(`${ORIGIN}${meApiPath()}`, {
    headers: cookieHeader(sessionTokenOf(signedIn)),
  });
  return me.json();
}

describe.skipIf(onPostgres())('SQLite', () => {
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
    expect(await t.store.schemaVersion()).toBe(MIGRATIONS.length);
    const account = await t.sql.all('SELECT email, date_of_birth, email_verified_at FROM accounts');
    expect(account).toEqual([
      { email: 'early@example.com', date_of_birth: '1990-05-04', email_verified_at: null },
    ]);

    expect(await meAfterSigningIn(t, 'early@example.com')).toEqual(
      meWithNothingNew('early@example.com'),
    );
    // The new table works for the old account: a reset link can be asked for.
    expect((await postJson(t.app, forgotApiPath(), { email: 'early@example.com' })).status).toBe(
      200,
    );
    expect(await t.sql.all('SELECT account_id FROM email_tokens')).toEqual([{ account_id: 1 }]);
  });

  test('a verified member from before posting keeps their session and sign-in, and can hold ads', async () => {
    await t?.remove();
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
    expect(await t.store.schemaVersion()).toBe(MIGRATIONS.length);
    expect(
      await t.sql.all('SELECT email, role, banned_at, email_verified_at FROM accounts'),
    ).toEqual([
      {
        email: 'member@example.com',
        role: 'member',
        banned_at: null,
        email_verified_at: '2026-10-01T00:05:00.000Z',
      },
    ]);
    const kept = await t.app.request(`${ORIGIN}${meApiPath()}`, { headers: cookieHeader(token) });
    expect(await kept.json()).toEqual(meWithNothingNew('member@example.com', true));
    expect(await meAfterSigningIn(t, 'member@example.com')).toEqual(
      meWithNothingNew('member@example.com', true),
    );
    // Member ads are numbered far above the editors' CSV ids.
    const stored = await t.sql.get(
      `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description, status,
       created_at, submitted_at, updated_at)
     VALUES (1, 'Ohio', 'Columbus', 40, 'm4w', 'Hello', 'Hi there', 'review', 'now', 'now', 'now')
     RETURNING id`,
    );
    expect(stored).toEqual({ id: 100000001 });
  });

  test("reports from before the weighing stay one per reporter, until a decided one's ad is edited", async () => {
    await t?.remove();
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
    expect(await t.store.schemaVersion()).toBe(MIGRATIONS.length);
    expect(
      await t.sql.all(
        'SELECT reporter_round AS round, reporter_dismissed AS dismissed FROM reports',
      ),
    ).toEqual([
      { round: 1, dismissed: 0 },
      { round: 1, dismissed: 0 },
    ]);
    const indexes = (
      await t.sql.all<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reports'",
      )
    ).map((row) => row.name);
    expect(indexes).toContain('reports_one_per_reporter_ad_and_round');
    expect(indexes).not.toContain('reports_one_per_reporter_and_ad');

    const signedIn = await postJson(t.app, signinApiPath(), {
      email: 'reporter@example.com',
      password: PASSWORD,
    });
    const session = cookieHeader(sessionTokenOf(signedIn));
    const reportAgain = (id: number) =>
      postJson(upgraded.app, reportsApiPath(), { ad: id, reason: 'spam' }, session);
    // Still one report per reporter and ad: the open one, and the decided one of an unchanged ad.
    expect((await reportAgain(open)).status).toBe(409);
    expect((await reportAgain(decided)).status).toBe(409);
    // The index holds too, whatever the route would allow.
    await expect(
      upgraded.sql.run(
        `INSERT INTO reports (ad_id, reporter_key, reason, ad_copy, created_at)
       VALUES (?, ?, 'spam', '{}', ?)`,
        open,
        `account:${reporter}`,
        at,
      ),
    ).rejects.toThrow(/UNIQUE constraint failed/);
    // Edited since it was decided: a second report, as the reporter's round 2.
    await t.sql.run(
      "UPDATE member_ads SET title = 'Edited after the upgrade' WHERE id = ?",
      decided,
    );
    expect((await reportAgain(decided)).status).toBe(201);
    expect(
      await t.sql.all(
        'SELECT reporter_round AS round FROM reports WHERE ad_id = ? ORDER BY id',
        decided,
      ),
    ).toEqual([{ round: 1 }, { round: 2 }]);
  });

  test('conversations from before Requests: answered ones are chats, and messages outlive an account', async () => {
    await t?.remove();
    const dir = mkdtempSync(join(tmpdir(), 'localboard-migrate-'));
    const old = databaseAtVersion(dir, BEFORE_REQUESTS);
    const at = '2026-11-01T00:00:00.000Z';
    const run = (sql: string, ...values: unknown[]) => old.prepare(sql).run(...values);
    for (const id of [1, 2, 3])
      run(
        `INSERT INTO accounts (id, email, password_hash, date_of_birth, terms_accepted_at,
           created_at) VALUES (?, ?, 'hash', '1990-01-01', ?, ?)`,
        id,
        `member-${id}@example.com`,
        at,
        at,
      );
    for (const [id, replier] of [
      [1, 2],
      [2, 3],
    ])
      run(
        `INSERT INTO conversations (id, ad_id, ad_title, poster_id, replier_id, started_at,
           last_message_at) VALUES (?, NULL, 'From before', 1, ?, ?, ?)`,
        id,
        replier,
        at,
        at,
      );
    const message = (conversation: number, sender: number, body: string, sentAt: string) =>
      run(
        `INSERT INTO messages (conversation_id, sender_id, body, sent_at, scam_warnings, print)
         VALUES (?, ?, ?, ?, '["money"]', 'abc')`,
        conversation,
        sender,
        body,
        sentAt,
      );
    message(1, 2, 'Hello', '2026-11-01T01:00:00.000Z');
    message(1, 1, 'Hi back', '2026-11-01T02:00:00.000Z');
    message(2, 3, 'Waiting', '2026-11-01T03:00:00.000Z');
    old.close();

    t = await openTestApp(dir);
    expect(await t.store.schemaVersion()).toBe(MIGRATIONS.length);
    expect(await t.sql.all('SELECT id, answered_at FROM conversations ORDER BY id')).toEqual([
      { id: 1, answered_at: '2026-11-01T02:00:00.000Z' },
      { id: 2, answered_at: null },
    ]);
    const ids = async (folder: 'chats' | 'requests') =>
      (await t!.store.conversations.inbox(1, 10, folder)).map((row) => row.conversationId);
    expect(await ids('chats')).toEqual([1]);
    expect(await ids('requests')).toEqual([2]);
    // Every message and its columns came through the table's rebuild, its indexes with it.
    expect(
      await t.sql.all('SELECT id, sender_id, body, scam_warnings, print FROM messages ORDER BY id'),
    ).toEqual([
      { id: 1, sender_id: 2, body: 'Hello', scam_warnings: '["money"]', print: 'abc' },
      { id: 2, sender_id: 1, body: 'Hi back', scam_warnings: '["money"]', print: 'abc' },
      { id: 3, sender_id: 3, body: 'Waiting', scam_warnings: '["money"]', print: 'abc' },
    ]);
    const indexes = (
      await t.sql.all<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' ORDER BY name",
      )
    ).map((row) => row.name);
    expect(indexes).toEqual([
      'messages_by_conversation',
      'messages_by_print',
      'messages_by_sender',
      'messages_kept_until',
    ]);
    // An account deleted now leaves its messages to the other side, until the day given.
    await t.store.unitOfWork((tx) =>
      tx.memberData.removeAccount(2, '2026-11-02T00:00:00.000Z', '2026-12-02T00:00:00.000Z'),
    );
    expect(
      await t.sql.all('SELECT body, kept_until FROM messages WHERE conversation_id = 1'),
    ).toEqual([
      { body: 'Hello', kept_until: '2026-12-02T00:00:00.000Z' },
      { body: 'Hi back', kept_until: null },
    ]);
  });
});

describe.runIf(onPostgres())('PostgreSQL', () => {
  const at = '2026-10-01T00:00:00.000Z';
  const later = '2999-01-01T00:00:00.000Z';
  const token = (n: number) => Buffer.alloc(32, n);

  /** A row in each table a member's data is in, as the first version's columns hold them. */
  async function rowsOfTheFirstVersion(pool: pg.Pool) {
    const run = (text: string, ...values: unknown[]) => pool.query(text, values);
    for (const [id, email] of [
      [1, 'early@example.com'],
      [2, 'other@example.com'],
    ] as const)
      await run(
        `INSERT INTO accounts (id, email, password_hash, date_of_birth, terms_accepted_at,
           created_at, email_verified_at) VALUES ($1, $2, 'scrypt$hash', '1990-05-04', $3, $3, $3)`,
        id,
        email,
        at,
      );
    await run('INSERT INTO deleted_accounts (id, deleted_at) VALUES (5, $1)', at);
    await run(
      `INSERT INTO sessions (token_hash, account_id, created_at, expires_at)
       VALUES ($1, 1, $2, $3)`,
      token(1),
      at,
      later,
    );
    await run(
      `INSERT INTO email_tokens (token_hash, account_id, purpose, created_at, expires_at)
       VALUES ($1, 1, 'reset', $2, $3)`,
      token(2),
      at,
      later,
    );
    await run(
      `INSERT INTO known_devices (token_hash, account_id, created_at, last_used_at)
       VALUES ($1, 1, $2, $2)`,
      token(3),
      at,
    );
    const ad = await run(
      `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description, status,
         created_at, submitted_at, approved_at, posted_on, expires_on, updated_at)
       VALUES (1, 'Ohio', 'Columbus', 40, 'm4w', 'From before', 'Walks by the river.', 'live',
         $1, $1, $1, '2026-10-01', '2026-10-31', $1) RETURNING id`,
      at,
    );
    // This pool parses no bigint: ids come back as text.
    const adId = Number((ad.rows[0] as { id: string }).id);
    const thread = await run(
      `INSERT INTO conversations (ad_id, ad_title, poster_id, replier_id, started_at,
         last_message_at) VALUES ($1, 'From before', 1, 2, $2, $2) RETURNING id`,
      adId,
      at,
    );
    const threadId = Number((thread.rows[0] as { id: string }).id);
    await run(
      `INSERT INTO messages (conversation_id, sender_id, body, sent_at)
       VALUES ($1, 2, 'Hello from before.', $2)`,
      threadId,
      at,
    );
    await run('INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (1, 2, $1)', at);
    await run(
      `INSERT INTO reports (ad_id, reporter_key, reporter_account_id, reason, ad_copy, created_at)
       VALUES ($1, 'account:1', 1, 'spam', '{}', $2)`,
      adId,
      at,
    );
    return { adId, threadId };
  }

  test('rows of the first version are all read back after the later migrations, and the store goes on from them', async () => {
    const url = await newPostgresSchemaUrl(testPostgresUrl()!);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    let before: Awaited<ReturnType<typeof rowsOfTheFirstVersion>>;
    try {
      await migratePostgres(pool, 1);
      before = await rowsOfTheFirstVersion(pool);
      await migratePostgres(pool);
    } finally {
      await pool.end();
    }
    const store = await openStore({ url }, { poolSize: 2 });
    try {
      expect(await store.schemaVersion()).toBe(MIGRATIONS.length);
      expect(await store.accounts.findByEmail('early@example.com')).toEqual({
        id: 1,
        email: 'early@example.com',
        passwordHash: 'scrypt$hash',
        role: 'member',
        emailVerifiedAt: at,
        bannedAt: null,
      });
      expect((await store.sessions.findValid(token(1), at))?.accountId).toBe(1);
      expect(await store.emailTokens.find(token(2), 'reset', at)).toMatchObject({
        accountId: 1,
        state: 'valid',
      });
      expect((await store.knownDevices.find(token(3), '2026-01-01'))?.accountId).toBe(1);
      const rows = (await store.memberData.rowsOf(1))!;
      expect(rows.ads.map((ad) => [ad.id, ad.status])).toEqual([[before.adId, 'live']]);
      expect(rows.conversations.map((thread) => [thread.id, thread.side])).toEqual([
        [before.threadId, 'poster'],
      ]);
      expect(rows.messages.map((message) => [message.body, message.mine])).toEqual([
        ['Hello from before.', false],
      ]);
      // Not answered by its poster: in their Requests.
      expect(
        (await store.conversations.inbox(1, 10, 'requests')).map((row) => row.conversationId),
      ).toEqual([before.threadId]);
      expect(rows.blocks).toEqual([{ blockedId: 2, createdAt: at }]);
      expect(rows.reports.map((report) => report.adId)).toEqual([before.adId]);
      // New rows take their ids after the old ones: accounts above the deleted one too.
      expect(
        await openAccount(store, {
          email: 'new@example.com',
          passwordHash: 'scrypt$hash',
          dateOfBirth: '1990-01-01',
          termsAcceptedAt: at,
          createdAt: at,
        }),
      ).toBe(6);
    } finally {
      await store.close();
    }
  });

  test('instances starting together on a new database run each migration once', async () => {
    const url = await newPostgresSchemaUrl(testPostgresUrl()!);
    const stores = await Promise.all([1, 2, 3].map(() => openStore({ url }, { poolSize: 1 })));
    try {
      for (const store of stores) {
        expect(await store.schemaVersion()).toBe(MIGRATIONS.length);
        expect(await store.accounts.findById(1)).toBeUndefined();
      }
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        const versions = await pool.query(
          'SELECT number, name FROM schema_migrations ORDER BY number',
        );
        expect(versions.rows).toEqual(
          MIGRATIONS.map(({ name }, index) => ({ number: index + 1, name })),
        );
      } finally {
        await pool.end();
      }
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });
});
