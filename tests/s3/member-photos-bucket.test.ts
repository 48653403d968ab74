// A member's photos kept in a bucket (PHOTOS_BUCKET) through the app, on the real S3 server: the
// member's preview of a photo not yet published is read from the bucket's private part by the
// server (byte for byte what the bucket holds), and Delete my account deletes every object of
// their photos, as it deletes the files of a PHOTOS_DIR folder
// (tests/integration/member-data/photos.test.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ObjectStorage } from '../../store/object-storage/object-storage.ts';
import { keepUploadedPhoto } from '../../server/photos/keep-photo.ts';
import { privateKeyOf, publicKeyOf } from '../../store/photo-storage/photo-bucket.ts';
import {
  openPhotoStorage,
  type PhotoStorageLocation,
} from '../../store/photo-storage/photo-storage.ts';
import { createPhotoPool, type PhotoPool } from '../../server/photos/processing-pool.ts';
import {
  cookieHeader,
  makeTestApp,
  ORIGIN,
  PASSWORD,
  postJson,
  type TestApp,
} from '../helpers/api.ts';
import { smallJpeg } from '../helpers/photo-fixtures.ts';
import { makeMember } from '../helpers/posting.ts';
import { newTestBucket, removeTestBucket, testPhotoBucket } from '../helpers/s3-server.ts';

let pool: PhotoPool;
let uploads: string;
let bucket: string;
let location: PhotoStorageLocation;
let raw: ObjectStorage;
let app: TestApp;

beforeAll(async () => {
  pool = createPhotoPool({ processes: 1 });
  uploads = mkdtempSync(join(tmpdir(), 'localboard-bucket-uploads-'));
  bucket = await newTestBucket('member-photos');
  ({ location, raw } = testPhotoBucket(`s3://${bucket}/p`));
  app = await makeTestApp({ photoStorage: location, photoProcessing: pool });
}, 120_000);
afterAll(async () => {
  await app?.remove();
  raw?.close();
  await pool?.close();
  if (bucket) await removeTestBucket(bucket);
  rmSync(uploads, { recursive: true, force: true });
});

async function keepPhoto(accountId: number, seed: number): Promise<{ id: number; keys: string[] }> {
  const path = join(uploads, `upload-${seed}.jpg`);
  writeFileSync(path, await smallJpeg(seed));
  const kept = await keepUploadedPhoto(
    app.store,
    { pool, storage: openPhotoStorage(app.store, location) },
    accountId,
    { field: 'photos', name: 'me.jpg', path, size: 0, tooLarge: false, tooMany: false },
    new Date(),
  );
  if (!kept.ok) throw new Error(kept.problem);
  const row = (await app.store.photos.find(kept.id))!;
  return { id: kept.id, keys: row.variants.map((variant) => variant.key) };
}

describe('photos in a bucket, through the app', () => {
  test('the member sees their photo read from the bucket; deleting the account deletes its objects', async () => {
    const me = await makeMember(app);
    const other = await makeMember(app);
    const photo = await keepPhoto(me.accountId, 201);
    const smallest = photo.keys[0]!;
    const stored = (await raw.get(privateKeyOf(smallest)))!;
    expect(stored.length).toBeGreaterThan(100);

    const preview = await app.app.request(`${ORIGIN}/api/photos/${photo.id}/320`, {
      headers: cookieHeader(me.session),
    });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await preview.arrayBuffer()).equals(stored)).toBe(true);
    // Nobody else, and never at a public path.
    const theirs = await app.app.request(`${ORIGIN}/api/photos/${photo.id}/320`, {
      headers: cookieHeader(other.session),
    });
    expect(theirs.status).toBe(404);
    expect(await raw.head(publicKeyOf(smallest))).toBeUndefined();

    const deleted = await postJson(
      app.app,
      '/api/account/delete',
      { password: PASSWORD },
      cookieHeader(me.session),
    );
    expect(deleted.status).toBe(200);
    for (const key of photo.keys) {
      expect(await raw.head(privateKeyOf(key))).toBeUndefined();
      expect(await raw.head(publicKeyOf(key))).toBeUndefined();
    }
  });
});
