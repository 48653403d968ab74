// Closing the store (a server stopping, a test ending), on SQLite and (in the postgres suite) on
// PostgreSQL: what was asked for before close() is stored, units of work in flight included, even
// when it had to wait for a connection; what is asked for after is refused.
import { describe, expect, it } from 'vitest';
import { openTestStore, storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';

const t = storeForEachTest();

const token = (n: number) => Buffer.alloc(32, n);
const CREATED = '2026-11-01T00:00:00.000Z';
const EXPIRES = '2026-12-01T00:00:00.000Z';
const NOW = '2026-11-24T00:00:00.000Z';

describe('closing the store', () => {
  it('stores what was asked for before close(), also what waited for a connection', async () => {
    await accountRow(t.sql, 7, { email: 'ana@example.com' });
    // Every connection held by a unit of work in flight (SQLite has one, the test pool four)...
    const connections = t.store.poolStats?.().max ?? 1;
    let finish!: () => void;
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    const started: Promise<void>[] = [];
    const inFlight = Array.from({ length: connections }, (_, index) => {
      let start!: () => void;
      started.push(new Promise<void>((resolve) => (start = resolve)));
      return t.store.unitOfWork(async (tx) => {
        await tx.sessions.create(token(10 + index), 7, CREATED, EXPIRES);
        start();
        await finishing;
        await tx.sessions.create(token(20 + index), 7, CREATED, EXPIRES);
      });
    });
    await Promise.all(started);
    // ...so this write waits for one, and close() is asked for meanwhile.
    const waiting = t.store.sessions.create(token(1), 7, CREATED, EXPIRES);
    const closing = t.store.close();
    finish();
    await Promise.all([...inFlight, waiting, closing]);
    await expect(t.store.sessions.create(token(2), 7, CREATED, EXPIRES)).rejects.toThrow(
      /destroyed/,
    );

    Object.assign(t, await openTestStore(t.dir));
    const found = async (n: number) =>
      (await t.store.sessions.findValid(token(n), NOW)) !== undefined;
    for (let index = 0; index < connections; index += 1) {
      expect(await found(10 + index)).toBe(true);
      expect(await found(20 + index)).toBe(true);
    }
    expect(await found(1)).toBe(true);
    expect(await found(2)).toBe(false);
  });
});
