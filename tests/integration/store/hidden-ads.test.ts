// The hiddenAds part of the store, on SQLite and (in the postgres suite) on PostgreSQL.
import { describe, expect, it } from 'vitest';
import { storeForEachTest } from '../../helpers/test-store.ts';

const t = storeForEachTest();

describe('hidden ads', () => {
  it('hides by reports once: only the first call hid it (and logs it, server/reports/)', async () => {
    const hide = { adId: 100000001, kind: 'member' as const, why: 'reports' as const };
    expect(await t.store.hiddenAds.hideByReports(hide, '2026-11-24T10:00:00.000Z')).toBe(true);
    expect(
      await t.store.hiddenAds.hideByReports(
        { ...hide, why: 'under-18' },
        '2026-11-24T10:05:00.000Z',
      ),
    ).toBe(false);
    expect(await t.store.hiddenAds.find(100000001)).toEqual({
      adId: 100000001,
      kind: 'member',
      why: 'reports',
      hiddenAt: '2026-11-24T10:00:00.000Z',
    });
    expect(
      await t.store.hiddenAds.hideByReports(
        { adId: 990001, kind: 'editor', why: 'under-18' },
        '2026-11-24T10:10:00.000Z',
      ),
    ).toBe(true);
    expect(await t.store.hiddenAds.find(990001)).toMatchObject({ kind: 'editor', why: 'under-18' });
    // The part writes no log row: the moderationLog part is its one writer.
    expect(await t.sql.all('SELECT id FROM moderation_log')).toEqual([]);
  });

  it('unhides, and removes an editor’s ad for good', async () => {
    expect(await t.store.hiddenAds.find(990001)).toBeUndefined();
    expect(await t.store.hiddenAds.unhide(990001)).toBe(false);
    await t.store.hiddenAds.hideByReports(
      { adId: 990001, kind: 'editor', why: 'reports' },
      '2026-11-24T10:00:00.000Z',
    );
    await t.store.hiddenAds.removeForGood(990001, 'editor', '2026-11-24T11:00:00.000Z');
    expect(await t.store.hiddenAds.find(990001)).toEqual({
      adId: 990001,
      kind: 'editor',
      why: 'removed',
      hiddenAt: '2026-11-24T10:00:00.000Z',
    });
    await t.store.hiddenAds.removeForGood(990002, 'editor', '2026-11-24T11:00:00.000Z');
    expect(await t.store.hiddenAds.find(990002)).toMatchObject({ why: 'removed' });
    expect(await t.store.hiddenAds.unhide(990001)).toBe(true);
    expect(await t.store.hiddenAds.find(990001)).toBeUndefined();
    // An id beyond any row's (from a URL) is simply not hidden.
    expect(await t.store.hiddenAds.find(999_999_999_999)).toBeUndefined();
    expect(await t.store.hiddenAds.unhide(999_999_999_999)).toBe(false);
  });
});
