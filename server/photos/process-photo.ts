// One uploaded file into a photo the site can show (docs/product.md section 10), with sharp
// (libvips, from its npm packages). Runs in a photo worker process (photo-worker.ts), never in the
// server's own: a file is untrusted until it has been decoded.
//
// 1. The type is read from the bytes (JPEG, PNG, WebP, HEIF/AVIF), never the name or Content-Type:
//    SVG, scripts, and anything else are refused. So is a file with markup in it (HTML appended
//    to a JPEG, a PHP polyglot): it would be harmless once re-encoded, but nobody sends one by accident.
// 2. The header says the size before anything is decoded: over 40 megapixels (a 1 MB PNG can say
//    20,000 × 20,000) is refused there, and sharp's own pixel limit holds the decoder to it too.
//    Animated images are refused; a damaged or truncated file fails to decode and is refused.
// 3. Decoded once: oriented from its EXIF, converted to sRGB, scaled to at most 1280 wide; then
//    encoded to WebP at 320, 640 and 1280 (never upscaled). sharp writes no metadata unless asked:
//    no EXIF, GPS, XMP, IPTC, ICC or comment survives. The original bytes are dropped.
// 4. A perceptual hash (DCT, 64 bits) of the oriented picture, to know it again re-encoded,
//    resized or slightly cropped (known-photos.ts).
// 5. An explicit-image score of the same pixels (explicit-score.ts), for the moderator's triage: a
//    photo whose scoring fails is kept all the same, unscored (null); the score never refuses one.
import { createHash } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import phash from 'sharp-phash';
import type { PhotoScore } from '../../core/schemas/photos.ts';
import { scoreExplicitness, type PhotoScorer, type RawPixels } from './explicit-score.ts';
import {
  MAX_PHOTO_BYTES,
  MAX_PHOTO_PIXELS,
  MIN_PHOTO_SIDE,
  PHOTO_WIDTHS,
  variantWidthsFor,
} from '../../core/schemas/photos.ts';

export interface ProcessedVariant {
  width: number;
  height: number;
  key: string;
  bytes: Buffer;
}

export interface ProcessedPhoto {
  /** The largest variant's size. */
  width: number;
  height: number;
  /** 16 hex digits. */
  phash: string;
  /** Narrowest first. */
  variants: ProcessedVariant[];
  /** The explicit-image score; null when scoring failed. */
  score: PhotoScore | null;
  /** How long scoring took in the worker, in ms (the photo benchmark reports it). */
  scoreMs: number;
}

/** What became of a file: a photo, or why not, in words for the member. */
export type PhotoOutcome = { ok: true; photo: ProcessedPhoto } | { ok: false; problem: string };

export type PhotoType = 'jpeg' | 'png' | 'webp' | 'heif';

export const PHOTO_PROBLEMS = {
  empty: 'This file is empty. Choose a photo (JPEG, PNG, WebP or HEIF).',
  tooLarge: `This file is larger than ${MAX_PHOTO_BYTES / 1024 / 1024} MB. Choose a smaller photo, or one saved at a lower quality.`,
  notPhoto:
    "This file isn't a photo we can use. Choose a JPEG, PNG, WebP or HEIF photo (SVG and other files can't be used).",
  markup:
    "This file has something other than a photo inside it, so it can't be used. Save the photo again from your photo app, then choose it.",
  animated: "Animated images can't be used. Choose a still photo.",
  damaged:
    "This photo couldn't be read: the file is damaged or incomplete. Save it again from your photo app, then choose it.",
  tooManyPixels: (width: number, height: number) =>
    `This photo is ${width.toLocaleString('en-US')} × ${height.toLocaleString('en-US')} pixels; a photo can have at most ${MAX_PHOTO_PIXELS / 1_000_000} megapixels. Choose a smaller one.`,
  tooSmall: (width: number, height: number) =>
    `This photo is only ${width} × ${height} pixels. Choose one at least ${MIN_PHOTO_SIDE} pixels wide and high.`,
} as const;

/** The file's type by its first bytes, or undefined for anything but the photo types we take. */
export function photoTypeOf(bytes: Uint8Array): PhotoType | undefined {
  const at = (offset: number, ...expected: number[]) =>
    expected.every((byte, index) => bytes[offset + index] === byte);
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp';
  // ISO BMFF: a box `ftyp` at 4 whose major brand is one of HEIF's or AVIF's.
  if (at(4, 0x66, 0x74, 0x79, 0x70)) {
    const brand = Buffer.from(bytes.subarray(8, 12)).toString('latin1');
    if (
      ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis'].includes(
        brand,
      )
    )
      return 'heif';
  }
  return undefined;
}

