// What the routes are given for photos: the processing pool, the storage of their bytes, and the
// explicit-image threshold (docs/product.md section 10) the moderation queue tests photos' scores against.
import { DEFAULT_EXPLICIT_THRESHOLD } from '../../core/schemas/photos.ts';
import type { PhotoStorage } from '../../store/photo-storage/photo-storage.ts';
import type { PhotoPool } from './processing-pool.ts';

export interface AppPhotos {
  pool: PhotoPool;
  storage: PhotoStorage;
  /** A photo whose explicit score is at or over it is likely explicit (isLikelyExplicit). */
  explicitThreshold: number;
}

/**
 * PHOTO_EXPLICIT_THRESHOLD, the one setting of it: a number from 0 to 1 (a score at or over it is
 * likely explicit); unset or empty, the default (core/schemas/photos.ts). Anything else is a
 * problem, in one line, for the server to stop on at start-up.
 */
export function explicitThresholdFromEnv(
  env: NodeJS.ProcessEnv,
): { threshold: number } | { problem: string } {
  const text = env.PHOTO_EXPLICIT_THRESHOLD?.trim();
  if (!text) return { threshold: DEFAULT_EXPLICIT_THRESHOLD };
  const value = Number(text);
  if (!/^\d*\.?\d+$/.test(text) || !(value > 0 && value <= 1))
    return {
      problem: `PHOTO_EXPLICIT_THRESHOLD: expected a number over 0 and at most 1 (default ${DEFAULT_EXPLICIT_THRESHOLD}), got ${JSON.stringify(env.PHOTO_EXPLICIT_THRESHOLD)}`,
    };
  return { threshold: value };
}
