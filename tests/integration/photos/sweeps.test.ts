// The hourly photo sweeps (server/photos/sweeps.ts), with a moved clock: uploads on no ad older
// than a day go (rows and bytes), younger ones and those on an ad stay; the photos of ads rejected
// more than 30 days ago go, a fresher rejection's and a live ad's stay; bytes no photo names go
// after a day, never bytes a photo still uses. Two sweeps at once end as one. On SQLite and (in the
// postgres suite) PostgreSQL; bytes in the database and in a folder.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openPhotoStorage, type PhotoStorage } from '../../../store/photo-storage/photo-storage.ts';
import { deletePhotos } from '../../../server/photos/ad-photo-lifecycle.ts';
import { sweepPhotos } from '../../../server/photos/sweeps.ts';
import { storeForEachTest } from '../../helpers/test-store.ts';
import { accountInStore } from '../../helpers/store-accounts.ts';
import { insertPhotoWithOneSize } from '../../helpers/photo-storage-contract.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const t = storeForEachTest();
let storage: PhotoStorage;

/** The sweep's clock: 2026-11-20 at noon, and times before it. */
const NOW = new Date('2026-11-20T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000).toISOString();
const daysAgo = (days: number) => hoursAgo(days * 24);
/** The member whose photos are swept (made in each test's store). */
let member = 0;

beforeEach(async () => {
  storage = openPhotoStorage(t.store);
  member = await accountInStore(t.store, 'member@example.com', { at: daysAgo(90) });
});

let drawn = 0;
/** A photo's bytes: a key is their digest, as processing names them. */
function variantBytes(label = `photo ${++drawn}`) {
  const bytes = Buffer.from(`RIFF webp bytes of ${label}`);
  return { bytes, key: createHash('sha256').update(bytes).digest('hex').slice(0, 32) };
}

/** A processed photo of the member's, uploaded at `at`, with one size whose bytes are stored. */
async function photo(at: string, bytes = variantBytes()) {
  await storage.put(bytes.key, bytes.bytes);
  const id = await insertPhotoWithOneSize(t.store, member, bytes.key, bytes.bytes.length, at);
  return { id, key: bytes.key };
}

/** An ad of the member's with these photos, last changed (posted, decided) at `updatedAt`. */
async function ad(status: 'review' | 'live' | 'rejected', updatedAt: string, photoIds: number[]) {
  const content = {
    state: 'California',
    city: 'Los Angeles',
    age: 34,
    seeks: 'w4m' as const,
    title: 'Sea walks',
    description: 'Say hello.',
    photos: photoIds.map((id) => ({ id, alt: '' })),
  };
  const posted = status === 'review' ? updatedAt : daysAgo(60);
  const id = await t.store.memberAds.insert(member, content, '[]', posted);
  if (status === 'live') {
    const days = { postedOn: updatedAt.slice(0, 10), expiresOn: '2026-12-20' };
    expect(await t.store.moderation.approveNew(id, 1, updatedAt, days)).toBe(true);
  }
  if (status === 'rejected')
    expect(
      await t.store.moderation.rejectNew(id, 1, { reason: 'Spam or duplicate' }, updatedAt),
    ).toBe(true);
  expect(await t.store.photos.attach(photoIds, id, member)).toBe(photoIds.length);
  return id;
}

const photoIds = async () =>
  (await storedRows<{ id: number }>(t, 'SELECT id FROM photos ORDER BY id')).map((row) =>
    Number(row.id),
  );
const storedBytes = async (keys: string[]) =>
  (await Promise.all(keys.map(async (key) => ((await storage.get(key)) ? key : null)))).filter(
    (key) => key !== null,
  );

/** What a sweep that finds nothing answers; each test adds what it expects swept. */
const NOTHING_SWEPT = {
  uploads: 0,
  ofRejectedAds: 0,
  removedKept: 0,
  orphanBlobs: 0,
  unindexed: 0,
  selfies: 0,
};

describe('uploads on no ad', () => {
  it('older than a day: deleted with their bytes; younger, or on an ad: kept', async () => {
    const old = await photo(hoursAgo(25));
    const young = await photo(hoursAgo(23));
    const oldOnAd = await photo(daysAgo(10));
    await ad('review', daysAgo(10), [oldOnAd.id]);

    expect(await sweepPhotos(t.store, storage, NOW)).toEqual({ ...NOTHING_SWEPT, uploads: 1 });
    expect(await photoIds()).toEqual([young.id, oldOnAd.id]);
    expect(await storedBytes([old.key, young.key, oldOnAd.key])).toEqual([young.key, oldOnAd.key]);
    expect(
      await storedRows(t, 'SELECT photo_id FROM photo_variants WHERE photo_id = ?', old.id),
    ).toEqual([]);
  });

  it('keeps bytes another photo still uses (the same picture, uploaded again)', async () => {
    const shared = variantBytes('the same picture');
    const abandoned = await photo(daysAgo(3), shared);
    const posted = await photo(daysAgo(3), shared);
    await ad('live', daysAgo(3), [posted.id]);

    expect((await sweepPhotos(t.store, storage, NOW)).uploads).toBe(1);
    expect(await photoIds()).toEqual([posted.id]);
    expect(await storedBytes([abandoned.key])).toEqual([shared.key]);
  });
});

describe('an upload posted while the sweep runs', () => {
  it('attached between the listing and the deletion: it stays, with its bytes', async () => {
    const upload = await photo(daysAgo(2));
    const listed = await t.store.photos.uploadsBefore(hoursAgo(24));
    expect(listed).toEqual([upload.id]);
    await ad('review', hoursAgo(0), [upload.id]);

    expect(await deletePhotos(t.store, storage, listed, (each) => each.adId === null)).toBe(0);
    expect(await photoIds()).toEqual([upload.id]);
    expect(await storedBytes([upload.key])).toEqual([upload.key]);
  });
});

describe('photos of rejected ads', () => {
  it('rejected more than 30 days ago: deleted; a fresher rejection and other ads: kept', async () => {
    const longAgo = [await photo(daysAgo(40)), await photo(daysAgo(40))];
    const lately = await photo(daysAgo(40));
    const live = await photo(daysAgo(40));
    await ad(
      'rejected',
      daysAgo(31),
      longAgo.map((each) => each.id),
    );
    await ad('rejected', daysAgo(29), [lately.id]);
    await ad('live', daysAgo(31), [live.id]);

    expect(await sweepPhotos(t.store, storage, NOW)).toEqual({
      ...NOTHING_SWEPT,
      ofRejectedAds: 2,
    });
    expect(await photoIds()).toEqual([lately.id, live.id]);
    expect(await storedBytes(longAgo.map((each) => each.key))).toEqual([]);
    // A month on, the fresher rejection's go too.
    const later = new Date(NOW.getTime() + 2 * 24 * 3_600_000);
    expect((await sweepPhotos(t.store, storage, later)).ofRejectedAds).toBe(1);
    expect(await photoIds()).toEqual([live.id]);
  });
});

describe('removed photos kept for their appeal', () => {
  it('on an ad rejected long ago, a photo removed 40 days ago stays with its sizes; without a statement, they go after 6 months', async () => {
    const removed = await photo(daysAgo(50));
    const other = await photo(daysAgo(50));
    await ad('rejected', daysAgo(31), [removed.id, other.id]);
    expect(
      await t.store.photos.markRemoved(removed.id, {
        reason: 'spam',
        note: null,
        moderatorId: member,
        at: daysAgo(40),
      }),
    ).toBe(true);

    expect(await sweepPhotos(t.store, storage, NOW)).toEqual({
      ...NOTHING_SWEPT,
      ofRejectedAds: 1,
      // Removed more than 30 days ago: out of the duplicate index (photo-duplicates.ts).
      unindexed: 1,
    });
    expect(await photoIds()).toEqual([removed.id]);
    expect(await storedBytes([removed.key])).toEqual([removed.key]);
    // Past 6 months from the removal: its sizes go, then the row with its ad's.
    const later = new Date(NOW.getTime() + 150 * 24 * 3_600_000);
    expect(await sweepPhotos(t.store, storage, later)).toEqual({
      ...NOTHING_SWEPT,
      ofRejectedAds: 1,
      removedKept: 1,
    });
    expect(await photoIds()).toEqual([]);
    expect(await storedBytes([removed.key])).toEqual([]);
  });
});

describe('bytes no photo names (orphans)', () => {
  async function orphan(at: string) {
    const bytes = variantBytes();
    await t.store.photoBlobs.put(bytes.key, bytes.bytes, at);
    return bytes.key;
  }

  it('kept more than a day: deleted; younger, or named by a photo: kept', async () => {
    const old = await orphan(hoursAgo(25));
    const young = await orphan(hoursAgo(2));
    // Its bytes stored five days ago, when it was uploaded (the sweep's clock is NOW).
    const usedBytes = variantBytes();
    await t.store.photoBlobs.put(usedBytes.key, usedBytes.bytes, daysAgo(5));
    const used = await photo(daysAgo(5), usedBytes);
    await ad('live', daysAgo(5), [used.id]);

    expect(await sweepPhotos(t.store, storage, NOW)).toEqual({ ...NOTHING_SWEPT, orphanBlobs: 1 });
    expect(await storedBytes([old, young, used.key])).toEqual([young, used.key]);
  });
});

describe('several instances', () => {
  it('two sweeps at once delete each thing once, and a third finds nothing', async () => {
    const uploads = [await photo(daysAgo(2)), await photo(daysAgo(2)), await photo(daysAgo(2))];
    const rejected = await photo(daysAgo(40));
    await ad('rejected', daysAgo(35), [rejected.id]);
    await t.store.photoBlobs.put(variantBytes().key, Buffer.from('left over'), daysAgo(2));

    const [first, second] = await Promise.all([
      sweepPhotos(t.store, storage, NOW),
      sweepPhotos(t.store, storage, NOW),
    ]);
    // Between them, every photo deleted once at least; nothing else, and no error.
    expect(first.uploads + second.uploads).toBeGreaterThanOrEqual(3);
    expect(await photoIds()).toEqual([]);
    expect(await storedRows(t, 'SELECT key FROM photo_blobs')).toEqual([]);
    expect(await storedBytes([...uploads, rejected].map((each) => each.key))).toEqual([]);
    expect(await sweepPhotos(t.store, storage, NOW)).toEqual(NOTHING_SWEPT);
  });
});

describe('with the bytes in a folder (PHOTOS_DIR)', () => {
  it("an abandoned upload's files are deleted from the folder", async () => {
    const folder = join(t.dir, 'photos');
    storage = openPhotoStorage(t.store, { folder });
    const old = await photo(daysAgo(2));
    const young = await photo(hoursAgo(1));
    const fileOf = (key: string) => join(folder, key.slice(0, 2), `${key}.webp`);
    expect(existsSync(fileOf(old.key))).toBe(true);

    expect((await sweepPhotos(t.store, storage, NOW)).uploads).toBe(1);
    expect(existsSync(fileOf(old.key))).toBe(false);
    expect(existsSync(fileOf(young.key))).toBe(true);
  });
});
