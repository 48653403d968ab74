// Members' photos as files of the site (docs/product.md section 10): every size of every photo of
// the published member ads is written to {site}/photos/{ab}/{key}.webp (photoFilePath), from the
// photo storage the server keeps them in (store/photo-storage/photo-storage.ts: the database, or the
// PHOTOS_DIR folder). Names are the bytes' digests: a file already there is never written again,
// and the server sends them as cached for a year (server/http/static-site.ts).
//
// What the site holds is kept beside it, in {out}/published-photos/: one `{range key}.keys` file
// for each range of member ads (database-ad-source.ts) whose photos are in the site, listing the
// keys it uses, and `current.json`, the ranges of the last snapshot read. So a publish
// - writes the files of the ranges that changed only (a range whose keys file is there is done);
// - removes, once its pages are written (build.ts, after the pages step), the files that only
//   ranges no longer current used: the keys of those ranges, less the keys any current range
//   uses (read a file at a time). It never lists the site's photos folder, however many files
//   there are.
// A photo whose bytes the storage no longer has (deleted meanwhile) is left out of its ad with a
// warning, never a failure.
// With the photos in a bucket (PHOTOS_BUCKET), the site holds no photo files: the same steps make
// a key public in the bucket instead of writing its file, and hide it there instead of removing
// its file (store/photo-storage/photo-bucket.ts); the CDN serves /photos/ from the bucket.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { photosTakenDownFile } from '../prerender/output-layout.ts';
import { replaceFile } from '../replace-file.ts';
import type { PublishedAdRow } from '../../store/published-ads-reader.ts';
import { isPhotoKey, photoFilePath } from '../../core/schemas/photos.ts';

/** Beside the site in the build's output folder: what of members' photos the site holds. */
export const PUBLISHED_PHOTOS_FOLDER = 'published-photos';
/**
 * The same, for photos made public in a bucket (PHOTOS_BUCKET): a folder of its own, so that the
 * first build after a move into a bucket publishes every range's photos there.
 */
export const PUBLISHED_IN_BUCKET_FOLDER = 'published-photos-in-bucket';

/** The state folder for the photo storage `env` sets. */
export const publishedPhotosFolder = (env: NodeJS.ProcessEnv) =>
  env.PHOTOS_BUCKET?.trim() ? PUBLISHED_IN_BUCKET_FOLDER : PUBLISHED_PHOTOS_FOLDER;
const CURRENT_FILE = 'current.json';

/** Where the photos go, and where their bytes come from. */
export interface PhotoPublishing {
  /** The site ({out}/site): files go to its photos/ folder. */
  siteDir: string;
  /** {out}/published-photos. */
  stateDir: string;
  /** The photo storage (only read, or, a bucket, asked to make keys public). */
  storage: {
    describe: string;
    get(key: string): Promise<Buffer | undefined>;
    publicPhotos?: { publish(key: string): Promise<boolean> };
  };
}

/** Where the build whose output folder is `outDir` publishes photos (its storage comes later). */
export function photoPublishingIn(
  outDir: string,
  siteFolder: string,
  env: NodeJS.ProcessEnv = process.env,
): Omit<PhotoPublishing, 'storage'> {
  return { siteDir: join(outDir, siteFolder), stateDir: join(outDir, publishedPhotosFolder(env)) };
}

const keysFileOf = (publishing: Pick<PhotoPublishing, 'stateDir'>, rangeKey: string) =>
  join(publishing.stateDir, `${rangeKey}.keys`);

/** Whether the photos of the range with key `rangeKey` are in the site already. */
export function rangePhotosPublished(publishing: PhotoPublishing, rangeKey: string): boolean {
  return existsSync(keysFileOf(publishing, rangeKey));
}

/**
 * Writes the files of the photos of `rows` (one range's ads) that the site does not have yet, and
 * records the range's keys. Answers the rows as published: a photo whose bytes are missing is
 * left out (and named in `warnings`).
 */
