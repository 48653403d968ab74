// The known devices part of the store, on SQLite and (in the postgres suite) on PostgreSQL: a
// browser found by its token's hash while in use, the latest few kept, the unused forgotten.
import { beforeEach, describe, expect, it } from 'vitest';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';

const t = storeForEachTest();

beforeEach(async () => {
  for (const id of [7, 8]) await accountRow(t.sql, id);
});

const token = (n: number) => Buffer.alloc(32, n);
const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T00:00:00.000Z`;

describe('known devices', () => {
  it('finds a device used since a time; touching it keeps it in use', async () => {
    await t.store.knownDevices.remember(token(1), 7, day(1), 20);
    const device = await t.store.knownDevices.find(token(1), day(0));
    expect(device).toEqual({ id: expect.any(Number), accountId: 7 });
    expect(await t.store.knownDevices.find(token(1), day(1))).toBeUndefined();
    expect(await t.store.knownDevices.find(token(2), day(0))).toBeUndefined();
    await t.store.knownDevices.touch(device!.id, day(5));
    expect(await t.store.knownDevices.find(token(1), day(4))).toEqual(device);
  });

  it("keeps an account's latest devices only, and never another account's", async () => {
    await t.store.knownDevices.remember(token(99), 8, day(1), 2);
    for (const n of [1, 2, 3]) await t.store.knownDevices.remember(token(n), 7, day(n), 2);
    const kept = await Promise.all(
      [1, 2, 3, 99].map(
        async (n) => (await t.store.knownDevices.find(token(n), day(0))) !== undefined,
      ),
    );
    expect(kept).toEqual([false, true, true, true]);
  });

  it('forgets the devices unused since a time, and counts them', async () => {
    await t.store.knownDevices.remember(token(1), 7, day(1), 20);
    await t.store.knownDevices.remember(token(2), 7, day(3), 20);
    expect(await t.store.knownDevices.removeUnusedSince(day(2))).toBe(1);
    expect(await t.store.knownDevices.find(token(1), day(0))).toBeUndefined();
    expect(await t.store.knownDevices.find(token(2), day(0))).toBeDefined();
  });
});
