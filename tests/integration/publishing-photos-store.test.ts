// The published ads' snapshot (store/parts/published-ads.ts) with photos, on either engine: each
// live ad's row lists its photos as member_ads.photos orders them, with their sizes, leaving out
// photos removed, missing or another ad's; and a change of the list changes its range's key.
import { expect, test } from 'vitest';
import { readMemberAds } from '../../pipeline/compile/database-ad-source.ts';
import { insertMemberAd } from '../helpers/member-ads.ts';
import { storeForEachTest } from '../helpers/test-store.ts';
import { storedRow } from '../helpers/stored-rows.ts';

const t = storeForEachTest();

const key = (n: number) => n.toString(16).padStart(32, '0');

/** A processed photo on `adId` with sizes 320 and 640 (keys from `n`); its id. */
async function photoOn(adId: number | null, n: number, removed = false): Promise<number> {
  const accountId = (await storedRow<{ id: number }>(t, 'SELECT id FROM accounts'))!.id;
  const id = await t.store.photos.insert({
    accountId,
    width: 900,
    height: 1200,
    phash: '0123456789abcdef',
    flag: null,
    variants: [
      { width: 320, height: 427, key: key(n), size: 10 },
      { width: 640, height: 853, key: key(n + 1), size: 20 },
    ],
    at: '2026-11-20T10:00:00.000Z',
  });
  if (adId !== null) await t.store.photos.attach([id], adId, accountId);
  // Removed by a moderator, as moderation stores it.
  if (removed)
    await t.store.photos.markRemoved(id, {
      reason: 'other',
      note: null,
      moderatorId: accountId,
      at: '2026-11-21T00:00:00.000Z',
    });
  return id;
}

const rowsOf = (from: number) =>
  t.store.publishedAds.snapshot((snapshot) => snapshot.rows(from, from + 1000));

test("a live ad's row lists its photos in its order, with their sizes; removed, missing and other ads' photos are left out", async () => {
  const id = await insertMemberAd(t, {
    state: 'California',
    city: 'San Jose',
    title: 'Tide pools',
  });
  const other = await insertMemberAd(t, { state: 'California', city: 'San Jose', title: 'Other' });
  const first = await photoOn(id, 0x10);
  const second = await photoOn(id, 0x20);
  const removed = await photoOn(id, 0x30, true);
  const othersPhoto = await photoOn(other, 0x40);
  const row = await t.store.memberAds.find(id);
  expect(
    await t.store.memberAds.setPhotos(
      id,
      row!.revision,
      [
        { id: second, alt: 'At the harbour' },
        { id: removed, alt: '' },
        { id: othersPhoto, alt: '' },
        { id: 999_999, alt: '' },
        { id: first, alt: '' },
      ],
      null,
      '2026-11-21T00:00:00.000Z',
    ),
  ).toBe(true);

  const rows = await rowsOf(Math.floor(id / 1000) * 1000);
  const ad = rows.find((each) => each.id === id)!;
  expect(ad.photos).toEqual([
    {
      id: second,
      alt: 'At the harbour',
      width: 640,
      height: 853,
      variants: [
        { width: 320, height: 427, key: key(0x20) },
        { width: 640, height: 853, key: key(0x21) },
      ],
    },
    expect.objectContaining({ id: first, alt: '' }),
  ]);
  // The other ad lists none: its photo is on it, but not in its list.
  expect(rows.find((each) => each.id === other)!.photos).toEqual([]);
});

test("taking a photo off an ad's list changes its range's key", async () => {
  const id = await insertMemberAd(t, {
    state: 'California',
    city: 'San Jose',
    title: 'Tide pools',
  });
  const photo = await photoOn(id, 0x50);
  const revision = async () => (await t.store.memberAds.find(id))!.revision;
  await t.store.memberAds.setPhotos(
    id,
    await revision(),
    [{ id: photo, alt: '' }],
    null,
    '2026-11-21T00:00:00.000Z',
  );
  const before = await readMemberAds(t.store);
  await t.store.memberAds.setPhotos(id, await revision(), [], null, '2026-11-21T00:00:00.000Z');
  const after = await readMemberAds(t.store);
  expect(after.ranges.map((range) => range.from)).toEqual(before.ranges.map((range) => range.from));
  expect(after.ranges[0]!.key).not.toBe(before.ranges[0]!.key);
});
