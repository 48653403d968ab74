// What the build publishes of the store (store/parts/published-ads.ts), on SQLite and (in the
// postgres suite) on PostgreSQL: the live, not hidden member ads in one snapshot, and the build's
// content step reading them from the database a server names (DATABASE_URL or DATABASE_PATH).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { readMemberAds } from '../../../pipeline/compile/database-ad-source.ts';
import { makeContentFixture } from '../../helpers/content-fixture.ts';
import { openTestStore, storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const t = storeForEachTest();

beforeEach(async () => {
  await accountRow(t.sql, 7, { email: 'ana@example.com' });
});

/** A member ad with its id, live unless told; its title names it. */
async function insertAd(id: number, status = 'live', city = 'San Jose') {
  await t.sql.run(
    `INSERT INTO member_ads (id, account_id, state, city, age, seeks, title, description, status,
       created_at, submitted_at, approved_at, posted_on, expires_on, updated_at)
     VALUES (?, 7, 'California', ?, 31, 'm4w', ?, 'Coffee, a walk, a chat about books.', ?,
       '2026-11-20T10:00:00.000Z', '2026-11-20T10:00:00.000Z', '2026-11-20T11:00:00.000Z',
       '2026-11-20', '2026-12-20', '2026-11-20T11:00:00.000Z')`,
    id,
    city,
    `Ad ${id}: board games on Sundays`,
    status,
  );
}

const hide = (id: number, kind: 'member' | 'editor') =>
  t.sql.run(
    `INSERT INTO hidden_ads (ad_id, kind, why, hidden_at) VALUES (?, ?, 'reports', ?)`,
    id,
    kind,
    '2026-11-21T00:00:00.000Z',
  );

describe('published ads', () => {
  it('reads the live ads that reports do not hide: keys by id in pages, rows by range, hidden editor ads', async () => {
    for (const id of [100_000_001, 100_000_002, 100_000_003, 100_001_500]) await insertAd(id);
    await insertAd(100_000_004, 'review');
    await insertAd(100_000_005, 'removed');
    await hide(100_000_003, 'member');
    await hide(42, 'editor');
    await hide(7, 'editor');

    const read = await t.store.publishedAds.snapshot(async (snapshot) => ({
      firstPage: await snapshot.keys(0, 2),
      secondPage: await snapshot.keys(100_000_002, 2),
      rows: await snapshot.rows(100_000_000, 100_001_000),
      hidden: await snapshot.hiddenEditorAdIds(),
    }));
    expect(read.firstPage).toEqual([
      {
        id: 100_000_001,
        revision: 1,
        updated_at: '2026-11-20T11:00:00.000Z',
        posted_on: '2026-11-20',
        expires_on: '2026-12-20',
      },
      expect.objectContaining({ id: 100_000_002 }),
    ]);
    expect(read.secondPage.map((key) => key.id)).toEqual([100_001_500]);
    expect(read.rows).toEqual([
      {
        id: 100_000_001,
        state: 'California',
        city: 'San Jose',
        age: 31,
        seeks: 'm4w',
        title: 'Ad 100000001: board games on Sundays',
        description: 'Coffee, a walk, a chat about books.',
        posted_on: '2026-11-20',
        expires_on: '2026-12-20',
        photos: [],
      },
      expect.objectContaining({ id: 100_000_002 }),
    ]);
    expect(read.hidden).toEqual([7, 42]);
  });

  it('reads one snapshot: what another connection commits meanwhile is not seen', async () => {
    await insertAd(100_000_001);
    // The server, writing on a connection of its own while the build reads.
    const server = await openTestStore(t.dir);
    try {
      const seen = await t.store.publishedAds.snapshot(async (snapshot) => {
        const before = await snapshot.keys(0, 100);
        await server.sql.run(
          `UPDATE member_ads SET title = 'Changed', revision = revision + 1 WHERE id = ?`,
          100_000_001,
        );
        await server.sql.run(`INSERT INTO hidden_ads (ad_id, kind, why, hidden_at)
          VALUES (5, 'editor', 'reports', '2026-11-21T00:00:00.000Z')`);
        return {
          before,
          after: await snapshot.keys(0, 100),
          rows: await snapshot.rows(100_000_000, 100_001_000),
          hidden: await snapshot.hiddenEditorAdIds(),
        };
      });
      expect(seen.after).toEqual(seen.before);
      expect(seen.rows.map((row) => [row.title])).toEqual([
        ['Ad 100000001: board games on Sundays'],
      ]);
      expect(seen.hidden).toEqual([]);
      // The next snapshot sees it all.
      const next = await t.store.publishedAds.snapshot(async (snapshot) => ({
        keys: await snapshot.keys(0, 100),
        hidden: await snapshot.hiddenEditorAdIds(),
      }));
      expect(next.keys.map((key) => key.revision)).toEqual([2]);
      expect(next.hidden).toEqual([5]);
    } finally {
      await server.store.close();
    }
  });

  it("the build keeps each range's rows and reads again only the ranges that changed", async () => {
    for (const id of [100_000_001, 100_000_002, 100_001_001]) await insertAd(id);
    const rangesDir = join(t.dir, 'member-ads');
    const first = await readMemberAds(t.store, rangesDir);
    expect(first.ranges.map((range) => range.from)).toEqual([100_000_000, 100_001_000]);
    const filesBefore = readdirSync(rangesDir).sort();
    expect(filesBefore).toEqual(first.ranges.map((range) => `${range.key}.ndjson`).sort());

    await t.sql.run(
      `UPDATE member_ads SET status = 'deleted', revision = revision + 1 WHERE id = ?`,
      100_001_001,
    );
    await insertAd(100_000_003);
    const second = await readMemberAds(t.store, rangesDir);
    expect(second.ranges.map((range) => range.from)).toEqual([100_000_000]);
    expect(second.ranges[0]!.key).not.toBe(first.ranges[0]!.key);
    // The old ranges' files are gone; the new range's file is there.
    expect(readdirSync(rangesDir)).toEqual([`${second.ranges[0]!.key}.ndjson`]);
    // The same ads, the same keys: a third read changes nothing.
    expect(await readMemberAds(t.store, rangesDir)).toEqual(second);
  });

  it("the build's content step reads the member ads of the database its environment names", async () => {
    await insertAd(100_000_001, 'live', 'Los Angeles');
    await insertAd(100_000_002, 'live', 'Los Angeles');
    await hide(100_000_002, 'member');
    const fixture = makeContentFixture();
    try {
      const tsx = createRequire(join(root, 'package.json')).resolve('tsx/cli');
      const env: NodeJS.ProcessEnv = { ...process.env, ...t.env };
      for (const key of ['DATABASE_URL', 'DATABASE_PATH']) if (!(key in t.env)) delete env[key];
      const compile = spawnSync(process.execPath, [tsx, 'scripts/compile-content.ts'], {
        cwd: root,
        encoding: 'utf8',
        env: {
          ...env,
          CONTENT_DIR: fixture.dir,
          COMPILED_CONTENT_DIR: join(t.dir, 'compiled'),
          BUILD_DATE: '2026-11-22',
        },
      });
      expect(compile.stderr).toBe('');
      expect(compile.status).toBe(0);
      // The live member ad is published; the one reports hide is not.
      const published = readFileSync(join(t.dir, 'compiled', 'ads', 'California.ndjson'), 'utf8');
      expect(published).toContain('"id":100000001,');
      expect(published).not.toContain('"id":100000002,');
    } finally {
      fixture.cleanup();
    }
  }, 60_000);
});
