// A member's photos in Download my data and in Delete my account (docs/product.md sections 8 and
// 10): the data file lists every photo of theirs with its ad, alt text, dates, a moderator's
// reason, and each size's address (the published file while it shows on the live ad, else their
// own /api/photos/… which answers them); deleting the account, or an ad (deletePhotosOfAd), takes
// the photos' rows and their bytes, in the database or in a PHOTOS_DIR folder, but never bytes
// another member's photo still uses. Photos are real: processed by a worker of the pool.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AppPhotos } from '../../../server/photos/app-photos.ts';
import { deletePhotosOfAd } from '../../../server/photos/ad-photo-lifecycle.ts';
import { keepUploadedPhoto } from '../../../server/photos/keep-photo.ts';
import { openPhotoStorage, type PhotoStorage } from '../../../store/photo-storage/photo-storage.ts';
import { createPhotoPool, type PhotoPool } from '../../../server/photos/processing-pool.ts';
import { photoFilePath } from '../../../core/schemas/photos.ts';
import { cookieHeader, makeTestApp, ORIGIN, type TestApp } from '../../helpers/api.ts';
import { approveInStore, insertAdInReview } from '../../helpers/moderation.ts';
import { testAppOnFixtureContent } from '../../helpers/pages.ts';
import { smallJpeg } from '../../helpers/photo-fixtures.ts';
import { dayFromToday, makeMember, type TestMember } from '../../helpers/posting.ts';
import { accountDataApiPath, photoSizeApiPath } from '../../../core/paths.ts';
import { deleteAccountOf } from '../../helpers/member-data.ts';
import { clockFrom, DAY } from '../../helpers/clock.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const t = testAppOnFixtureContent();
let pool: PhotoPool;
let uploads: string;

beforeAll(() => {
  pool = createPhotoPool({ processes: 1 });
  uploads = mkdtempSync(join(tmpdir(), 'localboard-photo-uploads-'));
});
afterAll(async () => {
  await pool.close();
  rmSync(uploads, { recursive: true, force: true });
});

interface KeptPhoto {
  id: number;
  keys: string[];
}

let uploadCount = 0;
/** The JPEG drawn from `seed`, uploaded by the member and kept as the posting routes keep it. */
async function keepPhoto(app: TestApp, storage: PhotoStorage, accountId: number, seed: number) {
  const path = join(uploads, `upload-${++uploadCount}.jpg`);
  writeFileSync(path, await smallJpeg(seed));
  const photos: Pick<AppPhotos, 'pool' | 'storage'> = { pool, storage };
  const kept = await keepUploadedPhoto(
    app.store,
    photos,
    accountId,
    { field: 'photos', name: 'me.jpg', path, size: 0, tooLarge: false, tooMany: false },
    new Date(),
  );
  if (!kept.ok) throw new Error(kept.problem);
  const row = (await app.store.photos.find(kept.id))!;
  return { id: kept.id, keys: row.variants.map((variant) => variant.key) } satisfies KeptPhoto;
}

/** Of `keys`, those whose bytes the database storage holds. */
async function blobsOf(app: TestApp, keys: string[]): Promise<string[]> {
  const rows = await storedRows<{ key: string }>(
    app,
    `SELECT key FROM photo_blobs WHERE key IN (${keys.map(() => '?').join(', ')}) ORDER BY key`,
    ...keys,
  );
  return rows.map((row) => row.key);
}

const photoRows = (app: TestApp, accountId: number) =>
  storedRows(app, 'SELECT id FROM photos WHERE account_id = ?', accountId);

const preview = (app: TestApp, path: string, session: string) =>
  Promise.resolve(app.app.request(`${ORIGIN}${path}`, { headers: cookieHeader(session) }));

