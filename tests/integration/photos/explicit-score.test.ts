// The explicit-image score (issue 31; server/photos/explicit-score.ts): the model loads in the
// photo worker with no network at all (a preload refuses and records every fetch, socket and DNS
// lookup) and scores every photo; the project's ordinary photos (drawn at test time: landscapes,
// drawings, a phone photo, the benchmark's photo-like one) score below the default threshold; odd
// pictures (grey with alpha, 16-bit, CMYK, a sliver, fully transparent) are processed and scored;
// and a photo whose scoring fails is processed all the same, unscored.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoLikeJpeg } from '../../../bench/photos-image.ts';
import { modelInput, MODEL_INPUT_SIDE } from '../../../server/photos/explicit-score.ts';
import { processPhoto } from '../../../server/photos/process-photo.ts';
import {
  createPhotoPool,
  sourcePhotoWorker,
  type PhotoPool,
} from '../../../server/photos/processing-pool.ts';
import { DEFAULT_EXPLICIT_THRESHOLD, isLikelyExplicit } from '../../../core/schemas/photos.ts';
import {
  phoneJpeg,
  smallJpeg,
  smallPng,
  smallWebp,
  twelveMegapixelJpeg,
} from '../../helpers/photo-fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'localboard-photo-score-'));
const networkLog = join(dir, 'network.log');
let pool: PhotoPool;
let files = 0;

beforeAll(() => {
  // The worker inherits the environment; its preload writes every network attempt here.
  process.env.LOCALBOARD_NETWORK_LOG = networkLog;
  const worker = sourcePhotoWorker();
  pool = createPhotoPool({
    processes: 1,
    maxWaitMs: 600_000,
    worker: {
      ...worker,
      execArgv: [
        ...worker.execArgv,
        '--import',
        join(import.meta.dirname, '..', '..', 'helpers', 'no-network.mjs'),
      ],
    },
  });
});
afterAll(async () => {
  await pool.close();
  delete process.env.LOCALBOARD_NETWORK_LOG;
  rmSync(dir, { recursive: true, force: true });
});

/** The photo processed by the pool's worker (no network), as an upload is. */
async function inWorker(bytes: Buffer) {
  const file = join(dir, `upload-${++files}`);
  writeFileSync(file, bytes);
  const outcome = await pool.process(file);
  if (!outcome.ok) throw new Error(outcome.problem);
  return outcome.photo;
}

const networkAttempts = () => (existsSync(networkLog) ? readFileSync(networkLog, 'utf8') : '');

describe('in the photo worker, without the network', () => {
  it('loads the model and scores the photo; nothing tried to reach the network', async () => {
    const photo = await inWorker(await smallJpeg(1));
    expect(photo.score).not.toBeNull();
    expect(photo.score!.explicit).toBeGreaterThanOrEqual(0);
    expect(photo.score!.explicit).toBeLessThanOrEqual(1);
    expect(photo.score!.sexy).toBeGreaterThanOrEqual(0);
    expect(photo.score!.sexy).toBeLessThanOrEqual(1);
    expect(networkAttempts()).toBe('');
  });

  it('the preload does refuse the network there (so the test above means something)', async () => {
    // The same preload in this process would replace the test runner's own fetch: checked on a
    // child instead, with one fetch that must fail and be logged.
    const { spawnSync } = await import('node:child_process');
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        join(import.meta.dirname, '..', '..', 'helpers', 'no-network.mjs'),
        '-e',
        "fetch('https://registry.npmjs.org/').then(() => process.exit(0), () => process.exit(3))",
      ],
      { env: { ...process.env, LOCALBOARD_NETWORK_LOG: join(dir, 'probe.log') } },
    );
    expect(result.status).toBe(3);
    expect(readFileSync(join(dir, 'probe.log'), 'utf8')).toBe(
      'fetch https://registry.npmjs.org/\n',
    );
  });

  it('scores the ordinary photos below the default threshold: scenes, a drawing, phone and photo-like photos', async () => {
    const ordinary = {
      'landscape scene (JPEG)': await smallJpeg(2),
      'landscape scene (PNG)': await smallPng(7),
      'landscape scene (WebP)': await smallWebp(8),
      'a portrait-shaped scene': await smallJpeg(9, 600, 900),
      'phone photo, rotated by EXIF': await phoneJpeg(),
      '12-megapixel drawing with grain': await twelveMegapixelJpeg(3),
      '12-megapixel photo-like photo': await photoLikeJpeg(4),
    };
    const scores: Record<string, number> = {};
    for (const [name, bytes] of Object.entries(ordinary)) {
      const photo = await inWorker(bytes);
      expect(photo.score, name).not.toBeNull();
      scores[name] = photo.score!.explicit;
    }
    for (const [name, score] of Object.entries(scores))
      expect(isLikelyExplicit(score, DEFAULT_EXPLICIT_THRESHOLD), `${name}: ${score}`).toBe(false);
    expect(networkAttempts()).toBe('');
  });

  it('processes and scores odd pictures: grey with alpha, 16-bit, CMYK, a sliver, transparent', async () => {
    const grey = Buffer.alloc(400 * 300 * 2);
    for (let index = 0; index < grey.length; index += 2) {
      grey[index] = (index / 2) % 256;
      grey[index + 1] = 128 + ((index / 2) % 128);
    }
    const odd = {
      'grey with alpha (PNG)': await sharp(grey, { raw: { width: 400, height: 300, channels: 2 } })
        .png()
        .toBuffer(),
      '16-bit PNG': await sharp(await smallPng(11))
        .toColourspace('rgb16')
        .png()
        .toBuffer(),
      'CMYK JPEG': await sharp(await smallJpeg(12))
        .toColourspace('cmyk')
        .jpeg()
        .toBuffer(),
      'a 100 × 4000 sliver': await smallJpeg(13, 100, 4000),
      'fully transparent PNG': await sharp({
        create: {
          width: 300,
          height: 300,
          channels: 4,
          background: { r: 0, g: 0, b: 0, alpha: 0 },
        },
      })
        .png()
        .toBuffer(),
    };
    for (const [name, bytes] of Object.entries(odd)) {
      const photo = await inWorker(bytes);
      expect(photo.score, name).not.toBeNull();
    }
  });
});

describe('scoring that fails', () => {
  it('leaves the photo processed, with every size, unscored (null)', async () => {
    const outcome = await processPhoto(await smallJpeg(14), async () => {
      throw new Error('the model is not there');
    });
    if (!outcome.ok) throw new Error(outcome.problem);
    expect(outcome.photo.variants).toHaveLength(3);
    expect(outcome.photo.score).toBeNull();
  });
});

describe("the model's input", () => {
  it('is the whole picture at 224 × 224, RGB, transparency on white', async () => {
    const { data, info } = await sharp({
      create: { width: 640, height: 200, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const input = await modelInput({ data, width: info.width, height: info.height, channels: 4 });
    expect(input.length).toBe(MODEL_INPUT_SIDE * MODEL_INPUT_SIDE * 3);
    expect(new Set(input)).toEqual(new Set([255]));
  });
});