// Markup or script anywhere in the file: what a polyglot carries. Seven-odd given bytes in a row
// do not happen by chance in compressed picture data.
const MARKUP = /<(?:\?php|script|html|body|iframe|svg|!doctype|object|embed)[\s>/]/i;

/** Whether the file carries markup or script (HTML appended to a JPEG, a PHP polyglot). */
export function carriesMarkup(bytes: Buffer): boolean {
  return MARKUP.test(bytes.toString('latin1'));
}

/** sharp's format names of each type. */
const FORMATS: Record<PhotoType, readonly string[]> = {
  jpeg: ['jpeg'],
  png: ['png'],
  webp: ['webp'],
  heif: ['heif', 'avif'],
};

/** WebP quality: the 1280 size of a 12-megapixel phone photo comes out at about 150–250 KB. */
const WEBP_QUALITY = 78;
/**
 * libwebp's method (0 fastest … 6 smallest). 1 encodes the three sizes in about 40 % of the CPU
 * time of 4 (sharp's default) for 4 % more bytes and 0.3 dB less PSNR (docs/benchmarks.md, Issue
 * #31): the time the explicit-image score costs a photo, taken back.
 */
const WEBP_EFFORT = 1;

/** Processes a file; `scorer` is the worker's model unless a test gives its own. */
export async function processPhoto(
  bytes: Buffer,
  scorer: PhotoScorer = scoreExplicitness,
): Promise<PhotoOutcome> {
  const refuse = (problem: string): PhotoOutcome => ({ ok: false, problem });
  if (bytes.length === 0) return refuse(PHOTO_PROBLEMS.empty);
  if (bytes.length > MAX_PHOTO_BYTES) return refuse(PHOTO_PROBLEMS.tooLarge);
  const type = photoTypeOf(bytes);
  if (!type) return refuse(PHOTO_PROBLEMS.notPhoto);
  if (carriesMarkup(bytes)) return refuse(PHOTO_PROBLEMS.markup);

  const input = { limitInputPixels: MAX_PHOTO_PIXELS, failOn: 'warning' as const };
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { ...input, limitInputPixels: false }).metadata();
  } catch {
    return refuse(type === 'heif' ? PHOTO_PROBLEMS.notPhoto : PHOTO_PROBLEMS.damaged);
  }
  if (!FORMATS[type].includes(metadata.format ?? '')) return refuse(PHOTO_PROBLEMS.notPhoto);
  const { width = 0, height = 0 } = metadata;
  if (width * height > MAX_PHOTO_PIXELS) return refuse(PHOTO_PROBLEMS.tooManyPixels(width, height));
  if ((metadata.pages ?? 1) > 1) return refuse(PHOTO_PROBLEMS.animated);

  let base: { data: Buffer; info: OutputInfo };
  try {
    base = await sharp(bytes, input)
      .rotate()
      .resize({ width: PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1], withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    return refuse(PHOTO_PROBLEMS.damaged);
  }
  const { info } = base;
  // Oriented: a portrait photo stored landscape is measured as it is shown.
  const shown =
    (metadata.orientation ?? 1) >= 5 ? { w: height, h: width } : { w: width, h: height };
  if (shown.w < MIN_PHOTO_SIDE || shown.h < MIN_PHOTO_SIDE)
    return refuse(PHOTO_PROBLEMS.tooSmall(shown.w, shown.h));

  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const variants: ProcessedVariant[] = [];
  for (const variantWidth of variantWidthsFor(info.width)) {
    const encoded = await sharp(base.data, raw)
      .resize({ width: variantWidth })
      .webp({ quality: WEBP_QUALITY, effort: WEBP_EFFORT })
      .toBuffer({ resolveWithObject: true });
    variants.push({
      width: encoded.info.width,
      height: encoded.info.height,
      key: createHash('sha256').update(encoded.data).digest('hex').slice(0, 32),
      bytes: encoded.data,
    });
  }
  const bits = await phash(base.data, raw);
  const scoreStarted = performance.now();
  const score = await scoreOrNull(scorer, { data: base.data, ...raw.raw });
  const largest = variants[variants.length - 1]!;
  return {
    ok: true,
    photo: {
      width: largest.width,
      height: largest.height,
      phash: BigInt(`0b${bits}`).toString(16).padStart(16, '0'),
      variants,
      score,
      scoreMs: performance.now() - scoreStarted,
    },
  };
}

/** The score, or null (said in the worker's log) when the model could not score the pixels. */
async function scoreOrNull(scorer: PhotoScorer, pixels: RawPixels): Promise<PhotoScore | null> {
  try {
    return await scorer(pixels);
  } catch (error) {
    console.error(`Photo scoring failed, the photo is kept unscored: ${(error as Error).message}`);
    return null;
  }
}