export async function publishRangePhotos(
  publishing: PhotoPublishing,
  rangeKey: string,
  rows: PublishedAdRow[],
  warnings: string[],
): Promise<PublishedAdRow[]> {
  const keys = new Set<string>();
  const published: PublishedAdRow[] = [];
  for (const row of rows) {
    const photos: PublishedAdRow['photos'] = [];
    for (const photo of row.photos) {
      const missing = [];
      for (const variant of photo.variants)
        if (!(await publishFile(publishing, variant.key))) missing.push(variant.key);
      if (missing.length > 0) {
        warnings.push(
          `member ad ${row.id} (database): photo ${photo.id} left out: ${publishing.storage.describe} has no bytes for ${missing.join(', ')}`,
        );
        continue;
      }
      for (const variant of photo.variants) keys.add(variant.key);
      photos.push(photo);
    }
    published.push(photos.length === row.photos.length ? row : { ...row, photos });
  }
  mkdirSync(publishing.stateDir, { recursive: true });
  replaceFile(keysFileOf(publishing, rangeKey), [...keys].map((key) => `${key}\n`).join(''));
  return published;
}

/** The site has the file of `key` (written now, or before); false when its bytes are missing. */
async function publishFile(publishing: PhotoPublishing, key: string): Promise<boolean> {
  if (!isPhotoKey(key)) return false;
  if (publishing.storage.publicPhotos) return publishing.storage.publicPhotos.publish(key);
  const file = join(publishing.siteDir, photoFilePath(key));
  if (existsSync(file)) return true;
  const bytes = await publishing.storage.get(key);
  if (!bytes) return false;
  mkdirSync(dirname(file), { recursive: true });
  replaceFile(file, bytes);
  return true;
}

/** Records the ranges the snapshot found: the ones whose files stay (removeUnpublishedPhotos). */
export function recordCurrentRanges(
  publishing: Pick<PhotoPublishing, 'stateDir'>,
  rangeKeys: readonly string[],
) {
  mkdirSync(publishing.stateDir, { recursive: true });
  replaceFile(join(publishing.stateDir, CURRENT_FILE), JSON.stringify(rangeKeys));
}

/**
 * Removes from the site of `outDir` the photo files only ranges no longer current used, once the
 * pages that showed them are rewritten; with `hide` (photos in a bucket), has the bucket take
 * those keys out of public reach instead. Answers how many files it removed (keys it hid).
 */
export async function removeUnpublishedPhotos(
  outDir: string,
  siteFolder: string,
  hide?: (keys: readonly string[]) => Promise<number>,
): Promise<number> {
  if (hide) {
    // Photos in a bucket: the files of the site, and their record, written when they were kept
    // elsewhere, go (a photo taken down must not stay reachable there).
    rmSync(join(outDir, siteFolder, 'photos'), { recursive: true, force: true });
    rmSync(join(outDir, PUBLISHED_PHOTOS_FOLDER), { recursive: true, force: true });
  }
  const stateDir = join(outDir, hide ? PUBLISHED_IN_BUCKET_FOLDER : PUBLISHED_PHOTOS_FOLDER);
  const currentFile = join(stateDir, CURRENT_FILE);
  if (!existsSync(currentFile)) return 0;
  const current = new Set((JSON.parse(readFileSync(currentFile, 'utf8')) as string[]).map(String));
  const stale = readdirSync(stateDir).filter(
    (name) => name.endsWith('.keys') && !current.has(name.slice(0, -'.keys'.length)),
  );
  if (stale.length === 0) return 0;
  const candidates = new Set<string>();
  for (const name of stale) for (const key of keysIn(join(stateDir, name))) candidates.add(key);
  // A key of a current range stays (the same photo in two ads has the same bytes, the same key).
  for (const rangeKey of current) {
    if (candidates.size === 0) break;
    for (const key of keysIn(join(stateDir, `${rangeKey}.keys`))) candidates.delete(key);
  }
  let removed = 0;
  if (hide) {
    const keys = [...candidates].filter(isPhotoKey);
    // Said to the publisher, which purges their URLs from the CDN (the objects were public and
    // are cached for a year) and then removes the list: appended, so that the keys of a build
    // whose publish never reached the upload wait for the next one.
    if (keys.length > 0) appendFileSync(photosTakenDownFile(outDir), `${keys.join('\n')}\n`);
    removed = await hide(keys);
  } else
    for (const key of candidates) {
      if (!isPhotoKey(key)) continue;
      const file = join(outDir, siteFolder, photoFilePath(key));
      if (existsSync(file)) {
        rmSync(file, { force: true });
        removed += 1;
      }
    }
  for (const name of stale) rmSync(join(stateDir, name), { force: true });
  return removed;
}

function keysIn(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((key) => key !== '');
}
