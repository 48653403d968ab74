// The photo fixtures are what the upload, moderation and publishing tests trust: a fixture that
// silently lacks its GPS tag or decodes fine when it should not would make those tests pass for
// nothing. exiftool reads the tags, as the published-files test does.
import sharp from 'sharp';
import phash from 'sharp-phash';
import distance from 'sharp-phash/distance.js';
import { describe, expect, it } from 'vitest';
import {
  BAD_FILES,
  PHONE_TAGS,
  animatedWebp,
  exifTagsOf,
  jpegWithHtml,
  nearCopy,
  phoneJpeg,
  pngBomb,
  privateTagsIn,
  redCornerOf,
  smallJpeg,
  smallPng,
  tooLargeJpeg,
  tooManyPixelsJpeg,
  truncatedJpeg,
} from '../helpers/photo-fixtures.ts';

describe('the phone JPEG', () => {
  it('carries the private tags a phone writes, read back by exiftool', async () => {
    const tags = await exifTagsOf(await phoneJpeg());
    expect(tags).toMatchObject({
      'IFD0:Orientation': 6,
      'IFD0:Make': PHONE_TAGS.make,
      'IFD0:Model': PHONE_TAGS.model,
      'IFD0:Artist': PHONE_TAGS.artist,
      'ExifIFD:SerialNumber': PHONE_TAGS.serialNumber,
      'Composite:GPSLatitude': PHONE_TAGS.latitude,
      'Composite:GPSLongitude': PHONE_TAGS.longitude,
      'XMP-dc:Creator': PHONE_TAGS.artist,
      'IPTC:By-line': PHONE_TAGS.artist,
      'File:Comment': PHONE_TAGS.comment,
      'File:ImageWidth': 3000,
      'File:ImageHeight': 2000,
    });
    expect(privateTagsIn(tags)).toEqual(
      expect.arrayContaining(['GPS:GPSLatitude', 'IFD0:Orientation', 'ExifIFD:SerialNumber']),
    );
  });

  it('shows its red mark top-left as stored, and top-right once turned upright (2000×3000)', async () => {
    const stored = await phoneJpeg();
    expect(await redCornerOf(stored)).toBe('top-left');
    const upright = await sharp(stored).rotate().toBuffer({ resolveWithObject: true });
    expect([upright.info.width, upright.info.height]).toEqual([2000, 3000]);
    expect(await redCornerOf(upright.data)).toBe('top-right');
  });

  it('finds no red corner in a photo without the mark', async () => {
    expect(await redCornerOf(await smallJpeg(1))).toBeUndefined();
  });
});

describe('the bad files', () => {
  it('pngBomb is a small file whose header says 20,000 × 20,000', async () => {
    const bomb = await pngBomb();
    expect(bomb.buffer.length).toBeLessThan(1.5 * 1024 * 1024);
    // sharp's own default limit (about 268 MP) already refuses it: read the header past it.
    const { width, height } = await sharp(bomb.buffer, { limitInputPixels: false }).metadata();
    expect([width, height]).toEqual([20_000, 20_000]);
  });

  it('truncatedJpeg does not decode; jpegWithHtml does', async () => {
    await expect(sharp((await truncatedJpeg()).buffer).toBuffer()).rejects.toThrow(/premature end/);
    const withHtml = (await jpegWithHtml()).buffer;
    expect(withHtml.toString('latin1')).toMatch(/<script>alert\(1\)<\/script><\/body><\/html>$/);
    await expect(sharp(withHtml).toBuffer()).resolves.toBeInstanceOf(Buffer);
  });

  it('the animated WebP has 2 frames, the 48 MP JPEG is small, the large one is over 15 MiB', async () => {
    expect((await sharp((await animatedWebp()).buffer).metadata()).pages).toBe(2);
    const manyPixels = (await tooManyPixelsJpeg()).buffer;
    const { width, height } = await sharp(manyPixels).metadata();
    expect([width, height, manyPixels.length < 2_000_000]).toEqual([8000, 6000, true]);
    const large = (await tooLargeJpeg()).buffer;
    expect(large.length).toBeGreaterThan(15 * 1024 * 1024);
    expect((await sharp(large).metadata()).width).toBe(800);
  });

  it('each has a name to upload it under', async () => {
    const names = await Promise.all(
      Object.values(BAD_FILES).map(async (make) => (await make()).name),
    );
    expect(names).toEqual([
      'huge.png',
      'truncated.jpg',
      'photo.svg',
      'photo.jpg',
      'shell.jpg',
      'empty.jpg',
      'animated.webp',
      'too-large.jpg',
      'too-many-pixels.jpg',
    ]);
  });
});

describe('nearCopy and seeds, for the perceptual-hash tests', () => {
  it('a near copy differs in bytes and size, yet its hash stays close; other seeds are far', async () => {
    const original = await smallJpeg(1);
    const copy = await nearCopy(original);
    expect(copy.equals(original)).toBe(false);
    const [before, after] = await Promise.all([sharp(original).metadata(), sharp(copy).metadata()]);
    expect([after.width, after.height]).not.toEqual([before.width, before.height]);
    const [hash, copyHash, otherHash] = await Promise.all([
      phash(original),
      phash(copy),
      phash(await smallPng(2)),
    ]);
    expect(distance(hash, copyHash)).toBeLessThanOrEqual(10);
    expect(distance(hash, otherHash)).toBeGreaterThan(20);
  });
});
