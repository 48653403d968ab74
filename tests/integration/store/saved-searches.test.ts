// The savedSearches part of the store, on SQLite and (in the postgres suite) on PostgreSQL.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../helpers/test-store.ts';

let dir: string;
let t: TestStore;

const tokenHash = (token: string) => createHash('sha256').update(token).digest();
const AT = '2026-11-24T10:00:00.000Z';

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'localboard-store-'));
  t = await openTestStore(dir);
  for (const id of [1, 2, 3])
    await t.sql.run(
      `INSERT INTO accounts (id, email, password_hash, date_of_birth, terms_accepted_at,
         created_at, email_verified_at) VALUES (?, ?, 'hash', '1990-01-01', ?, ?, ?)`,
      id,
      `member-${id}@example.com`,
      '2026-11-01T00:00:00.000Z',
      '2026-11-01T00:00:00.000Z',
      id === 3 ? null : '2026-11-01T00:05:00.000Z',
    );
});

afterEach(async () => {
  await t.store.close();
  rmSync(dir, { recursive: true, force: true });
});

function search(accountId: number, query: string, token = `${accountId}:${query}`) {
  return {
    accountId,
    query,
    label: `Ads: ${query}`,
    seen: { day: '2026-11-20', ids: [42, 17] },
    unsubscribeHash: tokenHash(token),
  };
}

describe('saved searches', () => {
  it('adds once a query, lists, counts and deletes only the member’s own', async () => {
    const first = await t.store.savedSearches.add(search(1, 'state=texas'), AT);
    expect(first).toEqual(expect.any(Number));
    expect(await t.store.savedSearches.add(search(1, 'state=texas', 'other'), AT)).toBeUndefined();
    const second = await t.store.savedSearches.add(
      { ...search(1, 'q=hiking'), seen: null },
      '2026-11-24T10:01:00.000Z',
    );
    await t.store.savedSearches.add(search(2, 'state=texas'), AT);

    expect(await t.store.savedSearches.listOwned(1)).toEqual([
      {
        id: first,
        accountId: 1,
        query: 'state=texas',
        label: 'Ads: state=texas',
        createdAt: AT,
        lastSentAt: null,
        seen: { day: '2026-11-20', ids: [42, 17] },
      },
      expect.objectContaining({ id: second, query: 'q=hiking', seen: null }),
    ]);
    expect(await t.store.savedSearches.countOwned(1)).toBe(2);
    expect(await t.store.savedSearches.countOwned(3)).toBe(0);

    expect(await t.store.savedSearches.deleteOwned(2, first!)).toBe(false);
    expect(await t.store.savedSearches.deleteOwned(1, first!)).toBe(true);
    expect(await t.store.savedSearches.deleteOwned(1, first!)).toBe(false);
    expect(await t.store.savedSearches.deleteOwned(1, 999_999_999_999_999)).toBe(false);
    expect((await t.store.savedSearches.listOwned(1)).map((s) => s.query)).toEqual(['q=hiking']);
    expect(await t.store.savedSearches.countOwned(2)).toBe(1);
  });

  it('finds and deletes by the unsubscribe token’s hash', async () => {
    const id = await t.store.savedSearches.add(search(1, 'state=ohio', 'secret-token'), AT);
    expect(await t.store.savedSearches.findByUnsubscribeHash(tokenHash('wrong'))).toBeUndefined();
    expect(await t.store.savedSearches.findByUnsubscribeHash(tokenHash('secret-token'))).toEqual(
      expect.objectContaining({ id, accountId: 1, query: 'state=ohio' }),
    );
    expect(await t.store.savedSearches.deleteByUnsubscribeHash(tokenHash('secret-token'))).toBe(
      true,
    );
    expect(await t.store.savedSearches.deleteByUnsubscribeHash(tokenHash('secret-token'))).toBe(
      false,
    );
    expect(await t.store.savedSearches.countOwned(1)).toBe(0);
  });

  it('lists the due ones of verified, unbanned members in batches, and claims each digest once', async () => {
    const a = (await t.store.savedSearches.add(search(1, 'state=texas'), AT))!;
    const b = (await t.store.savedSearches.add(search(2, 'state=ohio'), AT))!;
    await t.store.savedSearches.add(search(3, 'state=utah'), AT); // not verified
    const c = (await t.store.savedSearches.add(search(2, 'q=hiking'), AT))!;
    const cutoff = '2026-11-24T11:00:00.000Z';

    const firstBatch = await t.store.savedSearches.due(cutoff, 0, 2);
    expect(firstBatch.map((s) => [s.id, s.email])).toEqual([
      [a, 'member-1@example.com'],
      [b, 'member-2@example.com'],
    ]);
    expect((await t.store.savedSearches.due(cutoff, b, 2)).map((s) => s.id)).toEqual([c]);

    const seen = { day: '2026-11-24', ids: [77] };
    const claims = await Promise.all(
      [1, 2, 3, 4].map(() =>
        t.store.savedSearches.claimDigest(a, cutoff, '2026-11-25T12:00:00.000Z', seen),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await t.store.savedSearches.listOwned(1)).toEqual([
      expect.objectContaining({ lastSentAt: '2026-11-25T12:00:00.000Z', seen }),
    ]);
    expect((await t.store.savedSearches.due(cutoff, 0, 10)).map((s) => s.id)).toEqual([b, c]);
    // A day later it is due again, and claimed again once.
    const nextCutoff = '2026-11-25T12:00:00.001Z';
    expect((await t.store.savedSearches.due(nextCutoff, 0, 10)).map((s) => s.id)).toEqual([
      a,
      b,
      c,
    ]);
    expect(
      await t.store.savedSearches.claimDigest(a, cutoff, '2026-11-26T12:00:00.000Z', seen),
    ).toBe(false);
    expect(
      await t.store.savedSearches.claimDigest(a, nextCutoff, '2026-11-26T12:00:00.000Z', seen),
    ).toBe(true);

    // A claim whose mail failed is given back: due again, with what it had seen before. A stale
    // release (claimed again since) changes nothing.
    const before = { lastSentAt: '2026-11-25T12:00:00.000Z', seen };
    expect(await t.store.savedSearches.releaseDigest(a, '2026-11-26T12:00:00.001Z', before)).toBe(
      false,
    );
    expect(await t.store.savedSearches.releaseDigest(a, '2026-11-26T12:00:00.000Z', before)).toBe(
      true,
    );
    expect(await t.store.savedSearches.listOwned(1)).toEqual([
      expect.objectContaining({ lastSentAt: '2026-11-25T12:00:00.000Z', seen }),
    ]);
    expect((await t.store.savedSearches.due(nextCutoff, 0, 10)).map((s) => s.id)).toContain(a);

    // A banned member's are never due.
    await t.sql.run('UPDATE accounts SET banned_at = ? WHERE id = 2', AT);
    expect((await t.store.savedSearches.due(nextCutoff, 0, 10)).map((s) => s.id)).toEqual([a]);
  });

  it('goes with the account', async () => {
    await t.store.savedSearches.add(search(1, 'state=texas'), AT);
    await t.sql.run('DELETE FROM accounts WHERE id = 1');
    expect(await t.sql.all('SELECT id FROM saved_searches')).toEqual([]);
  });
});
