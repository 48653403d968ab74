// The photo the photo benchmark uploads and processes: a 4000×3000 JPEG that weighs, and
// compresses, as a phone's photo does. The tests' `twelveMegapixelJpeg` (a drawing with one-pixel
// sensor grain) is the base; the grain averages out when the photo is scaled down, so its WebP
// sizes came out at 3–17 KB where a real photo's 1280 size weighs 100–300 KB. Here texture of
// several sizes (value noise of 3 to 48 pixels, in brightness and a little in colour: foliage,
// fabric, gravel) is added on top, so detail survives down to the 1280 and 640 sizes.
import sharp from 'sharp';
import { twelveMegapixelJpeg } from '../tests/helpers/photo-fixtures.ts';
import { mulberry32 } from './seeded-random.ts';

/** The texture's sizes (pixels of the 4000-wide photo) and their strength (levels, ±). */
const OCTAVES: ReadonlyArray<{ period: number; amplitude: number }> = [
  { period: 3, amplitude: 30 },
  { period: 6, amplitude: 26 },
  { period: 12, amplitude: 16 },
  { period: 24, amplitude: 12 },
  { period: 48, amplitude: 8 },
];

const randomFrom = (seed: number): (() => number) => mulberry32(seed >>> 0 || 0x9e3779b9);

/** Value noise of one size: a coarse random grid scaled up smoothly to width × height, 0..255. */
async function noiseLayer(
  random: () => number,
  width: number,
  height: number,
  period: number,
): Promise<Buffer> {
  const gridWidth = Math.ceil(width / period) + 1;
  const gridHeight = Math.ceil(height / period) + 1;
  const grid = Buffer.alloc(gridWidth * gridHeight);
  for (let index = 0; index < grid.length; index++) grid[index] = Math.floor(random() * 256);
  return sharp(grid, { raw: { width: gridWidth, height: gridHeight, channels: 1 } })
    .resize(gridWidth * period, gridHeight * period, { kernel: 'cubic', fit: 'fill' })
    .extract({ left: 0, top: 0, width, height })
    .raw()
    .toBuffer();
}

/**
 * A 4000×3000 JPEG (quality 90) with texture of several sizes, different for every seed. Its 1280
 * WebP (the server's quality) weighs some 100–300 KB, as a phone photo's does.
 */
export async function photoLikeJpeg(seed: number): Promise<Buffer> {
  const { data, info } = await sharp(await twelveMegapixelJpeg(seed))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const random = randomFrom(seed ^ 0x7e47);
  const brightness = new Float32Array(width * height);
  for (const { period, amplitude } of OCTAVES) {
    const layer = await noiseLayer(random, width, height, period);
    const scale = (2 * amplitude) / 255;
    for (let index = 0; index < brightness.length; index++)
      brightness[index]! += (layer[index]! - 127.5) * scale;
  }
  // A little colour of its own at the middle sizes, so the chroma is not flat either.
  const tint = await Promise.all([
    noiseLayer(random, width, height, 8),
    noiseLayer(random, width, height, 8),
  ]);
  const out = Buffer.alloc(data.length);
  for (let pixel = 0; pixel < brightness.length; pixel++) {
    const shift = brightness[pixel]!;
    const red = (tint[0]![pixel]! - 127.5) * 0.06;
    const blue = (tint[1]![pixel]! - 127.5) * 0.06;
    const at = pixel * channels;
    out[at] = clamp(data[at]! + shift + red);
    out[at + 1] = clamp(data[at + 1]! + shift);
    out[at + 2] = clamp(data[at + 2]! + shift + blue);
  }
  return sharp(out, { raw: { width, height, channels } }).jpeg({ quality: 90 }).toBuffer();
}

function clamp(value: number): number {
  return value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
}
