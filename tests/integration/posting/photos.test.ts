// Photos on the posting and edit forms (issue 20), in-process against a real store with the real
// processing pool: a plain multipart form post (no JavaScript) and the same with
// Accept: application/json; every hostile file refused beside the photo field with what was typed
// kept and nothing stored; the processed files of a refused post kept and shown again; the limits
// (6 photos, someone else's photo); a live ad's edit (removals at once, additions waiting); a full
// pool (503, Retry-After); the server's memory while the bombs are posted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cookieHeader, ORIGIN, type TestApp } from '../../helpers/api.ts';
import { attributesOfId, testAppOnFixtureContent } from '../../helpers/pages.ts';
import {
  asUpload,
  BAD_FILES,
  phoneJpeg,
  smallJpeg,
  asFile,
  type UploadFile,
} from '../../helpers/photo-fixtures.ts';
import {
  dayFromToday,
  fieldErrorOf,
  getPage,
  makeMember,
  moveAd,
  storedAds,
  validAd,
  type TestMember,
} from '../../helpers/posting.ts';
import { createPhotoPool } from '../../../server/photos/processing-pool.ts';
import { parseAdPhotoList } from '../../../core/schemas/photos.ts';
import {
  adsApiPath,
  editAdApiPath,
  photoSizeApiPath,
  postInReviewPath,
  postPath,
} from '../../../core/paths.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const pool = createPhotoPool({ processes: 2 });
const t = testAppOnFixtureContent({ photoProcessing: pool });
afterAll(() => pool.close());

type Fields = Record<string, string | string[]>;

/** A multipart form's bytes and content type, as a browser would send them. */
async function multipartBody(fields: Fields, files: UploadFile[]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields))
    for (const each of Array.isArray(value) ? value : [value]) form.append(name, each);
  for (const file of files) form.append('photos', asFile(file));
  const request = new Request(ORIGIN, { method: 'POST', body: form });
  return {
    bytes: await request.arrayBuffer(),
    contentType: request.headers.get('content-type')!,
  };
}

/** Posts a form's bytes (multipartBody), as the browser does without JavaScript (or as JSON's script). */
function postBody(
  app: Pick<TestApp, 'app'>,
  path: string,
  { bytes, contentType }: { bytes: ArrayBuffer; contentType: string },
  session: string,
  accept: 'html' | 'json' = 'html',
): Promise<Response> {
  return Promise.resolve(
    app.app.request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: {
        ...cookieHeader(session),
        'content-type': contentType,
        accept: accept === 'json' ? 'application/json' : 'text/html,application/xhtml+xml',
      },
      body: bytes,
    }),
  );
}

/** Posts a multipart form, as the browser does without JavaScript (or a script asking for JSON). */
async function postMultipart(
  app: Pick<TestApp, 'app'>,
  path: string,
  fields: Fields,
  files: UploadFile[],
  session: string,
  accept: 'html' | 'json' = 'html',
): Promise<Response> {
  return postBody(app, path, await multipartBody(fields, files), session, accept);
}

interface PhotoRowSeen {
  id: number;
  account_id: number;
  ad_id: number | null;
}
const photoRows = (app: Pick<TestApp, 'sql'>, accountId: number) =>
  storedRows<PhotoRowSeen>(
    app,
    'SELECT id, account_id, ad_id FROM photos WHERE account_id = ? ORDER BY id',
    accountId,
  );
const variantsOf = (app: Pick<TestApp, 'sql'>, photoId: number) =>
  storedRows<{ width: number; height: number; key: string }>(
    app,
    'SELECT width, height, key FROM photo_variants WHERE photo_id = ? ORDER BY width',
    photoId,
  );
const blobCount = async (app: Pick<TestApp, 'sql'>) =>
  Number((await storedRows<{ n: number }>(app, 'SELECT COUNT(*) AS n FROM photo_blobs'))[0]!.n);

/** The kept photos' ids in a form page (hidden `photo` inputs), in order. */
const keptIdsIn = (html: string) =>
  [...html.matchAll(/<input type="hidden" name="photo" value="(\d+)"/g)].map((m) => Number(m[1]));

