// The explicit-image score's part of the photo benchmark (`npm run bench:photos -- --only score`;
// docs/benchmarks.md, ## Photos, issue 31): what scoring costs in the photo worker, and what it
// answers on the photos this project can keep (all generated here: the project has no explicit
// photo, and fetches none).
//
// - Time and memory: N 12-megapixel photos (default 20; four different ones in turn: the
//   benchmark's photo-like photos 1 and 2 and the tests' grainy drawings 1 and 2) processed one
//   after the other by ONE worker of `createPhotoPool({ processes: 1 })`, as the server runs it:
//   the build's bundled photo-worker.mjs (built if needed), not the sources under tsx.
//   The worker times its own scoring (ProcessedPhoto.scoreMs: the 1280-wide pixels squeezed to
//   224 × 224 by sharp, the model's run on TensorFlow.js's WebAssembly backend): median and p95,
//   after its first photo, which loads TensorFlow.js and the model (timed apart). The whole
//   processing of a photo is given too. Memory: the worker's resident size idle after its first
//   photo (model loaded) and its peak (VmHWM) after the N.
// - Scores: families of generated pictures processed by the same worker, each family's explicit
//   score (porn + hentai) median and highest, its highest sexy score, and how many would be
//   "likely explicit" at a few thresholds: the tests' landscape scenes, portrait-shaped scenes,
//   the phone photo, the 12-MP drawings and photo-like photos above, flat colours and noise, and
//   abstract pictures in skin tones (soft shapes on skin-coloured gradients: the kind of picture
//   such models are known to mistake), the nearest this project can come to a hard case.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createPhotoPool, type PhotoWorkerCommand } from '../server/photos/processing-pool.ts';
import type { ProcessedPhoto } from '../server/photos/process-photo.ts';
import { DEFAULT_EXPLICIT_THRESHOLD } from '../core/schemas/photos.ts';
import { phoneJpeg, smallJpeg, twelveMegapixelJpeg } from '../tests/helpers/photo-fixtures.ts';
import { photoLikeJpeg } from './photos-image.ts';
import { loadText, percentile } from './publish-rounds.ts';
import { mulberry32 } from './seeded-random.ts';
import { childProcessIds, cpuMs, residentBytes } from './tree-rss.ts';

/** The targets of issue 31. */
export const SCORE_TARGETS = { medianMs: 300, peakMb: 250 };
/** The thresholds whose counts are shown. */
const THRESHOLDS = [0.2, DEFAULT_EXPLICIT_THRESHOLD, 0.8];

const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mb = (bytes: number) => bytes / 1024 / 1024;

/** Abstract soft shapes in skin tones on a skin-toned gradient, 1200 × 1600: no body, no face. */
export function skinToneAbstract(seed: number): Promise<Buffer> {
  const random = mulberry32(seed * 7919 + 17);
  const tone = () => {
    const light = 45 + random() * 40;
    return `hsl(${Math.round(18 + random() * 14)},${Math.round(35 + random() * 35)}%,${Math.round(light)}%)`;
  };
  const width = 1200;
  const height = 1600;
  const shapes: string[] = [];
  for (let index = 0; index < 6 + Math.floor(random() * 6); index++)
    shapes.push(
      `<ellipse cx="${random() * width}" cy="${random() * height}" rx="${150 + random() * 350}" ry="${150 + random() * 450}" fill="${tone()}" opacity="${(0.5 + random() * 0.5).toFixed(2)}" filter="url(#soft)"/>`,
    );
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="${random().toFixed(2)}" y2="1"><stop offset="0" stop-color="${tone()}"/><stop offset="1" stop-color="${tone()}"/></linearGradient>` +
    `<filter id="soft"><feGaussianBlur stdDeviation="${20 + random() * 40}"/></filter></defs>` +
    `<rect width="${width}" height="${height}" fill="url(#g)"/>${shapes.join('')}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
}

/** Flat colours and noise, 800 × 600. */
async function flatAndNoise(): Promise<Buffer[]> {
  const flat = (r: number, g: number, b: number) =>
    sharp({ create: { width: 800, height: 600, channels: 3, background: { r, g, b } } })
      .jpeg()
      .toBuffer();
  const random = mulberry32(99);
  const noise = Buffer.alloc(800 * 600 * 3);
  for (let index = 0; index < noise.length; index++) noise[index] = Math.floor(random() * 256);
  return [
    await flat(255, 255, 255),
    await flat(0, 0, 0),
    await flat(128, 128, 128),
    await flat(225, 190, 160),
    await sharp(noise, { raw: { width: 800, height: 600, channels: 3 } })
      .jpeg()
      .toBuffer(),
  ];
}