/** A live ad of the member's, shown until `expiresInDays` from today, with these photos. */
async function liveAd(
  app: TestApp,
  member: TestMember,
  photos: { id: number; alt: string }[],
  { expiresInDays = 20, pending = null as { id: number; alt: string }[] | null } = {},
) {
  const id = await insertAdInReview(app, {
    accountId: member.accountId,
    title: 'Sea walks',
    photos,
  });
  await app.store.photos.attach(
    [...photos, ...(pending ?? [])].map((photo) => photo.id),
    id,
    member.accountId,
  );
  await approveInStore(app, id, {
    postedOn: dayFromToday(-5),
    expiresOn: dayFromToday(expiresInDays),
  });
  // A live ad's edit of its photos only, kept as the edit route keeps it (setPhotos writes the
  // pending list as it is).
  if (pending) {
    const { revision } = (await app.store.memberAds.find(id))!;
    const at = new Date().toISOString();
    await app.store.memberAds.setPhotos(id, revision, photos, pending, at);
  }
  return id;
}

describe('Delete my account', () => {
  test("its photos' rows and bytes go; bytes another member's photo uses stay", async () => {
    const storage = openPhotoStorage(t.store);
    const me = await makeMember(t);
    const other = await makeMember(t);
    const onAd = await keepPhoto(t, storage, me.accountId, 101);
    const upload = await keepPhoto(t, storage, me.accountId, 102);
    await liveAd(t, me, [{ id: onAd.id, alt: 'On the pier' }]);
    // The same picture uploaded by someone else: the same bytes, the same keys.
    const theirs = await keepPhoto(t, storage, other.accountId, 101);
    expect(theirs.keys).toEqual(onAd.keys);
    const mine = [...onAd.keys, ...upload.keys];
    expect(await blobsOf(t, mine)).toEqual([...mine].sort());

    const response = await deleteAccountOf(t, me);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ deleted: true });

    expect(await photoRows(t, me.accountId)).toEqual([]);
    expect(
      await storedRows(
        t,
        'SELECT photo_id FROM photo_variants WHERE photo_id IN (?, ?)',
        onAd.id,
        upload.id,
      ),
    ).toEqual([]);
    expect(await blobsOf(t, upload.keys)).toEqual([]);
    expect(await blobsOf(t, onAd.keys)).toEqual([...onAd.keys].sort());
    const stillTheirs = await preview(t, photoSizeApiPath(theirs.id, 320), other.session);
    expect(stillTheirs.status).toBe(200);
    expect(stillTheirs.headers.get('content-type')).toBe('image/webp');
  });

  describe('with the photos in a folder (PHOTOS_DIR)', () => {
    let f: TestApp;
    let folder: string;
    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'localboard-photos-dir-'));
      f = await makeTestApp({ photoStorage: { folder } });
    });
    afterAll(async () => {
      await f.remove();
      rmSync(folder, { recursive: true, force: true });
    });
    const fileOf = (key: string) => join(folder, key.slice(0, 2), `${key}.webp`);

    test("the account's photo files are deleted from the folder", async () => {
      const storage = openPhotoStorage(f.store, { folder });
      const me = await makeMember(f);
      const onAd = await keepPhoto(f, storage, me.accountId, 103);
      const upload = await keepPhoto(f, storage, me.accountId, 104);
      await liveAd(f, me, [{ id: onAd.id, alt: '' }]);
      const files = [...onAd.keys, ...upload.keys].map(fileOf);
      expect(files.filter((file) => existsSync(file))).toEqual(files);

      expect((await deleteAccountOf(f, me)).status).toBe(200);
      expect(files.filter((file) => existsSync(file))).toEqual([]);
      expect(await photoRows(f, me.accountId)).toEqual([]);
    });
  });
});

