// The build's last moves, once every page is written (pipeline/build.ts): the client assets no page
// links to any more leave the site, so do the photos only ads that left used, and the build stamp
// says what the site was built from. Done by the pages step itself when the starter handed the
// build over to it (`process.execve`: the starter becomes the pages step instead of waiting beside
// it, so the build's last and largest step runs without a second Node process's memory beside it),
// or by the starter after the pages step where Node has no execve (before 22.15).
import { join } from 'node:path';
import { SITE_FOLDER } from './prerender/output-layout.ts';
import { removeFilesNotIn, replaceFile } from './replace-file.ts';

/** What finishing needs, handed to the pages step in its environment (FINISH_VARIABLE) as JSON. */
export interface BuildFinish {
  outDir: string;
  siteStampFile: string;
  siteStamp: string;
  /** When the build started (ms since the epoch): for the "Build finished in" line. */
  startedAt: number;
}

export const FINISH_VARIABLE = 'LOCALBOARD_BUILD_FINISH';

/** Vite's own files of its client output, never copied into the site. */
export const notForTheSite = (path: string) => path.includes('/.vite');

export async function finishBuild({
  outDir,
  siteStampFile,
  siteStamp,
  startedAt,
}: BuildFinish): Promise<void> {
  removeFilesNotIn(join(outDir, 'client'), join(outDir, SITE_FOLDER), 'assets', notForTheSite);
  // Imported only now: it brings the content schemas (zod, some 20 MB).
  const { removeUnpublishedPhotos } = await import('./compile/published-photos.ts');
  await removeUnpublishedPhotos(outDir, SITE_FOLDER, await bucketHiding(process.env));
  replaceFile(siteStampFile, siteStamp);
  console.log(`Build finished in ${((Date.now() - startedAt) / 1000).toFixed(1)} s.`);
}

/**
 * With the photos in a bucket (PHOTOS_BUCKET), how the build takes keys out of public reach there
 * (server/photos/photo-bucket.ts); undefined when the site holds the photos' files.
 */
async function bucketHiding(
  env: NodeJS.ProcessEnv,
): Promise<((keys: readonly string[]) => Promise<number>) | undefined> {
  if (!env.PHOTOS_BUCKET?.trim()) return undefined;
  const { photoStorageLocationFromEnv } = await import('../server/photos/photo-storage.ts');
  const { openObjectStorage } = await import('../server/object-storage/object-storage.ts');
  const { photoBucket } = await import('../server/photos/photo-bucket.ts');
  const { bucket } = photoStorageLocationFromEnv(env);
  if (!bucket) return undefined;
  return async (keys) => {
    const objects = openObjectStorage(bucket.location, bucket.settings);
    try {
      return await photoBucket(objects).hide(keys);
    } finally {
      objects.close();
    }
  };
}

/** The hand-over the pages step was given, if the starter gave it one. */
export function handedFinish(env: NodeJS.ProcessEnv): BuildFinish | undefined {
  const json = env[FINISH_VARIABLE];
  return json ? (JSON.parse(json) as BuildFinish) : undefined;
}
