// The photos part of the store and the photo storage, on SQLite and (in the postgres suite) on
// PostgreSQL: photos with their sizes, attached only to their member's ad, a moderator's removal,
// deletion answering the keys nobody uses any more, the blocked hashes, and the bytes kept in the
// database or a folder (a bucket: tests/s3/photo-storage.test.ts), deleted only when no photo uses
// them (tests/helpers/photo-storage-contract.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  databasePhotoStorage,
  folderPhotoStorage,
} from '../../../store/photo-storage/photo-storage.ts';
import type { NewPhoto } from '../../../store/parts/photos.ts';
import type { NewStatement } from '../../../store/parts/statements.ts';
import type { LogAction } from '../../../core/schemas/moderation-log.ts';
import type { AdPhotoRef } from '../../../core/schemas/photos.ts';
import { photoStorageContract } from '../../helpers/photo-storage-contract.ts';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountRow } from '../../helpers/store-accounts.ts';

const t = storeForEachTest();

const AT = '2026-11-20T10:00:00.000Z';
/** No decision holds the photos of an ad without one: any clock will do. */
const KEEP = { now: AT, preservedBefore: '2025-11-20T10:00:00.000Z' };
const key = (n: number) => n.toString(16).padStart(32, '0');

const photo = (accountId: number, keys: number[]): NewPhoto => ({
  accountId,
  width: 1280,
  height: 960,
  phash: '0123456789abcdef',
  flag: null,
  variants: keys.map((n, index) => ({
    width: [320, 640, 1280][index]!,
    height: [240, 480, 960][index]!,
    key: key(n),
    size: 1000 + n,
  })),
  at: AT,
});

async function account(id: number, email: string) {
  await accountRow(t.sql, id, { email, at: AT });
}

/** An ad of the member's in review (with a list of photos when given); its id. */
async function ad(accountId: number, photos?: AdPhotoRef[]): Promise<number> {
  return t.store.memberAds.insert(
    accountId,
    {
      state: 'California',
      city: 'Los Angeles',
      age: 30,
      seeks: 'w4m',
      title: 'Walks',
      description: 'Long ones.',
      ...(photos ? { photos } : {}),
    },
    '[]',
    AT,
  );
}

/** Member 7's ad with photo `n` on it, rejected or removed at `at` (its status and time set). */
async function goneAdWithPhoto(n: number, status: 'rejected' | 'removed', at: string) {
  const adId = await ad(7);
  const photoId = await t.store.photos.insert(photo(7, [n]));
  await t.store.photos.attach([photoId], adId, 7);
  await t.sql.run(
    'UPDATE member_ads SET status = ?, updated_at = ? WHERE id = ?',
    status,
    at,
    adId,
  );
  return { adId, photoId };
}

beforeEach(async () => {
  await account(7, 'ana@example.com');
  await account(8, 'ben@example.com');
});

/** A moderation log row about member 7, for spam; its id. */
const spamLogged = (at: string, action: LogAction, adId: number | null = null) =>
  t.store.moderationLog.append({
    at,
    by: { name: 'test' },
    action,
    adId,
    accountId: 7,
    accountEmail: null,
    reason: 'Spam',
    note: null,
  });

/** Moderator 8's statement of reasons about member 7, for spam, made at `at`; its kind is the test's. */
const spamStatement = (logId: number, at: string): Omit<NewStatement, 'kind'> => ({
  logId,
  accountId: 7,
  reasonKey: 'spam',
  clause: '4.5',
  facts: { reason: 'Spam' },
  trigger: 'moderator',
  automatedDetection: false,
  automatedDecision: false,
  decidedBy: 8,
  decidedAt: at,
  contentAt: at,
  appealUntil: '2026-07-10T00:00:00.000Z',
});

