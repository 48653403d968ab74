// The savedSearches part of the store, on SQLite and (in the postgres suite) on PostgreSQL.
import { createHash } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';

const t = storeForEachTest();

const tokenHash = (token: string) => createHash('sha256').update(token).digest();
const AT = '2026-11-24T10:00:00.000Z';

beforeEach(async () => {
  for (const id of [1, 2, 3])
    await accountRow(t.sql, id, { verifiedAt: id === 3 ? null : '2026-11-01T00:05:00.000Z' });
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

  it('claims the due ones of verified, unbanned members in batches, each once a day', async () => {
    const a = (await t.store.savedSearches.add(search(1, 'state=texas'), AT))!;
    const b = (await t.store.savedSearches.add(search(2, 'state=ohio'), AT))!;
    await t.store.savedSearches.add(search(3, 'state=utah'), AT); // not verified
    const c = (await t.store.savedSearches.add(search(2, 'q=hiking'), AT))!;
    const cutoff = '2026-11-24T11:00:00.000Z';
    const RUN = '2026-11-25T12:00:00.000Z';
    const ids = (batch: { claimed: { id: number }[] }) => batch.claimed.map((s) => s.id);

    // Four runs at once, batch by batch: each saved search is claimed by exactly one of them.
    const claimedBy: { id: number; email: string; checkedAt: string | null }[][] = [];
    const runAll = async () => {
      const mine: (typeof claimedBy)[number] = [];
      claimedBy.push(mine);
      for (let after = 0; ;) {
        const batch = await t.store.savedSearches.claimDue(cutoff, after, 2, RUN);
        if (batch.lastId === undefined) return;
        after = batch.lastId;
        mine.push(...batch.claimed);
      }
    };
    await Promise.all([runAll(), runAll(), runAll(), runAll()]);
    expect(
      claimedBy
        .flat()
        .map((s) => s.id)
        .sort(),
    ).toEqual([a, b, c].sort());
    expect(claimedBy.flat().find((s) => s.id === a)).toEqual(
      expect.objectContaining({ email: 'member-1@example.com', checkedAt: null, lastSentAt: null }),
    );
    // Looked at: none is due again the same day.
    expect((await t.store.savedSearches.claimDue(cutoff, 0, 10, RUN)).lastId).toBeUndefined();

    // a's digest is mailed: it remembers what it has seen.
    const seen = { day: '2026-11-24', ids: [77] };
    await t.store.savedSearches.recordMailed(a, RUN, seen);
    expect(await t.store.savedSearches.listOwned(1)).toEqual([
      expect.objectContaining({ lastSentAt: RUN, seen }),
    ]);

    // A day later they are due again, and claimed again once.
    const nextCutoff = '2026-11-25T12:00:00.001Z';
    const NEXT_RUN = '2026-11-26T12:00:00.000Z';
    expect(ids(await t.store.savedSearches.claimDue(nextCutoff, 0, 10, NEXT_RUN))).toEqual([
      a,
      b,
      c,
    ]);
    await t.store.savedSearches.recordMailed(a, NEXT_RUN, { day: '2026-11-25', ids: [80] });

    // Its mail failed: the claim is given back, as it was before. A stale release (another
    // claim since) changes nothing.
    const before = { checkedAt: RUN, lastSentAt: RUN, seen };
    expect(await t.store.savedSearches.releaseDigest(a, '2026-11-26T12:00:00.001Z', before)).toBe(
      false,
    );
    expect(await t.store.savedSearches.releaseDigest(a, NEXT_RUN, before)).toBe(true);
    expect(await t.store.savedSearches.listOwned(1)).toEqual([
      expect.objectContaining({ lastSentAt: RUN, seen }),
    ]);
    expect(ids(await t.store.savedSearches.claimDue(nextCutoff, 0, 10, NEXT_RUN))).toEqual([a]);

    // A banned member's are never due.
    await t.sql.run('UPDATE accounts SET banned_at = ? WHERE id = 1', AT);
    expect(
      (await t.store.savedSearches.claimDue('2026-12-30T00:00:00.000Z', 0, 10, NEXT_RUN)).claimed,
    ).toEqual([expect.objectContaining({ id: b }), expect.objectContaining({ id: c })]);
  });

  it('goes with the account', async () => {
    await t.store.savedSearches.add(search(1, 'state=texas'), AT);
    await t.sql.run('DELETE FROM accounts WHERE id = 1');
    expect(await t.sql.all('SELECT id FROM saved_searches')).toEqual([]);
  });
});