export async function benchPhotoScore(
  options: { photos: number; worker: PhotoWorkerCommand },
  work: string,
): Promise<string> {
  let files = 0;
  const pool = createPhotoPool({
    processes: 1,
    maxWaitMs: 3_600_000,
    timeoutMs: 120_000,
    worker: options.worker,
  });
  const processOne = async (bytes: Buffer): Promise<ProcessedPhoto> => {
    const file = join(work, `score-${++files}.jpg`);
    writeFileSync(file, bytes);
    const outcome = await pool.process(file);
    if (!outcome.ok) throw new Error(`a photo was refused: ${outcome.problem}`);
    if (!outcome.photo.score) throw new Error('a photo was not scored (the worker said why)');
    return outcome.photo;
  };
  const twelve = [
    await photoLikeJpeg(1),
    await twelveMegapixelJpeg(1),
    await photoLikeJpeg(2),
    await twelveMegapixelJpeg(2),
  ];
  const loadBefore = loadavg();
  const before = new Set(childProcessIds(process.pid));
  try {
    const started = performance.now();
    const first = await processOne(twelve[0]!);
    const firstMs = performance.now() - started;
    const workers = childProcessIds(process.pid).filter((pid) => !before.has(pid));
    if (workers.length !== 1) throw new Error(`expected one worker, found ${workers.length}`);
    const worker = workers[0]!;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const idle = residentBytes(worker);
    const scoreMs: number[] = [];
    const totalMs: number[] = [];
    const cpuBefore = cpuMs(worker);
    for (let index = 0; index < options.photos; index += 1) {
      const sent = performance.now();
      const photo = await processOne(twelve[index % twelve.length]!);
      totalMs.push(performance.now() - sent);
      scoreMs.push(photo.scoreMs);
      process.stdout.write(`\rscoring: ${index + 1}/${options.photos}`);
    }
    process.stdout.write('\n');
    const cpuEach = (cpuMs(worker) - cpuBefore) / options.photos;
    if (!childProcessIds(process.pid).includes(worker))
      throw new Error('the worker was replaced during the run');
    const peak = residentBytes(worker, 'VmHWM');
    const distribution = await scoreFamilies(processOne, twelve);
    const median = percentile(scoreMs, 0.5);
    const met = (ok: boolean) => (ok ? 'met' : '**not met**');
    return [
      `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), **shared** with other work; load average (1 / 5 / 15 min) ${loadText(loadBefore)} before, ${loadText(loadavg())} after.`,
      `- ${options.photos} 12-megapixel photos (4000×3000 JPEG: photo-like 1 and 2, grainy drawings 1 and 2, in turn) processed one after the other by one worker process (nice 10, the build's \`photo-worker.mjs\`) of \`createPhotoPool({ processes: 1 })\`, after its first photo (which loads TensorFlow.js and the model: ${fixed(first.scoreMs)} ms of scoring, ${fixed(firstMs)} ms in all). Scoring as the worker times it (224 × 224 in sharp, the model on the WebAssembly backend).`,
      '',
      '| | measured | target |',
      '| --- | ---: | --- |',
      `| scoring a 12-MP photo, median | ${fixed(median)} ms | < ${SCORE_TARGETS.medianMs} ms: ${met(median < SCORE_TARGETS.medianMs)} |`,
      `| scoring, p95 | ${fixed(percentile(scoreMs, 0.95))} ms | |`,
      `| scoring, min / max | ${fixed(Math.min(...scoreMs))} / ${fixed(Math.max(...scoreMs))} ms | |`,
      `| the whole photo (processing with scoring), median / p95 | ${fixed(percentile(totalMs, 0.5))} / ${fixed(percentile(totalMs, 0.95))} ms | |`,
      `| the whole photo, the worker's CPU time (user + system) | ${fixed(cpuEach)} ms | |`,
      `| the worker's first photo (loading the model) | ${fixed(firstMs)} ms | |`,
      `| the worker's resident memory, idle with the model loaded | ${fixed(mb(idle))} MB | |`,
      `| its peak (VmHWM) | ${fixed(mb(peak))} MB | < ${SCORE_TARGETS.peakMb} MB: ${met(mb(peak) < SCORE_TARGETS.peakMb)} |`,
      '',
      distribution,
    ].join('\n');
  } finally {
    await pool.close();
  }
}

/** Each family's scores, as a table. */
async function scoreFamilies(
  processOne: (bytes: Buffer) => Promise<ProcessedPhoto>,
  twelve: Buffer[],
): Promise<string> {
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, index) => from + index);
  const families: [string, () => Promise<Buffer[]>][] = [
    [
      "landscape scenes (the tests' smallJpeg 1–40, 800×600)",
      () => Promise.all(range(1, 40).map((seed) => smallJpeg(seed))),
    ],
    [
      'portrait-shaped scenes (smallJpeg 41–50, 600×900)',
      () => Promise.all(range(41, 50).map((seed) => smallJpeg(seed, 600, 900))),
    ],
    ["the tests' phone photo (3000×2000, EXIF-rotated)", async () => [await phoneJpeg()]],
    ['12-MP grainy drawings and photo-like photos (above)', async () => twelve],
    ['flat colours (white, black, grey, beige) and noise', flatAndNoise],
    [
      'abstract shapes in skin tones (1200×1600, seeds 1–20)',
      () => Promise.all(range(1, 20).map(skinToneAbstract)),
    ],
  ];
  const rows = [
    `| pictures | n | explicit, median | explicit, highest | sexy, highest | ${THRESHOLDS.map((threshold) => `≥ ${threshold}`).join(' | ')} |`,
    `| --- | ---: | ---: | ---: | ---: | ${THRESHOLDS.map(() => '---:').join(' | ')} |`,
  ];
  for (const [name, make] of families) {
    const scores = [];
    for (const bytes of await make()) scores.push((await processOne(bytes)).score!);
    const explicit = scores.map((score) => score.explicit);
    const over = THRESHOLDS.map((threshold) => explicit.filter((each) => each >= threshold).length);
    rows.push(
      `| ${name} | ${scores.length} | ${fixed(percentile(explicit, 0.5), 4)} | ${fixed(Math.max(...explicit), 4)} | ${fixed(Math.max(...scores.map((score) => score.sexy)), 4)} | ${over.join(' | ')} |`,
    );
  }
  return [
    `Scores (explicit = porn + hentai) of generated pictures, in the same worker; the last columns count those at or over each threshold (the default is ${DEFAULT_EXPLICIT_THRESHOLD}):`,
    '',
    ...rows,
  ].join('\n');
}
