// Processing an uploaded file into a photo (server/photos/process-photo.ts), in the worker
// processes of the pool (processing-pool.ts): what a member's photo becomes, what is refused and
// why, and how the pool behaves when it is full or a worker dies.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { hammingDistance, SIMILAR_BITS } from '../../../server/photos/known-photos.ts';
import { PHOTO_PROBLEMS, processPhoto } from '../../../server/photos/process-photo.ts';
import { createPhotoPool, PhotoProcessingBusy } from '../../../server/photos/processing-pool.ts';
import {
  BAD_FILES,
  exifTagsOf,
  nearCopy,
  phoneJpeg,
  privateTagsIn,
  redCornerOf,
  smallJpeg,
  smallPng,
  smallWebp,
} from '../../helpers/photo-fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'localboard-photos-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a phone photo', () => {
  it('comes out upright, in three WebP widths, without any of its private tags', async () => {
    const outcome = await processPhoto(await phoneJpeg());
    if (!outcome.ok) throw new Error(outcome.problem);
    const { photo } = outcome;
    // Stored 3000 × 2000 with "rotate 90° CW": shown 2000 × 3000, so 1280 × 1920 at the largest.
    expect(photo.variants.map((variant) => [variant.width, variant.height])).toEqual([
      [320, 480],
      [640, 960],
      [1280, 1920],
    ]);
    expect([photo.width, photo.height]).toEqual([1280, 1920]);
    for (const variant of photo.variants) {
      expect((await sharp(variant.bytes).metadata()).format).toBe('webp');
      expect(await redCornerOf(variant.bytes)).toBe('top-right');
      const tags = await exifTagsOf(variant.bytes);
      expect(privateTagsIn(tags)).toEqual([]);
      // No metadata block at all: no EXIF directory, GPS, XMP, IPTC, ICC profile or maker notes.
      const blocks = /^(IFD\d|ExifIFD|GPS|InteropIFD|MakerNotes|XMP|IPTC|ICC|Photoshop)/;
      expect(Object.keys(tags).filter((key) => blocks.test(key))).toEqual([]);
      expect(variant.key).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(photo.phash).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is never upscaled: an 800-pixel photo stops at 800', async () => {
    const outcome = await processPhoto(await smallJpeg(3));
    if (!outcome.ok) throw new Error(outcome.problem);
    expect(outcome.photo.variants.map((variant) => variant.width)).toEqual([320, 640, 800]);
  });

  it('takes PNG and WebP as well as JPEG', async () => {
    for (const bytes of [await smallPng(4), await smallWebp(5)]) {
      const outcome = await processPhoto(bytes);
      expect(outcome.ok).toBe(true);
    }
  });
});

describe('files that are refused', () => {
  const expected: Record<keyof typeof BAD_FILES, string> = {
    'a PNG that decodes to 20,000 × 20,000 pixels': PHOTO_PROBLEMS.tooManyPixels(20_000, 20_000),
    'a truncated JPEG': PHOTO_PROBLEMS.damaged,
    'an SVG': PHOTO_PROBLEMS.notPhoto,
    'an SVG named .jpg': PHOTO_PROBLEMS.notPhoto,
    'a PHP file named .jpg': PHOTO_PROBLEMS.notPhoto,
    'a zero-byte file': PHOTO_PROBLEMS.empty,
    'an animated WebP': PHOTO_PROBLEMS.animated,
    'a JPEG over 15 MB': PHOTO_PROBLEMS.tooLarge,
    'a JPEG over 40 megapixels': PHOTO_PROBLEMS.tooManyPixels(8000, 6000),
  };
  for (const [what, make] of Object.entries(BAD_FILES)) {
    it(`${what}: "${expected[what as keyof typeof BAD_FILES].slice(0, 40)}…"`, async () => {
      const file = await make();
      const outcome = await processPhoto(file.buffer);
      expect(outcome).toEqual({ ok: false, problem: expected[what as keyof typeof BAD_FILES] });
    });
  }

  it('a JPEG with HTML appended after its end', async () => {
    const { jpegWithHtml } = await import('../../helpers/photo-fixtures.ts');
    const outcome = await processPhoto((await jpegWithHtml()).buffer);
    expect(outcome).toEqual({ ok: false, problem: PHOTO_PROBLEMS.markup });
  });

  it('a picture too small to judge', async () => {
    const tiny = await sharp({
      create: { width: 60, height: 40, channels: 3, background: '#884422' },
    })
      .jpeg()
      .toBuffer();
    expect(await processPhoto(tiny)).toEqual({
      ok: false,
      problem: PHOTO_PROBLEMS.tooSmall(60, 40),
    });
  });
});

describe('perceptual hashes', () => {
  it('know a re-encoded, resized and cropped copy, and tell different photos apart', async () => {
    const hashOf = async (bytes: Buffer) => {
      const outcome = await processPhoto(bytes);
      if (!outcome.ok) throw new Error(outcome.problem);
      return outcome.photo.phash;
    };
    const original = await smallJpeg(21, 1600, 1200);
    const [a, copy, other] = await Promise.all([
      hashOf(original),
      hashOf(await nearCopy(original)),
      hashOf(await smallJpeg(22, 1600, 1200)),
    ]);
    expect(hammingDistance(a, copy)).toBeLessThanOrEqual(SIMILAR_BITS);
    expect(hammingDistance(a, other)).toBeGreaterThan(SIMILAR_BITS);
  });
});

describe('the processing pool', () => {
  it('processes in worker processes and answers Buffers', async () => {
    const pool = createPhotoPool({ processes: 1 });
    try {
      const file = join(dir, 'one.jpg');
      writeFileSync(file, await smallJpeg(7));
      const outcome = await pool.process(file);
      if (!outcome.ok) throw new Error(outcome.problem);
      expect(Buffer.isBuffer(outcome.photo.variants[0]!.bytes)).toBe(true);
      expect(pool.load().workers).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('refuses at once, with when to come back, when a photo would wait too long', async () => {
    const pool = createPhotoPool({ processes: 1, maxWaitMs: 0, expectedMs: 2000 });
    try {
      const file = join(dir, 'busy.jpg');
      writeFileSync(file, await smallJpeg(8));
      const first = pool.process(file);
      const second = pool.process(file);
      await expect(second).rejects.toBeInstanceOf(PhotoProcessingBusy);
      await expect(second).rejects.toMatchObject({ retryAfterSeconds: expect.any(Number) });
      expect(() => pool.admit(1)).toThrow(PhotoProcessingBusy);
      expect((await first).ok).toBe(true);
      // Free again: admitted.
      expect(() => pool.admit(1)).not.toThrow();
    } finally {
      await pool.close();
    }
  });

  it('a worker that dies fails its photo only; the next photo gets a new worker', async () => {
    const pool = createPhotoPool({ processes: 1, timeoutMs: 1 });
    try {
      const file = join(dir, 'slow.jpg');
      writeFileSync(file, await smallJpeg(9));
      // 1 ms is too short for any photo: the worker is stopped and the photo fails.
      await expect(pool.process(file)).rejects.toThrow(/photo worker stopped/);
    } finally {
      await pool.close();
    }
    const next = createPhotoPool({ processes: 1 });
    try {
      const file = join(dir, 'after.jpg');
      writeFileSync(file, await smallJpeg(10));
      expect((await next.process(file)).ok).toBe(true);
    } finally {
      await next.close();
    }
  });
});