const jpeg = async (seed: number, name = `photo-${seed}.jpg`) =>
  asUpload(await smallJpeg(seed), name);

describe('posting an ad with photos, without JavaScript', () => {
  let member: TestMember;
  beforeAll(async () => {
    member = await makeMember(t);
  });

  test('the form is multipart with the photo field, its hint and the file input', async () => {
    const html = await (await getPage(t, postPath(), member.session)).text();
    expect(html).toContain('encType="multipart/form-data"');
    expect(html.replace(/<!-- -->/g, '')).toContain(
      '<label for="ad-photos">Photos (up to 6)</label>',
    );
    expect(attributesOfId(html, 'ad-photos')).toMatchObject({
      tag: 'input',
      type: 'file',
      multiple: '',
      accept: 'image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif',
      'aria-describedby': 'ad-photos-hint',
      name: 'photos',
    });
    expect(html).toContain('JPEG, PNG, WebP or HEIF, up to 15 MB and 40 megapixels each.');
  });

  test('a phone photo is kept upright in three widths, stored, and on the ad', async () => {
    const response = await postMultipart(
      t,
      adsApiPath(),
      validAd(),
      [asUpload(await phoneJpeg(), 'IMG_0001.jpg')],
      member.session,
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(postInReviewPath());
    const [ad] = await storedAds(t, member.accountId);
    const photos = parseAdPhotoList((ad as unknown as { photos: string }).photos);
    expect(photos).toHaveLength(1);
    expect(photos[0]!.alt).toBe('');
    const [row] = await photoRows(t, member.accountId);
    expect(row).toMatchObject({ id: photos[0]!.id, ad_id: ad!.id });
    const variants = await variantsOf(t, row!.id);
    // 3000 × 2000 with "rotate 90°": portrait, 1280 wide at most.
    expect(variants.map(({ width, height }) => [width, height])).toEqual([
      [320, 480],
      [640, 960],
      [1280, 1920],
    ]);
    for (const variant of variants) {
      const bytes = await t.store.photoBlobs.get(variant.key);
      expect(bytes?.subarray(8, 12).toString('latin1')).toBe('WEBP');
    }
  });
});

describe('files that are not usable photos', () => {
  let member: TestMember;
  beforeAll(async () => {
    member = await makeMember(t);
  });

  test.each(Object.entries(BAD_FILES))(
    '%s: refused beside the photo field, the ad kept, nothing stored',
    async (_what, make) => {
      const file = await make();
      const blobsBefore = await blobCount(t);
      const response = await postMultipart(
        t,
        adsApiPath(),
        validAd({ title: 'My title stays' }),
        [file],
        member.session,
      );
      expect(response.status).toBe(400);
      const html = await response.text();
      expect(fieldErrorOf(html, 'photos')).toMatch(
        new RegExp(`^${file.name.replace('.', '\\.')}: .+`),
      );
      expect(html).toMatch(/aria-describedby="ad-photos-hint ad-photos-error" aria-invalid="true"/);
      expect(html).toMatch(/id="ad-title"[^>]*value="My title stays"/);
      expect(await photoRows(t, member.accountId)).toEqual([]);
      expect(await blobCount(t)).toBe(blobsBefore);
      expect(await storedAds(t, member.accountId)).toEqual([]);
    },
  );

  test('posting every bomb keeps the server within 100 MB of memory', async () => {
    // The posts' bytes are made first: the test's own client (a FormData of a 16 MB file made into
    // a body) would otherwise be counted, some 125 MB of it, in this process the server shares.
    const bodies = await Promise.all(
      Object.values(BAD_FILES).map(async (make) => multipartBody(validAd(), [await make()])),
    );
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      for (const body of bodies) {
        const response = await postBody(t, adsApiPath(), body, member.session);
        expect(response.status).toBe(400);
      }
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(`RSS while posting the bad files: +${((peak - before) / 1e6).toFixed(1)} MB`);
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  });
});

describe('a refused post keeps the photos that were fine', () => {
  test('the good one is shown again, and sent again by its id without re-uploading', async () => {
    const member = await makeMember(t);
    const good = await jpeg(7, 'beach.jpg');
    const bad = asUpload(Buffer.from('<?php system($_GET["c"]); ?>'), 'shell.jpg');
    const refused = await postMultipart(
      t,
      adsApiPath(),
      validAd({ description: '' }),
      [good, bad],
      member.session,
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(fieldErrorOf(html, 'photos')).toBe(
      "shell.jpg: This file isn't a photo we can use. Choose a JPEG, PNG, WebP or HEIF photo (SVG and other files can't be used).",
    );
    expect(fieldErrorOf(html, 'description')).toBe('Write a description.');
    const [upload] = await photoRows(t, member.accountId);
    expect(upload).toMatchObject({ ad_id: null });
    expect(keptIdsIn(html)).toEqual([upload!.id]);
    expect(html).toContain(`src="${photoSizeApiPath(upload!.id, 320)}" width="320" height="240"`);
    expect(html).toContain('alt="Photo 1 of 1: Coffee and a long walk by the sea"');
    expect(html).toContain('Describe this photo (optional)');
    expect(html).not.toContain('Remove this photo');
    // Its thumbnail is the member's to see.
    const preview = await getPage(t, photoSizeApiPath(upload!.id, 320), member.session);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/webp');

    const posted = await postMultipart(
      t,
      adsApiPath(),
      validAd({ photo: String(upload!.id), [`photo_alt_${upload!.id}`]: 'At the beach' }),
      [],
      member.session,
    );
    expect(posted.status).toBe(303);
    const [ad] = await storedAds(t, member.accountId);
    expect(parseAdPhotoList((ad as unknown as { photos: string }).photos)).toEqual([
      { id: upload!.id, alt: 'At the beach' },
    ]);
    expect(await photoRows(t, member.accountId)).toEqual([
      { id: upload!.id, account_id: member.accountId, ad_id: ad!.id },
    ]);
  });

  test('as JSON: the message, the field and the kept photos', async () => {
    const member = await makeMember(t);
    const response = await postMultipart(
      t,
      adsApiPath(),
      validAd(),
      [await jpeg(8), await BAD_FILES['a truncated JPEG']()],
      member.session,
      'json',
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: string;
      field: string;
      fieldErrors: Record<string, string>;
      keptPhotos: { id: number; alt: string; previewUrl: string }[];
    };
    const [upload] = await photoRows(t, member.accountId);
    expect(body.field).toBe('photos');
    expect(body.fieldErrors.photos).toMatch(/^truncated\.jpg: This photo couldn't be read/);
    expect(body.keptPhotos).toEqual([
      { id: upload!.id, alt: '', previewUrl: photoSizeApiPath(upload!.id, 320) },
    ]);
  });

  test('as JSON, a good post answers the ad and where to go', async () => {
    const member = await makeMember(t);
    const response = await postMultipart(
      t,
      adsApiPath(),
      validAd(),
      [await jpeg(9), await jpeg(10)],
      member.session,
      'json',
    );
    expect(response.status).toBe(201);
    const body = (await response.json()) as { id: number; redirectUrl: string };
    expect(body.redirectUrl).toBe(postInReviewPath());
    const [ad] = await storedAds(t, member.accountId);
    expect(body.id).toBe(ad!.id);
    const rows = await photoRows(t, member.accountId);
    const list = parseAdPhotoList((ad as unknown as { photos: string }).photos);
    expect(list.map((photo) => photo.id).sort()).toEqual(rows.map((row) => row.id).sort());
    expect(rows.every((row) => row.ad_id === ad!.id)).toBe(true);
  });
});

describe('the limits', () => {
  test('a seventh photo is refused by name; the six are kept', async () => {
    const member = await makeMember(t);
    const files = await Promise.all([1, 2, 3, 4, 5, 6, 7].map((seed) => jpeg(20 + seed)));
    const response = await postMultipart(t, adsApiPath(), validAd(), files, member.session);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldErrorOf(html, 'photos')).toBe(
      'photo-27.jpg: an ad can have up to 6 photos, so this one wasn\u2019t added.'.replace(
        '\u2019',
        "'",
      ),
    );
    expect(keptIdsIn(html)).toHaveLength(6);
    expect(await storedAds(t, member.accountId)).toEqual([]);
  });

  test("someone else's photo is not found, and stays theirs", async () => {
    const owner = await makeMember(t);
    await postMultipart(
      t,
      adsApiPath(),
      validAd({ description: '' }),
      [await jpeg(31)],
      owner.session,
    );
    const [theirs] = await photoRows(t, owner.accountId);
    const other = await makeMember(t);
    const response = await postMultipart(
      t,
      adsApiPath(),
      validAd({ photo: String(theirs!.id) }),
      [],
      other.session,
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldErrorOf(html, 'photos')).toBe(
      "Photo 1: we couldn't find that photo among yours. Choose it again.",
    );
    expect(keptIdsIn(html)).toEqual([]);
    expect(await storedAds(t, other.accountId)).toEqual([]);
    expect((await photoRows(t, owner.accountId))[0]).toMatchObject({ ad_id: null });
  });

  test('a body over six full photos is 413 with the message beside the photo field', async () => {
    const member = await makeMember(t);
    const response = await t.app.request(`${ORIGIN}${adsApiPath()}`, {
      method: 'POST',
      headers: {
        ...cookieHeader(member.session),
        accept: 'text/html',
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(7 * 15 * 1024 * 1024),
      },
      body: '--x--\r\n',
    });
    expect(response.status).toBe(413);
    expect(fieldErrorOf(await response.text(), 'photos')).toMatch(
      /^The photos are too large together: an ad can have up to 6 photos of at most 15 MB each\./,
    );
  });
});

describe('editing the photos of a live ad', () => {
  test('a photo removed goes at once; one added waits for review', async () => {
    const member = await makeMember(t);
    await postMultipart(
      t,
      adsApiPath(),
      validAd(),
      [await jpeg(41), await jpeg(42)],
      member.session,
    );
    const [ad] = await storedAds(t, member.accountId);
    await moveAd(t, ad!.id, { status: 'live', expiresOn: dayFromToday(20) });
    // In the order the ad lists them (the files' order; ids come as processing ends).
    const [first, second] = parseAdPhotoList((ad as unknown as { photos: string }).photos);
    expect(await photoRows(t, member.accountId)).toHaveLength(2);
    const firstKeys = (await variantsOf(t, first!.id)).map((variant) => variant.key);

    const editPage = await (await getPage(t, `/account/ads/${ad!.id}/edit`, member.session)).text();
    expect(keptIdsIn(editPage)).toEqual([first!.id, second!.id]);
    expect(editPage).toContain(`name="photo_remove_${first!.id}" value="1"`);
    expect(editPage).toContain('Remove this photo');

    const text = {
      age: '34',
      seeks: 'w4m',
      title: validAd().title!,
      description: validAd().description!,
    };
    const removed = await postMultipart(
      t,
      editAdApiPath(ad!.id),
      {
        ...text,
        photo: [String(first!.id), String(second!.id)],
        [`photo_remove_${first!.id}`]: '1',
      },
      [],
      member.session,
    );
    expect(removed.status).toBe(303);
    let [row] = await storedAds(t, member.accountId);
    const stored = row as unknown as { photos: string; pending_photos: string | null };
    expect(parseAdPhotoList(stored.photos)).toEqual([{ id: second!.id, alt: '' }]);
    expect(stored.pending_photos).toBeNull();
    expect(row!.pending_title).toBeNull();
    expect((await photoRows(t, member.accountId)).map((photo) => photo.id)).toEqual([second!.id]);
    for (const key of firstKeys) expect(await t.store.photoBlobs.get(key)).toBeUndefined();

    const added = await postMultipart(
      t,
      editAdApiPath(ad!.id),
      { ...text, photo: String(second!.id) },
      [await jpeg(43)],
      member.session,
    );
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe('/account?done=edit-in-review');
    [row] = await storedAds(t, member.accountId);
    const third = (await photoRows(t, member.accountId)).at(-1)!;
    const after = row as unknown as { photos: string; pending_photos: string | null };
    expect(parseAdPhotoList(after.photos)).toEqual([{ id: second!.id, alt: '' }]);
    expect(parseAdPhotoList(after.pending_photos)).toEqual([
      { id: second!.id, alt: '' },
      { id: third.id, alt: '' },
    ]);
    const again = await (await getPage(t, `/account/ads/${ad!.id}/edit`, member.session)).text();
    expect(keptIdsIn(again)).toEqual([second!.id, third.id]);
    expect(again.match(/Waiting for review/g)).toHaveLength(1);
  });
});

describe('a full pool', () => {
  test('503 with Retry-After and the form kept; nothing stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'localboard-busy-'));
    // A worker that never answers: the pool is busy for as long as the test says.
    const stall = join(dir, 'stall.mjs');
    writeFileSync(
      stall,
      "process.on('message', () => {}); process.on('disconnect', () => process.exit(0));",
    );
    const busyPool = createPhotoPool({
      processes: 1,
      maxWaitMs: 0,
      // Taken to last an hour: the one running keeps the pool full.
      expectedMs: 3_600_000,
      worker: { file: stall, execArgv: [] },
    });
    const { makeTestApp } = await import('../../helpers/api.ts');
    const busy = await makeTestApp({ photoProcessing: busyPool });
    try {
      const member = await makeMember(busy);
      const file = join(dir, 'any.jpg');
      writeFileSync(file, (await jpeg(50)).buffer);
      const [first, second] = [await jpeg(51), await jpeg(52)];
      const running = busyPool.process(file);
      running.catch(() => {});
      const json = await postMultipart(
        busy,
        adsApiPath(),
        validAd(),
        [first],
        member.session,
        'json',
      );
      expect(json.status).toBe(503);
      expect(Number(json.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await json.json()).toMatchObject({
        error:
          'We are processing a lot of photos right now. Please send the form again in a minute.',
        field: 'photos',
      });
      const form = await postMultipart(
        busy,
        adsApiPath(),
        validAd({ title: 'Typed while it was busy' }),
        [second],
        member.session,
      );
      expect(form.status).toBe(503);
      const html = await form.text();
      expect(fieldErrorOf(html, 'photos')).toMatch(/^We are processing a lot of photos/);
      expect(html).toContain('value="Typed while it was busy"');
      // Without a file to process, a busy pool is no reason to refuse.
      const textOnly = await postMultipart(busy, adsApiPath(), validAd(), [], member.session);
      expect(textOnly.status).toBe(303);
      expect(await photoRows(busy, member.accountId)).toEqual([]);
      const ads = await busy.store.memberAds.listOwned(member.accountId);
      expect(ads.map((ad) => ad.photos)).toEqual([[]]);
    } finally {
      await busyPool.close();
      await busy.remove();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a member's photos an hour", () => {
  test('past the limit: 429 with Retry-After beside the photo field, the form kept, nothing processed', async () => {
    const { makeTestApp } = await import('../../helpers/api.ts');
    const { DEFAULT_RATE_LIMITS } = await import('../../../server/auth/rate-limits.ts');
    const limited = await makeTestApp({
      rateLimits: { ...DEFAULT_RATE_LIMITS, photosPerMember: { points: 2, duration: 3600 } },
    });
    try {
      const member = await makeMember(limited);
      const [a, b, c] = [await jpeg(61), await jpeg(62), await jpeg(63)];
      const first = await postMultipart(limited, adsApiPath(), validAd(), [a, b], member.session);
      expect(first.status).toBe(303);
      const second = await postMultipart(
        limited,
        adsApiPath(),
        validAd({ city: 'San Diego', title: 'One photo too many' }),
        [c],
        member.session,
      );
      expect(second.status).toBe(429);
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(60);
      const html = await second.text();
      expect(fieldErrorOf(html, 'photos')).toMatch(/^You have added a lot of photos/);
      expect(html).toContain('value="One photo too many"');
      expect(await photoRows(limited, member.accountId)).toHaveLength(2);
      // Without new files, the limit is no reason to refuse.
      const textOnly = await postMultipart(
        limited,
        adsApiPath(),
        validAd({ city: 'San Diego' }),
        [],
        member.session,
      );
      expect(textOnly.status).toBe(303);
    } finally {
      await limited.remove();
    }
  });
});
