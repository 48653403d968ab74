// The moderationLog part of the store, on SQLite and (in the postgres suite) on PostgreSQL: the one
// way to append to the log, reading it newest first, the last row about an ad or an account, rows
// naming accounts deleted since, and the database refusing any change of a row.
import { beforeEach, describe, expect, it } from 'vitest';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';

const t = storeForEachTest();

const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`;
const MODERATOR = { accountId: 7, email: 'mod@example.com' };

async function account(id: number, email: string) {
  await accountRow(t.sql, id, { email, at: at(0) });
}

beforeEach(async () => {
  await account(7, 'mod@example.com');
  await account(8, 'ana@example.com');
});

describe('moderationLog', () => {
  it('appends rows by a moderator or by name, and reads them newest first, a page at a time', async () => {
    const log = t.store.moderationLog;
    await log.append({
      at: at(1),
      by: { name: 'operator' },
      action: 'grant-role',
      accountId: 7,
      accountEmail: 'mod@example.com',
    });
    // What the row copies of the ad and its member.
    const rejected = {
      adId: 100000001,
      accountId: 8,
      accountEmail: 'ana@example.com',
      reason: 'Spam or duplicate',
      note: 'Twice.',
    };
    await log.append({ at: at(2), by: MODERATOR, action: 'reject', ...rejected });
    await log.append({ at: at(3), by: MODERATOR, action: 'ban', accountId: 8, reason: 'Spam' });
    expect(await log.count()).toBe(3);
    const newest = await log.newest(2, 0);
    expect(newest.map((row) => row.action)).toEqual(['ban', 'reject']);
    expect(newest[1]).toEqual({
      id: newest[1]!.id,
      at: at(2),
      moderatorId: 7,
      moderator: 'mod@example.com',
      action: 'reject',
      ...rejected,
      moderatorGone: false,
      accountGone: false,
    });
    expect(await log.newest(2, 2)).toMatchObject([
      { action: 'grant-role', moderatorId: null, moderator: 'operator', adId: null, reason: null },
    ]);
    expect(await log.lastForAd(100000001)).toMatchObject({ action: 'reject', at: at(2) });
    expect(await log.lastForAd(100000002)).toBeUndefined();
    expect(await log.lastForAccount(8, 'ban')).toMatchObject({ at: at(3), reason: 'Spam' });
    expect(await log.lastForAccount(7, 'ban')).toBeUndefined();
  });

  it('tells rows whose accounts were deleted since, keeping what they copied', async () => {
    await t.store.moderationLog.append({
      at: at(1),
      by: MODERATOR,
      action: 'approve',
      adId: 100000001,
      accountId: 8,
      accountEmail: 'ana@example.com',
    });
    await t.sql.run('DELETE FROM accounts WHERE id IN (?, ?)', 7, 8);
    expect(await t.store.moderationLog.newest(1, 0)).toMatchObject([
      {
        moderatorId: 7,
        moderator: 'mod@example.com',
        accountId: 8,
        accountEmail: 'ana@example.com',
        moderatorGone: true,
        accountGone: true,
      },
    ]);
  });

  it('is append-only: the database refuses to change or delete a row', async () => {
    await t.store.moderationLog.append({ at: at(1), by: MODERATOR, action: 'ban', accountId: 8 });
    await expect(t.sql.run("UPDATE moderation_log SET reason = 'edited'")).rejects.toThrow(
      'the moderation log is append-only',
    );
    await expect(t.sql.run('DELETE FROM moderation_log')).rejects.toThrow(
      'the moderation log is append-only',
    );
    expect(await t.store.moderationLog.count()).toBe(1);
  });
});
