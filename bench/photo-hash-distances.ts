// How far the project's perceptual hash moves when a photo is copied (issue 31 item 3;
// docs/benchmarks.md, ## Issue #31): each photo is processed as an upload is (processPhoto, the
// worker's own code: oriented, scaled to 1280, hashed), then again re-encoded, resized to 80 %,
// cropped by 3 %, and combinations (the steps between kept at JPEG quality 95); and the distance between unrelated photos. The duplicate
// index's reach (photo-duplicates.ts, DUPLICATE_BITS and HASH_CHUNKS) is chosen from these figures.
import sharp from 'sharp';
import { hammingDistance } from '../server/photos/known-photos.ts';
import { DUPLICATE_BITS } from '../server/photos/photo-duplicates.ts';
import { processPhoto } from '../server/photos/process-photo.ts';
import { nearCopy, smallJpeg, smallPng } from '../tests/helpers/photo-fixtures.ts';
import { photoLikeJpeg } from './photos-image.ts';
import { percentile } from './publish-rounds.ts';

type Copy = (bytes: Buffer) => Promise<Buffer>;

async function crop(bytes: Buffer, fraction: number): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(bytes).metadata();
  const left = Math.round(width * fraction);
  const top = Math.round(height * fraction);
  return sharp(bytes)
    .extract({ left, top, width: width - 2 * left, height: height - 2 * top })
    .jpeg({ quality: 95 })
    .toBuffer();
}
async function resize(bytes: Buffer, fraction: number): Promise<Buffer> {
  const { width = 0 } = await sharp(bytes).metadata();
  return sharp(bytes)
    .resize(Math.round(width * fraction))
    .jpeg({ quality: 95 })
    .toBuffer();
}
const jpeg =
  (quality: number): Copy =>
  (bytes) =>
    sharp(bytes).jpeg({ quality }).toBuffer();

/** The ways a photo comes back, by name. */
export const COPIES: Record<string, Copy> = {
  'JPEG q70': jpeg(70),
  'WebP q60': (bytes) => sharp(bytes).webp({ quality: 60 }).toBuffer(),
  'resized 80 %': (bytes) => resize(bytes, 0.8),
  'resized 50 %': (bytes) => resize(bytes, 0.5),
  'cropped 3 %': (bytes) => crop(bytes, 0.03),
  'cropped 5 %': (bytes) => crop(bytes, 0.05),
  'cropped 3 % + 80 % + JPEG q70': nearCopy,
  'cropped 3 % + 80 % + WebP q60': async (bytes) =>
    sharp(await resize(await crop(bytes, 0.03), 0.8))
      .webp({ quality: 60 })
      .toBuffer(),
  'cropped 5 % + 50 % + JPEG q50': async (bytes) =>
    jpeg(50)(await resize(await crop(bytes, 0.05), 0.5)),
  'brighter 10 % + JPEG q70': async (bytes) =>
    sharp(bytes).modulate({ brightness: 1.1 }).jpeg({ quality: 70 }).toBuffer(),
};

const noScore = async () => ({ explicit: 0, sexy: 0 });

async function hashOf(bytes: Buffer): Promise<string> {
  const outcome = await processPhoto(bytes, noScore);
  if (!outcome.ok) throw new Error(outcome.problem);
  return outcome.photo.phash;
}

export interface DistanceFigures {
  photos: number;
  /** By copy: distances from the original, max and p95 and the spread. */
  copies: { name: string; max: number; p95: number; median: number; within: string }[];
  /** Between unrelated photos: the least, the 1st percentile and the median. */
  unrelated: { pairs: number; min: number; p1: number; median: number; within: number };
}

/** `scenes` drawn scenes (800×600 and 1600×1200) and `textured` 12-MP photo-like JPEGs. */
export async function measureHashDistances(scenes = 40, textured = 3): Promise<DistanceFigures> {
  const originals: Buffer[] = [];
  for (let seed = 1; seed <= scenes; seed++)
    originals.push(seed % 2 ? await smallJpeg(seed + 300) : await smallPng(seed + 300, 1600, 1200));
  for (let seed = 1; seed <= textured; seed++) originals.push(await photoLikeJpeg(seed + 700));
  const hashes = await Promise.all(originals.map(hashOf));
  const copies: DistanceFigures['copies'] = [];
  for (const [name, copy] of Object.entries(COPIES)) {
    const distances: number[] = [];
    for (const [index, original] of originals.entries())
      distances.push(hammingDistance(hashes[index]!, await hashOf(await copy(original))));
    distances.sort((a, b) => a - b);
    copies.push({
      name,
      max: distances.at(-1)!,
      p95: percentile(distances, 0.95),
      median: percentile(distances, 0.5),
      within: `${distances.filter((d) => d <= DUPLICATE_BITS).length} of ${distances.length} within ${DUPLICATE_BITS}`,
    });
  }
  const unrelated: number[] = [];
  for (let a = 0; a < hashes.length; a++)
    for (let b = a + 1; b < hashes.length; b++)
      unrelated.push(hammingDistance(hashes[a]!, hashes[b]!));
  unrelated.sort((a, b) => a - b);
  return {
    photos: originals.length,
    copies,
    unrelated: {
      pairs: unrelated.length,
      min: unrelated[0]!,
      p1: percentile(unrelated, 0.01),
      median: percentile(unrelated, 0.5),
      within: unrelated.filter((d) => d <= DUPLICATE_BITS).length,
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await measureHashDistances(), null, 1));