describe('Deleting an ad: deletePhotosOfAd', () => {
  test("the ad's photos and their bytes go, the member's other ad keeps its own", async () => {
    const storage = openPhotoStorage(t.store);
    const me = await makeMember(t);
    const first = await keepPhoto(t, storage, me.accountId, 105);
    const second = await keepPhoto(t, storage, me.accountId, 106);
    const elsewhere = await keepPhoto(t, storage, me.accountId, 107);
    const deleted = await liveAd(t, me, [
      { id: first.id, alt: '' },
      { id: second.id, alt: '' },
    ]);
    await liveAd(t, me, [{ id: elsewhere.id, alt: '' }]);

    expect(await deletePhotosOfAd(t.store, storage, deleted)).toBe(2);
    expect(await t.store.photos.listForAd(deleted)).toEqual([]);
    expect(await blobsOf(t, [...first.keys, ...second.keys])).toEqual([]);
    expect((await preview(t, photoSizeApiPath(first.id, 320), me.session)).status).toBe(404);
    expect((await preview(t, photoSizeApiPath(elsewhere.id, 320), me.session)).status).toBe(200);
    // Twice (a retry, another instance): nothing left to do, no error.
    expect(await deletePhotosOfAd(t.store, storage, deleted)).toBe(0);
  });
});

interface DataFilePhoto {
  id: number;
  ad: { id: number; title: string } | null;
  place: string;
  alt: string | null;
  width: number;
  height: number;
  createdAt: string;
  removedAt: string | null;
  moderatorReason: string | null;
  moderatorNote: string | null;
  sizes: { width: number; height: number; url: string }[];
}

interface DataFile {
  photos: DataFilePhoto[];
  ads: { id: number; photos: number[]; pendingEdit: { photos: number[] | null } | null }[];
}

async function download(member: TestMember): Promise<DataFile> {
  const response = await preview(t, accountDataApiPath(), member.session);
  expect(response.status).toBe(200);
  return (await response.json()) as DataFile;
}

