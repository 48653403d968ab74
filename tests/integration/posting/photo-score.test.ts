// A photo posted through the real posting path (POST /api/ads, multipart, as a browser without
// JavaScript sends it) is scored in the photo worker and its explicit-image score stored with its
// row (issue 31), on SQLite and, in the PostgreSQL suite, on PostgreSQL; the store reads it back.
// A photo whose scoring fails is kept all the same, unscored (NULL), and the post succeeds; a
// damaged file is refused with its message, never a 500.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cookieHeader, ORIGIN, type TestApp } from '../../helpers/api.ts';
import { testAppOnFixtureContent } from '../../helpers/pages.ts';
import { asFile, asUpload, smallJpeg, truncatedJpeg } from '../../helpers/photo-fixtures.ts';
import { makeMember, storedAds, validAd, type TestMember } from '../../helpers/posting.ts';
import { PHOTO_PROBLEMS, processPhoto } from '../../../server/photos/process-photo.ts';
import { createPhotoPool, type PhotoPool } from '../../../server/photos/processing-pool.ts';
import {
  DEFAULT_EXPLICIT_THRESHOLD,
  isLikelyExplicit,
  type PhotoScore,
} from '../../../core/schemas/photos.ts';
import { adsApiPath } from '../../../core/paths.ts';
import { storedRow } from '../../helpers/stored-rows.ts';

const pool = createPhotoPool({ processes: 1 });
afterAll(() => pool.close());
const scored = testAppOnFixtureContent({ photoProcessing: pool });

/** The pool as the app sees it, but each photo processed here by a model that fails. */
const failingScorer: PhotoPool = {
  ...pool,
  process: async (file) =>
    processPhoto(await readFile(file), async () => {
      throw new Error('the model could not be loaded');
    }),
};
const unscored = testAppOnFixtureContent({ photoProcessing: failingScorer });

/** Posts the ad with one photo as a plain multipart form: the status, and the ad's photo id. */
async function postWithPhoto(t: TestApp, member: TestMember, photo: Buffer, name = 'photo.jpg') {
  const body = new FormData();
  for (const [field, value] of Object.entries(validAd())) body.append(field, value);
  body.append('photos', asFile(asUpload(photo, name)));
  const response = await t.app.request(`${ORIGIN}${adsApiPath()}`, {
    method: 'POST',
    headers: { ...cookieHeader(member.session), accept: 'text/html' },
    body,
  });
  const [ad] = await storedAds(t, member.accountId);
  const photoId = ad ? (await t.store.memberAds.find(ad.id))!.photos[0]?.id : undefined;
  return { response, photoId };
}

const scoreColumns = (t: TestApp, photoId: number) =>
  storedRow<{ explicit_score: number | null; sexy_score: number | null }>(
    t,
    'SELECT explicit_score, sexy_score FROM photos WHERE id = ?',
    photoId,
  );

describe('a photo posted with an ad', () => {
  let member: TestMember;
  beforeAll(async () => {
    member = await makeMember(scored);
  });

  test('is scored in the worker; the score is stored with the photo and read back', async () => {
    const { response, photoId } = await postWithPhoto(scored, member, await smallJpeg(21));
    expect(response.status).toBe(303);
    expect(photoId).toBeDefined();
    const columns = await scoreColumns(scored, photoId!);
    expect(columns!.explicit_score).toEqual(expect.any(Number));
    expect(columns!.sexy_score).toEqual(expect.any(Number));
    const row = await scored.store.photos.find(photoId!);
    expect(row!.score).toEqual({
      explicit: Number(columns!.explicit_score),
      sexy: Number(columns!.sexy_score),
    } satisfies PhotoScore);
    for (const value of [row!.score!.explicit, row!.score!.sexy]) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
    // An ordinary scene: not likely explicit at the default threshold.
    expect(isLikelyExplicit(row!.score!.explicit, DEFAULT_EXPLICIT_THRESHOLD)).toBe(false);
  });
});

describe('when scoring fails', () => {
  test('the photo is kept with its ad, unscored (NULL): the post succeeds', async () => {
    const member = await makeMember(unscored);
    const { response, photoId } = await postWithPhoto(unscored, member, await smallJpeg(22));
    expect(response.status).toBe(303);
    expect(await scoreColumns(unscored, photoId!)).toEqual({
      explicit_score: null,
      sexy_score: null,
    });
    const row = await unscored.store.photos.find(photoId!);
    expect(row!.score).toBeNull();
    expect(row!.variants).toHaveLength(3);
  });
});

describe('a file that does not decode', () => {
  test('a damaged file is refused beside the field, never a 500', async () => {
    const member = await makeMember(scored);
    const damaged = await truncatedJpeg();
    const { response } = await postWithPhoto(scored, member, damaged.buffer, damaged.name);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(
      `truncated.jpg: ${PHOTO_PROBLEMS.damaged.replace("couldn't", 'couldn&#x27;t')}`,
    );
    expect(await storedAds(scored, member.accountId)).toEqual([]);
  });
});
