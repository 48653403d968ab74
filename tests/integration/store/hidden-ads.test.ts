// The hiddenAds part of the store, on SQLite and (in the postgres suite) on PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPORTS_MODERATOR } from '../../../server/store/hidden-ads.ts';
import { openTestStore, type TestStore } from '../../helpers/test-store.ts';

let dir: string;
let t: TestStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'localboard-store-'));
  t = await openTestStore(dir);
  await t.sql.run(
    `INSERT INTO accounts (id, email, password_hash, date_of_birth, terms_accepted_at, created_at)
     VALUES (7, 'ana@example.com', 'hash', '1990-01-01', ?, ?)`,
    '2026-11-01T00:00:00.000Z',
    '2026-11-01T00:00:00.000Z',
  );
});

afterEach(async () => {
  await t.store.close();
  rmSync(dir, { recursive: true, force: true });
});

const logRows = () =>
  t.sql.all(
    `SELECT at, moderator_id, moderator_email, action, ad_id, account_id, account_email, reason,
       note FROM moderation_log ORDER BY id`,
  );

describe('hidden ads', () => {
  it('hides by reports once, writing it in the moderation log as the reports', async () => {
    const hide = {
      adId: 100000001,
      kind: 'member' as const,
      why: 'reports' as const,
      accountId: 7,
    };
    expect(
      await t.store.hiddenAds.hideByReports(
        hide,
        'scam',
        'Asks for money',
        '2026-11-24T10:00:00.000Z',
      ),
    ).toBe(true);
    expect(
      await t.store.hiddenAds.hideByReports(
        { ...hide, why: 'under-18' },
        'under-18',
        '',
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
        { adId: 990001, kind: 'editor', why: 'under-18', accountId: null },
        'under-18',
        '',
        '2026-11-24T10:10:00.000Z',
      ),
    ).toBe(true);
    expect(await logRows()).toEqual([
      {
        at: '2026-11-24T10:00:00.000Z',
        moderator_id: null,
        moderator_email: REPORTS_MODERATOR,
        action: 'hide',
        ad_id: 100000001,
        account_id: 7,
        account_email: 'ana@example.com',
        reason: 'scam',
        note: 'Asks for money',
      },
      {
        at: '2026-11-24T10:10:00.000Z',
        moderator_id: null,
        moderator_email: REPORTS_MODERATOR,
        action: 'hide',
        ad_id: 990001,
        account_id: null,
        account_email: null,
        reason: 'under-18',
        note: '',
      },
    ]);
  });

  it('unhides, and removes an editor’s ad for good', async () => {
    expect(await t.store.hiddenAds.find(990001)).toBeUndefined();
    expect(await t.store.hiddenAds.unhide(990001)).toBe(false);
    await t.store.hiddenAds.hideByReports(
      { adId: 990001, kind: 'editor', why: 'reports', accountId: null },
      'scam',
      '',
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
