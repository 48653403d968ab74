// The blocks part of the store, on SQLite and (in the postgres suite) on PostgreSQL.
import { beforeEach, describe, expect, it } from 'vitest';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';

const t = storeForEachTest();

beforeEach(async () => {
  for (const id of [1, 2, 3]) await accountRow(t.sql, id);
});

describe('blocks', () => {
  it('blocks once, seen from either side, and unblocks', async () => {
    const none = { youBlocked: false, blockedYou: false };
    expect(await t.store.blocks.between(1, 2)).toEqual(none);
    expect(await t.store.blocks.block(1, 2, '2026-11-24T10:00:00.000Z')).toBe(true);
    expect(await t.store.blocks.block(1, 2, '2026-11-24T10:01:00.000Z')).toBe(false);
    expect(await t.store.blocks.between(1, 2)).toEqual({ youBlocked: true, blockedYou: false });
    expect(await t.store.blocks.between(2, 1)).toEqual({ youBlocked: false, blockedYou: true });
    expect(await t.store.blocks.between(1, 3)).toEqual(none);
    expect(await t.store.blocks.block(2, 1, '2026-11-24T10:02:00.000Z')).toBe(true);
    expect(await t.store.blocks.between(1, 2)).toEqual({ youBlocked: true, blockedYou: true });
    expect(await t.sql.all('SELECT created_at FROM blocks WHERE blocker_id = 1')).toEqual([
      { created_at: '2026-11-24T10:00:00.000Z' },
    ]);

    expect(await t.store.blocks.unblock(2, 3)).toBe(false);
    expect(await t.store.blocks.unblock(1, 2)).toBe(true);
    expect(await t.store.blocks.unblock(1, 2)).toBe(false);
    expect(await t.store.blocks.between(1, 2)).toEqual({ youBlocked: false, blockedYou: true });
  });

  it('goes with the account of either side', async () => {
    await t.store.blocks.block(1, 2, '2026-11-24T10:00:00.000Z');
    await t.sql.run('DELETE FROM accounts WHERE id = ?', 2);
    expect(await t.sql.all('SELECT * FROM blocks')).toEqual([]);
  });
});
