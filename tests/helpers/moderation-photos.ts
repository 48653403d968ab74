// Photos on ads for the moderation tests, without the posting routes: a file processed and kept as
// the member's upload through keepUploadedPhoto (the real pool of worker processes, the real
// storage), then attached to an ad and listed in its photos (or its pending edit's), as the posting
// and edit routes store them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import type { AppPhotos } from '../../server/photos/app-photos.ts';
import { keepUploadedPhoto, type KeptPhoto } from '../../server/photos/keep-photo.ts';
import { openPhotoStorage } from '../../store/photo-storage/photo-storage.ts';
import { createPhotoPool, type PhotoPool } from '../../server/photos/processing-pool.ts';
import type { Store } from '../../store/store.ts';
import { DEFAULT_EXPLICIT_THRESHOLD, type AdPhotoRef } from '../../core/schemas/photos.ts';
import type { TestSql } from './test-store.ts';
import { storedRow, storedRows } from './stored-rows.ts';

/** One worker process for the file's tests, closed after them (pass it as `photoProcessing`). */
export function testPhotoPool(): PhotoPool {
  const pool = createPhotoPool({ processes: 1 });
  afterAll(() => pool.close());
  return pool;
}

/** The pool and the app's storage (the database, as the app's default), its default threshold. */
export const appPhotosOf = (store: Store, pool: PhotoPool): AppPhotos => ({
  pool,
  storage: openPhotoStorage(store),
  explicitThreshold: DEFAULT_EXPLICIT_THRESHOLD,
});

/** `bytes` uploaded by the member as a file would be, through keepUploadedPhoto. */
export async function keepPhoto(
  store: Store,
  photos: AppPhotos,
  accountId: number,
  bytes: Buffer,
): Promise<KeptPhoto> {
  const dir = mkdtempSync(join(tmpdir(), 'localboard-upload-'));
  const path = join(dir, 'file-1');
  writeFileSync(path, bytes);
  try {
    return await keepUploadedPhoto(
      store,
      photos,
      accountId,
      {
        field: 'photos',
        name: 'photo.jpg',
        path,
        size: bytes.length,
        tooLarge: false,
        tooMany: false,
      },
      new Date(),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A photo kept for the member; its id (the test fails if it was refused). */
export async function keptPhotoId(
  store: Store,
  photos: AppPhotos,
  accountId: number,
  bytes: Buffer,
): Promise<number> {
  const kept = await keepPhoto(store, photos, accountId, bytes);
  expect(kept).toMatchObject({ ok: true });
  return (kept as { id: number }).id;
}

/**
 * Puts the photos on the ad: attached, and its `photos` list (and `pending`, a live ad's edit of
 * them, when given) through the store's setPhotos, as the routes store them. The revision moves,
 * as any change of an ad. (The product calls setPhotos only to take photos away, the reviewed
 * edits going through setPendingEdit; here only the lists matter.)
 */
export async function putPhotosOnAd(
  t: { store: Store },
  adId: number,
  accountId: number,
  photos: number[],
  pending?: number[],
): Promise<void> {
  const all = [...new Set([...photos, ...(pending ?? [])])];
  expect(await t.store.photos.attach(all, adId, accountId)).toBe(all.length);
  const refs = (ids: number[]): AdPhotoRef[] => ids.map((id) => ({ id, alt: '' }));
  const { revision } = (await t.store.memberAds.find(adId))!;
  const at = new Date().toISOString();
  const set = await t.store.memberAds.setPhotos(
    adId,
    revision,
    refs(photos),
    pending ? refs(pending) : null,
    at,
  );
  expect(set).toBe(true);
}

/** The keys of a photo's sizes, read before they are deleted. */
export async function keysOfPhoto(sql: TestSql, photoId: number): Promise<string[]> {
  const rows = await storedRows<{ key: string }>(
    sql,
    'SELECT key FROM photo_variants WHERE photo_id = ? ORDER BY width',
    photoId,
  );
  return rows.map((row) => row.key);
}

/** How many of `keys` still have bytes in photo_blobs. */
export async function blobsLeft(sql: TestSql, keys: string[]): Promise<number> {
  let left = 0;
  for (const key of keys)
    if (await storedRow(sql, 'SELECT key FROM photo_blobs WHERE key = ?', key)) left += 1;
  return left;
}
