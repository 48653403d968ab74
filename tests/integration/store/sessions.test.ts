// The sessions part of the store, on SQLite and (in the postgres suite) on PostgreSQL.
import { beforeEach, describe, expect, it } from 'vitest';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';

const t = storeForEachTest();

beforeEach(async () => {
  await accountRow(t.sql, 7, { email: 'ana@example.com' });
});

const token = (n: number) => Buffer.alloc(32, n);

describe('sessions', () => {
  it('finds an unexpired session by its token hash, with its account', async () => {
    await t.store.sessions.create(
      token(1),
      7,
      '2026-11-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
    );
    expect(await t.store.sessions.findValid(token(1), '2026-11-24T00:00:00.000Z')).toEqual({
      sessionId: expect.any(Number),
      accountId: 7,
      email: 'ana@example.com',
      emailVerified: false,
      role: 'member',
      dateOfBirth: '1990-01-01',
    });
    expect(await t.store.sessions.findValid(token(2), '2026-11-24T00:00:00.000Z')).toBeUndefined();
    expect(await t.store.sessions.findValid(token(1), '2026-12-01T00:00:00.000Z')).toBeUndefined();
  });

  it("refuses a banned account's sessions and revokes one or all", async () => {
    await t.store.sessions.create(
      token(1),
      7,
      '2026-11-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
    );
    await t.store.sessions.create(
      token(2),
      7,
      '2026-11-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
    );
    await t.store.sessions.create(
      token(3),
      7,
      '2026-11-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
    );
    await t.store.sessions.revoke(token(1));
    expect(await t.store.sessions.findValid(token(1), '2026-11-24T00:00:00.000Z')).toBeUndefined();
    await t.sql.run(
      'UPDATE accounts SET banned_at = ? WHERE id = ?',
      '2026-11-20T00:00:00.000Z',
      7,
    );
    expect(await t.store.sessions.findValid(token(2), '2026-11-24T00:00:00.000Z')).toBeUndefined();
    expect(await t.store.sessions.revokeAll(7)).toBe(2);
    expect(await t.store.sessions.removeExpired('2027-01-01T00:00:00.000Z')).toBe(0);
  });

  it('rolls a unit of work back when it throws', async () => {
    await expect(
      t.store.unitOfWork(async (tx) => {
        await tx.sessions.create(
          token(4),
          7,
          '2026-11-01T00:00:00.000Z',
          '2026-12-01T00:00:00.000Z',
        );
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await t.store.sessions.findValid(token(4), '2026-11-24T00:00:00.000Z')).toBeUndefined();
  });
});