describe('Download my data', () => {
  let me: TestMember;
  let file: DataFile;
  let ids: Record<
    'shown' | 'defaultAlt' | 'pending' | 'inReview' | 'upload' | 'removed',
    KeptPhoto
  >;
  let live: number;
  let review: number;
  let theirs: KeptPhoto;

  beforeAll(async () => {
    const storage = openPhotoStorage(t.store);
    me = await makeMember(t);
    const other = await makeMember(t);
    const keep = (seed: number) => keepPhoto(t, storage, me.accountId, seed);
    ids = {
      shown: await keep(111),
      defaultAlt: await keep(112),
      pending: await keep(113),
      inReview: await keep(114),
      upload: await keep(115),
      removed: await keep(116),
    };
    theirs = await keepPhoto(t, storage, other.accountId, 117);
    live = await liveAd(
      t,
      me,
      [
        { id: ids.shown.id, alt: 'Me on the pier' },
        { id: ids.defaultAlt.id, alt: '' },
      ],
      {
        pending: [
          { id: ids.pending.id, alt: 'My dog' },
          { id: ids.shown.id, alt: 'Me on the pier' },
        ],
      },
    );
    review = await insertAdInReview(t, {
      accountId: me.accountId,
      title: 'Board games',
      photos: [
        { id: ids.inReview.id, alt: 'At the table' },
        { id: ids.removed.id, alt: '' },
      ],
    });
    await t.store.photos.attach([ids.inReview.id, ids.removed.id], review, me.accountId);
    // A moderator's removal, as moderation stores it: the photo stays, its sizes kept for an
    // appeal, for moderators' eyes only.
    await t.store.photos.markRemoved(ids.removed.id, {
      reason: 'identity',
      note: 'A stock photo.',
      moderatorId: other.accountId,
      at: new Date().toISOString(),
    });
    file = await download(me);
  });

  const entry = (photo: KeptPhoto) => file.photos.find((each) => each.id === photo.id)!;
  const published = (photo: KeptPhoto) =>
    photo.keys.map((key) => `http://localhost${photoFilePath(key)}`);
  const previews = (photo: KeptPhoto, widths = [320, 640, 800]) =>
    widths.map((width) => `http://localhost${photoSizeApiPath(photo.id, width)}`);

  test('lists every photo of theirs, and no one else’s', () => {
    expect(file.photos.map((photo) => photo.id)).toEqual(
      Object.values(ids).map((photo) => photo.id),
    );
    expect(file.photos.map((photo) => photo.id)).not.toContain(theirs.id);
  });

  test('a photo shown on the live ad: its alt, and the published files', () => {
    expect(entry(ids.shown)).toMatchObject({
      ad: { id: live, title: 'Sea walks' },
      place: 'shown on your live ad',
      alt: 'Me on the pier',
      width: 800,
      height: 600,
      removedAt: null,
      moderatorReason: null,
    });
    expect(entry(ids.shown).sizes).toEqual([
      { width: 320, height: 240, url: published(ids.shown)[0] },
      { width: 640, height: 480, url: published(ids.shown)[1] },
      { width: 800, height: 600, url: published(ids.shown)[2] },
    ]);
    expect(entry(ids.defaultAlt)).toMatchObject({ place: 'shown on your live ad', alt: null });
    expect(entry(ids.defaultAlt).sizes.map((size) => size.url)).toEqual(published(ids.defaultAlt));
  });

  test('photos not published: the member’s own addresses, which answer them', async () => {
    expect(entry(ids.pending)).toMatchObject({
      ad: { id: live },
      place: 'in your edit awaiting review',
      alt: 'My dog',
    });
    expect(entry(ids.inReview)).toMatchObject({
      ad: { id: review, title: 'Board games' },
      place: 'on your ad (not shown on the site)',
      alt: 'At the table',
    });
    expect(entry(ids.upload)).toMatchObject({
      ad: null,
      place: 'uploaded, not on an ad (deleted after a day)',
      alt: null,
    });
    for (const photo of [ids.pending, ids.inReview, ids.upload])
      expect(entry(photo).sizes.map((size) => size.url)).toEqual(previews(photo));
    const url = new URL(entry(ids.upload).sizes[1]!.url);
    const response = await preview(t, url.pathname, me.session);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
  });

  test('a removed photo: the moderator’s reason and note, no sizes (kept for moderators only)', async () => {
    expect((await t.store.photos.find(ids.removed.id))!.variants.length).toBeGreaterThan(0);
    expect(entry(ids.removed)).toMatchObject({
      place: 'removed by a moderator',
      moderatorReason: "Uses someone else's photos or identity",
      moderatorNote: 'A stock photo.',
      sizes: [],
    });
    expect(entry(ids.removed).removedAt).not.toBeNull();
  });

  test('each ad names its photos, and the edit awaiting review its own', () => {
    const ad = file.ads.find((each) => each.id === live)!;
    expect(ad.photos).toEqual([ids.shown.id, ids.defaultAlt.id]);
    expect(ad.pendingEdit?.photos).toEqual([ids.pending.id, ids.shown.id]);
  });

  test('while reports keep the ad off the site, its photos are the member’s addresses', async () => {
    const at = new Date().toISOString();
    await t.store.hiddenAds.hideByReports({ adId: live, kind: 'member', why: 'reports' }, at);
    const hidden = await download(me);
    await t.store.hiddenAds.unhide(live);
    const shown = hidden.photos.find((photo) => photo.id === ids.defaultAlt.id)!;
    expect(shown.place).toBe('on your ad (not shown on the site)');
    expect(shown.sizes.map((size) => size.url)).toEqual(previews(ids.defaultAlt));
  });

  test('once the ad has expired, its photos are the member’s addresses again', async () => {
    // A day past its expiry (20 days from today): the clock moved on, put back after the test.
    clockFrom().at(22 * DAY);
    const expired = await download(me);
    const shown = expired.photos.find((photo) => photo.id === ids.defaultAlt.id)!;
    expect(shown.place).toBe('on your ad (not shown on the site)');
    expect(shown.sizes.map((size) => size.url)).toEqual(previews(ids.defaultAlt));
  });
});
