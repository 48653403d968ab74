// One publisher for the site in a bucket (store/postgres-session-lock.ts, the store's
// sessionLock): of two instances on one database, one holds the lock and the other waits; when
// the holder's session ends (its process killed: here its connection terminated by PostgreSQL),
// the holder hears it has lost the lock and the other takes it. On SQLite, one instance: it
// holds the lock at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SessionLock } from '../../../store/engine.ts';
import { SITE_PUBLISHER_LOCK } from '../../../server/publishing/site-bucket/bucket-publishing.ts';
import { onPostgres, openTestStore, type TestStore } from '../../helpers/test-store.ts';

let dir: string;
let a: TestStore;
let b: TestStore;
const locks: SessionLock[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'localboard-publisher-lock-'));
  a = await openTestStore(dir);
  b = await openTestStore(dir);
});

afterEach(async () => {
  for (const lock of locks.splice(0)) await lock.release();
  await a.store.close();
  await b.store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves once `check` is true, or fails after 15 s (the lock is tried every 2 s). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited 15 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it('is held by one instance at a time, and taken over when its holder is gone', async () => {
  const first = a.store.sessionLock(SITE_PUBLISHER_LOCK);
  locks.push(first);
  await until(() => first.held, 'the first instance to hold the lock');
  if (!onPostgres()) return; // one instance a SQLite file: nobody else to wait
  const second = b.store.sessionLock(SITE_PUBLISHER_LOCK);
  locks.push(second);
  const heardBySecond: boolean[] = [];
  const heardByFirst: boolean[] = [];
  second.onChange((held) => heardBySecond.push(held));
  first.onChange((held) => heardByFirst.push(held));
  // The second waits while the first lives.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  expect([first.held, second.held]).toEqual([true, false]);
  // The first instance's session ends, as when its process is killed.
  const terminated = await a.sql.all(
    `SELECT pg_terminate_backend(pid) FROM pg_locks
      WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND objid = (hashtextextended(? || current_schema(), 0) & 4294967295)::oid`,
    `${SITE_PUBLISHER_LOCK}:`,
  );
  expect(terminated).toHaveLength(1);
  await until(() => second.held, 'the second instance to take the lock over');
  expect(heardByFirst[0]).toBe(false);
  expect(heardBySecond).toEqual([true]);
  // The first tries again, and waits in its turn.
  expect(first.held).toBe(false);
});
