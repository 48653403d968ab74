// The email tokens part of the store, on SQLite and (in the postgres suite) on PostgreSQL: a
// link's state, single use, the others of a reset used up, and old tokens removed.
import { beforeEach, describe, expect, it } from 'vitest';
import type { EmailTokenPurpose } from '../../../store/parts/email-tokens.ts';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';

const t = storeForEachTest();

beforeEach(async () => {
  for (const id of [7, 8]) await accountRow(t.sql, id);
});

const token = (n: number) => Buffer.alloc(32, n);
const CREATED = new Date('2026-11-01T00:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const at = (hours: number) => new Date(CREATED.getTime() + hours * HOUR).toISOString();

describe('email tokens', () => {
  it('finds a token by its hash and purpose: valid until it expires, then expired', async () => {
    await t.store.emailTokens.create(token(1), 7, 'verify', CREATED, 24 * HOUR);
    const found = await t.store.emailTokens.find(token(1), 'verify', at(1));
    expect(found).toEqual({ id: expect.any(Number), accountId: 7, state: 'valid' });
    expect((await t.store.emailTokens.find(token(1), 'verify', at(24)))?.state).toBe('expired');
    expect(await t.store.emailTokens.find(token(1), 'reset', at(1))).toBeUndefined();
    expect(await t.store.emailTokens.find(token(2), 'verify', at(1))).toBeUndefined();
    const row = await t.sql.get('SELECT created_at, expires_at FROM email_tokens');
    expect(row).toEqual({ created_at: at(0), expires_at: at(24) });
  });

  it('is used once: the second use, and the use of an expired one, answer false', async () => {
    await t.store.emailTokens.create(token(1), 7, 'reset', CREATED, HOUR);
    await t.store.emailTokens.create(token(2), 7, 'reset', CREATED, HOUR);
    const first = (await t.store.emailTokens.find(token(1), 'reset', at(0.5)))!;
    expect(await t.store.emailTokens.use(first.id, at(0.5))).toBe(true);
    expect(await t.store.emailTokens.use(first.id, at(0.5))).toBe(false);
    expect((await t.store.emailTokens.find(token(1), 'reset', at(0.5)))?.state).toBe('used');
    const second = (await t.store.emailTokens.find(token(2), 'reset', at(0.5)))!;
    expect(await t.store.emailTokens.use(second.id, at(1))).toBe(false);
  });

  it("uses up every unused token of an account for one purpose, and no one else's", async () => {
    await t.store.emailTokens.create(token(1), 7, 'reset', CREATED, HOUR);
    await t.store.emailTokens.create(token(2), 7, 'reset', CREATED, HOUR);
    await t.store.emailTokens.create(token(3), 7, 'verify', CREATED, HOUR);
    await t.store.emailTokens.create(token(4), 8, 'reset', CREATED, HOUR);
    await t.store.emailTokens.useAll(7, 'reset', at(0.5));
    const stateOf = async (n: number, purpose: EmailTokenPurpose) =>
      (await t.store.emailTokens.find(token(n), purpose, at(0.5)))?.state;
    const states = [
      await stateOf(1, 'reset'),
      await stateOf(2, 'reset'),
      await stateOf(3, 'verify'),
      await stateOf(4, 'reset'),
    ];
    expect(states).toEqual(['used', 'used', 'valid', 'valid']);
  });

  it('removes the tokens expired before a time, and counts them', async () => {
    await t.store.emailTokens.create(token(1), 7, 'reset', CREATED, HOUR);
    await t.store.emailTokens.create(token(2), 7, 'verify', CREATED, 24 * HOUR);
    expect(await t.store.emailTokens.removeExpiredBefore(at(2))).toBe(1);
    expect(await t.store.emailTokens.find(token(1), 'reset', at(2))).toBeUndefined();
    expect((await t.store.emailTokens.find(token(2), 'verify', at(2)))?.state).toBe('valid');
  });
});
