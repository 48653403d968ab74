// The explicit-image score of a photo (docs/product.md section 10): nsfwjs's MobileNetV2
// (its model ships inside the npm package), run by TensorFlow.js on its WebAssembly backend (the
// `.wasm` files ship in @tensorflow/tfjs-backend-wasm), in the photo worker process, on the pixels
// sharp already decoded. Nothing is fetched: the model comes from nsfwjs's own modules and the
// `.wasm` file is read from node_modules by path. Loaded lazily, on a worker's first photo, and
// kept for the worker's life; the imports are dynamic, so the server's own process (which imports
// process-photo.ts for its texts) never loads TensorFlow.js.
//
// The model sees the whole photo squeezed to 224 × 224 (sharp resizes; no cropping, as nsfwjs's
// own resize does) with transparency on white, and answers five probabilities: drawing, hentai,
// neutral, porn, sexy. The score keeps porn + hentai (explicit) and sexy apart (PhotoScore).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import type { PhotoScore } from '../../core/schemas/photos.ts';

/** The model's input: a square this many pixels a side, RGB. */
export const MODEL_INPUT_SIDE = 224;

/** Decoded pixels, as sharp gives them (`raw`). */
export interface RawPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/** Scores decoded pixels; throws when it cannot (the photo is then kept unscored). */
export type PhotoScorer = (pixels: RawPixels) => Promise<PhotoScore>;

/** The model's five probabilities, by nsfwjs's class names. */
export type ClassProbabilities = Record<'Drawing' | 'Hentai' | 'Neutral' | 'Porn' | 'Sexy', number>;

interface Classifier {
  /** 224 × 224 × 3 bytes of RGB. */
  classify(rgb: Uint8Array): Promise<ClassProbabilities>;
}

let classifier: Promise<Classifier> | undefined;

/**
 * The worker's classifier, loaded on first use and kept. A load that failed stays failed for the
 * worker's life (its photos are kept unscored; the pool starts a new worker after it idles).
 */
export function explicitClassifier(): Promise<Classifier> {
  classifier ??= loadClassifier();
  return classifier;
}

/** The score of a photo's decoded pixels (explicitClassifier's model). */
export const scoreExplicitness: PhotoScorer = async (pixels) => {
  const rgb = await modelInput(pixels);
  const classes = await (await explicitClassifier()).classify(rgb);
  return scoreOf(classes);
};

/** The model's input: the pixels at 224 × 224, RGB, transparency flattened on white. */
export async function modelInput({ data, width, height, channels }: RawPixels): Promise<Buffer> {
  const { data: rgb, info } = await sharp(data, { raw: { width, height, channels } })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .resize(MODEL_INPUT_SIDE, MODEL_INPUT_SIDE, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3)
    throw new Error(`expected RGB for the model, got ${info.channels} channels`);
  return rgb;
}

const fourDecimals = (value: number) => Math.round(value * 10_000) / 10_000;

/** The stored score of the model's five probabilities. */
export function scoreOf(classes: ClassProbabilities): PhotoScore {
  return {
    explicit: fourDecimals(Math.min(1, classes.Porn + classes.Hentai)),
    sexy: fourDecimals(classes.Sexy),
  };
}

/** The folder of @tensorflow/tfjs-backend-wasm's `.wasm` files, in node_modules. */
export function wasmFolder(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
}

async function loadClassifier(): Promise<Classifier> {
  const tf = await import('@tensorflow/tfjs');
  const { setWasmPaths } = await import('@tensorflow/tfjs-backend-wasm');
  const { NSFWJS } = await import('nsfwjs/core');
  const { MobileNetV2Model } = await import('nsfwjs/models/mobilenet_v2');
  // The file, by path: in Node, Emscripten reads it with fs (usePlatformFetch false: no fetch).
  setWasmPaths(join(wasmFolder(), '/'), false);
  tf.enableProdMode();
  if (!(await tf.setBackend('wasm')))
    throw new Error('the TensorFlow.js WebAssembly backend did not start');
  // The model as nsfwjs ships it: its JSON and its weights in base64, in modules of the package.
  const modelJson = (await MobileNetV2Model.modelJson()).default;
  const shards = await Promise.all(
    MobileNetV2Model.weightBundles.map(async (bundle) =>
      Buffer.from((await bundle()).default, 'base64'),
    ),
  );
  const weightData = new Uint8Array(shards.reduce((sum, shard) => sum + shard.length, 0));
  let offset = 0;
  for (const shard of shards) {
    weightData.set(shard, offset);
    offset += shard.length;
  }
  const handler: import('@tensorflow/tfjs').io.IOHandler = {
    load: async () => ({
      modelTopology: modelJson.modelTopology,
      weightSpecs: (modelJson.weightsManifest ?? []).flatMap((group) => group.weights),
      weightData: weightData.buffer,
    }),
  };
  // Given the model itself (not its name), nsfwjs loads nothing else and prints nothing.
  const model = new NSFWJS(handler, { size: MODEL_INPUT_SIDE });
  await model.load();
  return {
    async classify(rgb) {
      const pixels = tf.tensor3d(rgb, [MODEL_INPUT_SIDE, MODEL_INPUT_SIDE, 3], 'int32');
      try {
        const predictions = await model.classify(pixels, 5);
        const classes = { Drawing: 0, Hentai: 0, Neutral: 0, Porn: 0, Sexy: 0 };
        for (const { className, probability } of predictions) classes[className] = probability;
        return classes;
      } finally {
        pixels.dispose();
      }
    },
  };
}
