// The scam shield's trained models (core/shield/model.ts), read once from their files: the ones
// `npm run train:shield` wrote into content/shield/ (SHIELD_MODELS_DIR to read others). A missing
// or unreadable file is a fault of the installation, and says so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShieldModelFile } from '../../core/shield/model.ts';

const files = { messages: 'message-model.json', ads: 'ad-model.json' } as const;
const cache = new Map<string, ShieldModelFile>();

/** The model of first messages, or of ads. */
export function shieldModel(kind: ShieldModelFile['kind']): ShieldModelFile {
  const dir = process.env.SHIELD_MODELS_DIR || join(process.cwd(), 'content', 'shield');
  const path = join(dir, files[kind]);
  let model = cache.get(path);
  if (!model) {
    try {
      model = JSON.parse(readFileSync(path, 'utf8')) as ShieldModelFile;
    } catch (error) {
      throw new Error(
        `The scam shield's model ${path} cannot be read (${(error as Error).message}): run \`npm run train:shield\`, or set SHIELD_MODELS_DIR.`,
      );
    }
    if (model.kind !== kind) throw new Error(`${path} is a model of ${model.kind}, not ${kind}.`);
    cache.set(path, model);
  }
  return model;
}
