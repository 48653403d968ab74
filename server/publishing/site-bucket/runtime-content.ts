// The content an instance reads at run time, released through the site's bucket (docs/product.md
// section 12, "Instances that start in seconds"): with SITE_BUCKET set, only the publisher builds;
// every other instance answers the API and the pages rendered on request from what the publisher
// compiled. Those pages read the compiled content (core/content/: content.json, the ads' state
// files, their indexes) and the search index (search/search-index-file.ts: search.sqlite), so
// after each upload of the site the publisher releases those files too:
//   {prefix}.localboard/runtime/files/{md5}   each file's bytes, named by their digest (so a file
//                                             that did not change is neither put nor fetched again)
//   {prefix}.localboard/runtime/current.json  the release: its version and each file's digest,
//                                             written last, once every file it names is there
// The build's own caches beside them (memo.json, batches/, ads-files.json) stay with the publisher.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { md5Hex, type ObjectStorage } from '../../../store/object-storage/object-storage.ts';
import { listSite } from './built-files.ts';
import { eachAtMost } from './site-uploader.ts';

/** Under the site's prefix: the released content, kept out of public reach (README). */
export const RUNTIME_FOLDER = '.localboard/runtime/';
const RELEASE_KEY = `${RUNTIME_FOLDER}current.json`;
export const runtimeFileKey = (digest: string) => `${RUNTIME_FOLDER}files/${digest}`;

/** The files of the compiled content the server reads while it serves. */
const RUNTIME_FILES = ['content.json', 'search.sqlite'];
const RUNTIME_FOLDERS = ['ads'];
/** In ads/: the state files and the indexes of their ads (the state's own .ids are merged in ids.idx). */
const isRuntimeAdsFile = (name: string) =>
  name.endsWith('.ndjson') || name === 'index.json' || name === 'ids.idx';

export interface RuntimeFile {
  /** Under the compiled content's folder, with `/`. */
  path: string;
  digest: string;
  size: number;
}

export interface RuntimeRelease {
  /** Grows by one with each release. */
  version: number;
  /** When the publisher released it (ISO). */
  released: string;
  files: RuntimeFile[];
}

/** The release the bucket holds now, or undefined before the first. */
export async function readRuntimeRelease(
  storage: ObjectStorage,
): Promise<RuntimeRelease | undefined> {
  const bytes = await storage.get(RELEASE_KEY);
  if (!bytes) return undefined;
  const release = JSON.parse(bytes.toString('utf8')) as RuntimeRelease;
  if (!Number.isInteger(release.version) || !Array.isArray(release.files))
    throw new Error(`${storage.describe}${RELEASE_KEY} is not a release of the site's content`);
  return release;
}

/** The runtime files of the compiled content in `compiledDir`, read and hashed. */
export function runtimeFilesOf(compiledDir: string): Array<RuntimeFile & { bytes: Buffer }> {
  const paths = [
    ...RUNTIME_FILES.filter((path) => existsSync(join(compiledDir, path))),
    ...RUNTIME_FOLDERS.flatMap((folder) =>
      listSite(join(compiledDir, folder))
        .filter((name) => !name.includes('/') && isRuntimeAdsFile(name))
        .map((name) => `${folder}/${name}`),
    ),
  ];
  return paths.map((path) => {
    const bytes = readFileSync(join(compiledDir, path));
    return { path, digest: md5Hex(bytes), size: bytes.length, bytes };
  });
}

export interface ReleaseOutcome {
  release: RuntimeRelease;
  /** Files put (the others were in the bucket already), and their bytes. */
  puts: number;
  putBytes: number;
}

/**
 * Releases the compiled content of `compiledDir` as the version after `previous` (read from the
 * bucket when not given): puts the files the bucket does not have, then the release naming them.
 * The files of older releases stay (an instance may be fetching one); `pruneRuntimeFiles` removes
 * those no release since names.
 */
export async function releaseRuntimeContent(
  storage: ObjectStorage,
  compiledDir: string,
  previous?: RuntimeRelease,
  concurrency = 8,
): Promise<ReleaseOutcome> {
  const before = previous ?? (await readRuntimeRelease(storage));
  const known = new Set(before?.files.map((file) => file.digest));
  const files = runtimeFilesOf(compiledDir);
  const missing = files.filter((file) => !known.has(file.digest));
  await eachAtMost(concurrency, missing, async (file) => {
    await storage.put(runtimeFileKey(file.digest), file.bytes, {
      contentType: 'application/octet-stream',
      cacheControl: 'private, max-age=31536000, immutable',
    });
  });
  const release: RuntimeRelease = {
    version: (before?.version ?? 0) + 1,
    released: new Date().toISOString(),
    files: files.map(({ path, digest, size }) => ({ path, digest, size })),
  };
  await storage.put(RELEASE_KEY, Buffer.from(JSON.stringify(release)), {
    contentType: 'application/json',
    cacheControl: 'no-store',
  });
  if (before) await pruneRuntimeFiles(storage, [before, release]);
  return {
    release,
    puts: missing.length,
    putBytes: missing.reduce((sum, file) => sum + file.size, 0),
  };
}

/** Deletes the released files that none of `kept` names (an instance may still fetch those). */
async function pruneRuntimeFiles(
  storage: ObjectStorage,
  kept: readonly RuntimeRelease[],
): Promise<void> {
  const named = new Set(kept.flatMap((release) => release.files.map((file) => file.digest)));
  const gone: string[] = [];
  for await (const { key } of storage.list(`${RUNTIME_FOLDER}files/`)) {
    const digest = key.slice(`${RUNTIME_FOLDER}files/`.length);
    if (!named.has(digest)) gone.push(key);
  }
  await storage.deleteMany(gone);
}