describe('photos', () => {
  it('stores a photo with its sizes, narrowest first, as an upload on no ad', async () => {
    const id = await t.store.photos.insert(photo(7, [1, 2, 3]));
    const found = await t.store.photos.find(id);
    expect(found).toMatchObject({ accountId: 7, adId: null, width: 1280, removedAt: null });
    expect(found!.variants.map((variant) => variant.width)).toEqual([320, 640, 1280]);
    expect(found!.variants[2]!.key).toBe(key(3));
    expect(await t.store.photos.find(999_999)).toBeUndefined();
    expect(await t.store.photos.find(2 ** 70)).toBeUndefined();
  });

  it("attaches only the member's own photos, on no ad or on this one, not removed", async () => {
    const mine = await t.store.photos.insert(photo(7, [1]));
    const theirs = await t.store.photos.insert(photo(8, [2]));
    const removed = await t.store.photos.insert(photo(7, [3]));
    await t.store.photos.markRemoved(removed, {
      reason: 'explicit',
      note: null,
      moderatorId: 8,
      at: AT,
    });
    const adId = await ad(7);
    const otherAd = await ad(7);
    expect(await t.store.photos.attach([mine, theirs, removed], adId, 7)).toBe(1);
    expect((await t.store.photos.find(mine))!.adId).toBe(adId);
    expect((await t.store.photos.find(theirs))!.adId).toBeNull();
    // Already on this ad: still counted; on another ad: not moved.
    expect(await t.store.photos.attach([mine], adId, 7)).toBe(1);
    expect(await t.store.photos.attach([mine], otherAd, 7)).toBe(0);
    expect((await t.store.photos.listForAd(adId)).map((row) => row.id)).toEqual([mine]);
  });

  it('a removal reversed: the photo unmarked once, its blocked hash forgotten, no other', async () => {
    const id = await t.store.photos.insert(photo(7, [41, 42]));
    const other = await t.store.photos.insert(photo(7, [43]));
    const removal = { reason: 'identity', note: null, moderatorId: 8, at: AT };
    await t.store.photos.markRemoved(id, removal);
    const blocked = { reason: 'identity', adId: null, blockedAt: AT };
    await t.store.photos.block({ ...blocked, phash: '0123456789abcdef', photoId: id });
    await t.store.photos.block({ ...blocked, phash: '0123456789abcdef', photoId: other });
    // The same id with another hash (SQLite gives a deleted photo's id again): not this photo's.
    await t.store.photos.block({ ...blocked, phash: 'fedcba9876543210', photoId: id });

    expect(await t.store.photos.unmarkRemoved(id)).toBe(true);
    expect(await t.store.photos.unmarkRemoved(id)).toBe(false);
    expect(await t.store.photos.find(id)).toMatchObject({
      removedAt: null,
      removedReason: null,
      removedNote: null,
      variants: [
        expect.objectContaining({ key: key(41) }),
        expect.objectContaining({ key: key(42) }),
      ],
    });
    expect(await t.store.photos.unblock({ id, phash: '0123456789abcdef' })).toBe(1);
    expect((await t.store.photos.blocked()).map((row) => [row.photoId, row.phash])).toEqual([
      [other, '0123456789abcdef'],
      [id, 'fedcba9876543210'],
    ]);
  });

  it('removed photos past keeping: unappealed past the deadline, or without a statement; under 18 a year', async () => {
    const removedAt = '2026-01-10T00:00:00.000Z';
    const removed = async (reason: string, n: number) => {
      const id = await t.store.photos.insert(photo(7, [n]));
      await t.store.photos.markRemoved(id, { reason, note: null, moderatorId: 8, at: removedAt });
      return id;
    };
    const [noStatement, spam, under18] = [
      await removed('spam', 51),
      await removed('spam', 52),
      await removed('under-18', 53),
    ];
    await t.store.photos.insert(photo(7, [54]));
    const logRow = () => spamLogged(removedAt, 'remove-photo');
    for (const photoId of [spam, under18])
      await t.store.statements.insert({
        ...spamStatement(await logRow(), removedAt),
        kind: 'photo-removed',
        photoId,
      });
    const past = (now: string, removedBefore: string, preservedBefore: string) =>
      t.store.photos.removedPastKeeping(now, removedBefore, preservedBefore);
    // Within the window: nothing.
    expect(
      await past(
        '2026-07-01T00:00:00.000Z',
        '2026-01-01T00:00:00.000Z',
        '2025-07-01T00:00:00.000Z',
      ),
    ).toEqual([]);
    // Past it: the unappealed spam, and the one without a statement; under 18 waits its year.
    expect(
      await past(
        '2026-07-11T00:00:00.000Z',
        '2026-01-11T00:00:00.000Z',
        '2025-07-11T00:00:00.000Z',
      ),
    ).toEqual([noStatement, spam]);
    expect(
      await past(
        '2027-01-11T00:00:00.000Z',
        '2026-07-11T00:00:00.000Z',
        '2026-01-11T00:00:00.000Z',
      ),
    ).toEqual([noStatement, spam, under18]);
    // Sizes gone: nothing more to keep or delete.
    await t.store.photos.deleteVariants([noStatement, spam, under18]);
    expect(
      await past(
        '2027-01-11T00:00:00.000Z',
        '2026-07-11T00:00:00.000Z',
        '2026-01-11T00:00:00.000Z',
      ),
    ).toEqual([]);
  });

  it('keeps a removed photo with its reason, once', async () => {
    const id = await t.store.photos.insert(photo(7, [1]));
    const removal = { reason: 'identity', note: 'Not theirs', moderatorId: 8, at: AT };
    expect(await t.store.photos.markRemoved(id, removal)).toBe(true);
    expect(await t.store.photos.markRemoved(id, removal)).toBe(false);
    expect(await t.store.photos.find(id)).toMatchObject({
      removedAt: AT,
      removedReason: 'identity',
      removedNote: 'Not theirs',
    });
  });

  it('deleting answers the keys no other photo uses', async () => {
    const a = await t.store.photos.insert(photo(7, [1, 2]));
    await t.store.photos.insert(photo(7, [2, 3]));
    expect((await t.store.photos.delete([a])).sort()).toEqual([key(1)]);
    expect(await t.store.photos.find(a)).toBeUndefined();
    expect(await t.store.photos.unreferencedKeys([key(1), key(2), key(3)])).toEqual([key(1)]);
  });

  it("an account's deletion takes its photos and their sizes with it", async () => {
    const id = await t.store.photos.insert(photo(7, [1]));
    await t.sql.run('DELETE FROM accounts WHERE id = ?', 7);
    expect(await t.store.photos.find(id)).toBeUndefined();
    expect(await t.store.photos.unreferencedKeys([key(1)])).toEqual([key(1)]);
  });

  it('finds uploads left on no ad, and photos of ads rejected or removed long ago, or deleted', async () => {
    const old = await t.store.photos.insert({ ...photo(7, [1]), at: '2026-11-01T00:00:00.000Z' });
    await t.store.photos.insert(photo(7, [2]));
    expect(await t.store.photos.uploadsBefore('2026-11-10T00:00:00.000Z')).toEqual([old]);
    const adId = await ad(7);
    const onAd = await t.store.photos.insert(photo(7, [3]));
    await t.store.photos.attach([onAd], adId, 7);
    await t.sql.run(
      "UPDATE member_ads SET status = 'rejected', updated_at = ? WHERE id = ?",
      '2026-10-01T00:00:00.000Z',
      adId,
    );
    expect(await t.store.photos.ofAdsGoneBefore('2026-10-31T00:00:00.000Z', KEEP)).toEqual([onAd]);
    expect(await t.store.photos.ofAdsGoneBefore('2026-09-30T00:00:00.000Z', KEEP)).toEqual([]);
    await t.sql.run("UPDATE member_ads SET status = 'removed' WHERE id = ?", adId);
    expect(await t.store.photos.ofAdsGoneBefore('2026-10-31T00:00:00.000Z', KEEP)).toEqual([onAd]);
    // A deleted ad's photos, whenever: a backstop for a deletion that stopped half-way.
    await t.sql.run(
      "UPDATE member_ads SET status = 'deleted', updated_at = ? WHERE id = ?",
      '2026-11-20T00:00:00.000Z',
      adId,
    );
    expect(await t.store.photos.ofAdsGoneBefore('2026-09-30T00:00:00.000Z', KEEP)).toEqual([onAd]);
  });

  it("keeps a rejected or removed ad's photos while its decision can be reversed; under 18 a year", async () => {
    const decidedAt = '2026-01-10T00:00:00.000Z';
    const goneAd = (n: number, status: 'rejected' | 'removed', at = decidedAt) =>
      goneAdWithPhoto(n, status, at);
    const decide = async (
      kind: 'ad-rejected' | 'ad-removed' | 'account-banned',
      adId: number | null,
      reasonKey = 'spam',
    ) =>
      t.store.statements.insert({
        ...spamStatement(
          await spamLogged(decidedAt, kind === 'account-banned' ? 'ban' : 'remove', adId),
          decidedAt,
        ),
        kind,
        adId,
        reasonKey,
      });
    // Removed before the ban, without a statement (before statements were kept): 30 days only.
    const before = await goneAd(61, 'removed', '2026-01-01T00:00:00.000Z');
    const rejected = await goneAd(62, 'rejected');
    await decide('ad-rejected', rejected.adId);
    const appealed = await goneAd(63, 'removed');
    const appealedStatement = await decide('ad-removed', appealed.adId);
    const under18 = await goneAd(64, 'removed');
    const under18Statement = await decide('ad-removed', under18.adId, 'under-18');
    const banned = await goneAd(65, 'removed');
    await decide('account-banned', null);
    const gone = (now: string, preservedBefore: string) =>
      t.store.photos.ofAdsGoneBefore('2026-02-10T00:00:00.000Z', { now, preservedBefore });

    // Within the 6 months: only the ad no decision holds.
    expect(await gone('2026-03-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z')).toEqual([
      before.photoId,
    ]);
    // Appealed, in review: held past the deadline; upheld, it goes.
    await t.store.statements.fileAppeal({
      statementId: appealedStatement,
      accountId: 7,
      text: 'Mine.',
      filedAt: '2026-06-01T00:00:00.000Z',
    });
    const late = () => gone('2026-08-01T00:00:00.000Z', '2025-08-01T00:00:00.000Z');
    expect(await late()).toEqual([before.photoId, rejected.photoId, banned.photoId]);
    const appealId = (await t.store.statements.find(appealedStatement))!.appeal!.id;
    await t.store.statements.decideAppeal(appealId, {
      outcome: 'upheld',
      reply: 'No.',
      by: 9,
      at: '2026-07-20T00:00:00.000Z',
    });
    expect(await late()).toEqual([
      before.photoId,
      rejected.photoId,
      appealed.photoId,
      banned.photoId,
    ]);
    // Under 18: a year from the decision, appealed or not.
    expect(await gone('2027-01-11T00:00:00.000Z', '2026-01-11T00:00:00.000Z')).toContain(
      under18.photoId,
    );
    expect(await t.store.statements.find(under18Statement)).toMatchObject({
      reasonKey: 'under-18',
    });
  });

  it('a ban holds the photos of the ads it removed, not of those removed before it', async () => {
    const at = '2026-01-10T00:00:00.000Z';
    const adOf = async (n: number, updatedAt: string) =>
      (await goneAdWithPhoto(n, 'removed', updatedAt)).photoId;
    const earlier = await adOf(71, '2025-12-01T00:00:00.000Z');
    const withBan = await adOf(72, at);
    const banLog = await spamLogged(at, 'ban');
    await t.store.statements.insert({ ...spamStatement(banLog, at), kind: 'account-banned' });
    const gone = (now: string) =>
      t.store.photos.ofAdsGoneBefore('2026-02-10T00:00:00.000Z', {
        now,
        preservedBefore: '2025-01-01T00:00:00.000Z',
      });
    expect(await gone('2026-03-01T00:00:00.000Z')).toEqual([earlier]);
    expect(await gone('2026-07-11T00:00:00.000Z')).toEqual([earlier, withBan]);
  });

  it('remembers blocked hashes in order', async () => {
    await t.store.photos.block({
      phash: 'ffff000000000000',
      reason: 'under-18',
      photoId: 1,
      adId: 100000001,
      blockedAt: AT,
    });
    await t.store.photos.block({
      phash: '0000ffff00000000',
      reason: 'spam',
      photoId: null,
      adId: null,
      blockedAt: AT,
    });
    expect((await t.store.photos.blocked()).map((entry) => entry.reason)).toEqual([
      'under-18',
      'spam',
    ]);
  });

  it("an ad's photo list is stored with it and changed only at the revision read", async () => {
    const adId = await ad(7, [
      { id: 5, alt: '' },
      { id: 6, alt: 'At the beach' },
    ]);
    const row = (await t.store.memberAds.find(adId))!;
    expect(row.photos).toEqual([
      { id: 5, alt: '' },
      { id: 6, alt: 'At the beach' },
    ]);
    expect(row.pendingPhotos).toBeNull();
    expect(
      await t.store.memberAds.setPhotos(adId, row.revision, [{ id: 6, alt: '' }], [], AT),
    ).toBe(true);
    expect(
      await t.store.memberAds.setPhotos(adId, row.revision, [{ id: 5, alt: '' }], null, AT),
    ).toBe(false);
    const after = (await t.store.memberAds.find(adId))!;
    expect(after.photos).toEqual([{ id: 6, alt: '' }]);
    expect(after.pendingPhotos).toEqual([]);
  });
});

describe('photo storage', () => {
  photoStorageContract([
    {
      where: 'the database',
      open: () => databasePhotoStorage(t.store),
      usePhoto: async (n) => void (await t.store.photos.insert(photo(7, [n]))),
    },
    {
      where: 'a folder',
      open: () => folderPhotoStorage(join(t.dir, 'photos'), t.store),
      usePhoto: async (n) => void (await t.store.photos.insert(photo(7, [n]))),
      leftBehind: async (key) => existsSync(join(t.dir, 'photos', key.slice(0, 2), `${key}.webp`)),
    },
  ]);

  it('finds orphan bytes in the database: kept, but no photo came to use them', async () => {
    await t.store.photoBlobs.put(key(1), Buffer.from('one'), '2026-11-01T00:00:00.000Z');
    await t.store.photoBlobs.put(key(2), Buffer.from('two'), '2026-11-01T00:00:00.000Z');
    await t.store.photos.insert(photo(7, [2]));
    expect(await t.store.photoBlobs.orphansBefore('2026-11-02T00:00:00.000Z')).toEqual([key(1)]);
    expect(await t.store.photoBlobs.orphansBefore('2026-10-31T00:00:00.000Z')).toEqual([]);
  });
});
