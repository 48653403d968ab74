// The content an instance reads at run time, released through the site's bucket (docs/product.md
// section 12, "Instances that start in seconds"): with SITE_BUCKET set, only the publisher builds;
// every other instance answers the API and the pages rendered on request from what the publisher
// compiled. Those pages read the compiled content (core/content/: content.json, the ads' state
// files, their indexes), so after each upload of the site the publisher releases those files:
//   {prefix}.localboard/runtime/files/{md5}   each file's bytes, named by their digest (so a file
//                                             that did not change is neither put nor fetched again)
//   {prefix}.localboard/runtime/current.json  the release: its version and each file's digest,
//                                             written last, once every file it names is there
// The search index (search/search-index-file.ts) is not released with each: it is a gigabyte at a
// million ads, and an instance keeps its own up to date from the released ads files as the
// publisher does (runtime-follower.ts). A copy of the publisher's, the release's `searchIndex`,
// spares a new instance making one from nothing; it is put again once a day
// (SEARCH_INDEX_COPY_MAX_AGE_MS) or when the index's version changes.
// The build's own caches beside them (memo.json, batches/, ads-files.json) stay with the publisher.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileMd5Hex, type ObjectStorage } from '../../../store/object-storage/object-storage.ts';
import { SEARCH_INDEX_VERSION } from '../../../search/search-index-file.ts';
import { listSite } from './built-files.ts';
import { eachAtMost } from './site-uploader.ts';

/** Under the site's prefix: the released content, kept out of public reach (README). */
export const RUNTIME_FOLDER = '.localboard/runtime/';
const RELEASE_KEY = `${RUNTIME_FOLDER}current.json`;
export const runtimeFileKey = (digest: string) => `${RUNTIME_FOLDER}files/${digest}`;

/** The files of the compiled content the server reads while it serves (the search index aside). */
const RUNTIME_FILES = ['content.json'];
const SEARCH_INDEX_FILE = 'search.sqlite';
/** The copy of the search index a release names is put again when it is older than this. */
export const SEARCH_INDEX_COPY_MAX_AGE_MS = 24 * 60 * 60 * 1000;
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

/** A copy of the publisher's search index, for an instance that has none of its own yet. */
export interface SearchIndexCopy {
  digest: string;
  size: number;
  /** Its SEARCH_INDEX_VERSION. */
  indexVersion: number;
  /** When it was put (ISO). */
  put: string;
}

export interface RuntimeRelease {
  /** Grows by one with each release. */
  version: number;
  /** When the publisher released it (ISO). */
  released: string;
  files: RuntimeFile[];
  /** Made since by every instance from the files; the copy only starts one off. */
  searchIndex?: SearchIndexCopy;
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

/** Digests of files already hashed, while the file is the same (size, inode and time). */
const digests = new Map<string, { stamp: string; digest: string }>();

/** A file's digest, hashed again only when it changed (a publish rewrites one state's file). */
async function digestOf(file: string): Promise<{ digest: string; size: number }> {
  const { size, ino, mtimeMs } = statSync(file);
  const stamp = `${size} ${ino} ${mtimeMs}`;
  const known = digests.get(file);
  if (known?.stamp === stamp) return { digest: known.digest, size };
  const digest = await fileMd5Hex(file);
  digests.set(file, { stamp, digest });
  return { digest, size };
}

/** The runtime files of the compiled content in `compiledDir`, with their digests. */
export async function runtimeFilesOf(compiledDir: string): Promise<RuntimeFile[]> {
  const paths = [
    ...RUNTIME_FILES.filter((path) => existsSync(join(compiledDir, path))),
    ...RUNTIME_FOLDERS.flatMap((folder) =>
      listSite(join(compiledDir, folder))
        .filter((name) => !name.includes('/') && isRuntimeAdsFile(name))
        .map((name) => `${folder}/${name}`),
    ),
  ];
  const files: RuntimeFile[] = [];
  for (const path of paths) files.push({ path, ...(await digestOf(join(compiledDir, path))) });
  return files;
}

/**
 * The copy of the search index the release names: the one before's while it is of this version
 * and younger than SEARCH_INDEX_COPY_MAX_AGE_MS, else this build's, put now.
 */
async function searchIndexCopy(
  storage: ObjectStorage,
  compiledDir: string,
  before: SearchIndexCopy | undefined,
): Promise<{ copy?: SearchIndexCopy; putBytes: number }> {
  const fresh =
    before?.indexVersion === SEARCH_INDEX_VERSION &&
    Date.now() - Date.parse(before.put) < SEARCH_INDEX_COPY_MAX_AGE_MS;
  if (fresh) return { copy: before, putBytes: 0 };
  const file = join(compiledDir, SEARCH_INDEX_FILE);
  if (!existsSync(file)) return { putBytes: 0 };
  const { digest, size } = await digestOf(file);
  await storage.putFile(runtimeFileKey(digest), file, RUNTIME_HEADERS, digest);
  const put = new Date().toISOString();
  return { copy: { digest, size, indexVersion: SEARCH_INDEX_VERSION, put }, putBytes: size };
}

const RUNTIME_HEADERS = {
  contentType: 'application/octet-stream',
  cacheControl: 'private, max-age=31536000, immutable',
};

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
  const files = await runtimeFilesOf(compiledDir);
  const missing = files.filter((file) => !known.has(file.digest));
  await eachAtMost(concurrency, missing, async (file) => {
    await storage.putFile(
      runtimeFileKey(file.digest),
      join(compiledDir, file.path),
      RUNTIME_HEADERS,
      file.digest,
    );
  });
  const index = await searchIndexCopy(storage, compiledDir, before?.searchIndex);
  const release: RuntimeRelease = {
    version: (before?.version ?? 0) + 1,
    released: new Date().toISOString(),
    files,
    ...(index.copy ? { searchIndex: index.copy } : {}),
  };
  await storage.put(RELEASE_KEY, Buffer.from(JSON.stringify(release)), {
    contentType: 'application/json',
    cacheControl: 'no-store',
  });
  if (before) await pruneRuntimeFiles(storage, [before, release]);
  return {
    release,
    puts: missing.length + (index.putBytes > 0 ? 1 : 0),
    putBytes: missing.reduce((sum, file) => sum + file.size, 0) + index.putBytes,
  };
}

/** Deletes the released files that none of `kept` names (an instance may still fetch those). */
async function pruneRuntimeFiles(
  storage: ObjectStorage,
  kept: readonly RuntimeRelease[],
): Promise<void> {
  const named = new Set(kept.flatMap(namedDigests));
  const gone: string[] = [];
  for await (const { key } of storage.list(`${RUNTIME_FOLDER}files/`)) {
    const digest = key.slice(`${RUNTIME_FOLDER}files/`.length);
    if (!named.has(digest)) gone.push(key);
  }
  await storage.deleteMany(gone);
}

/** The digests a release names: its files' and its search index copy's. */
export const namedDigests = (release: RuntimeRelease): string[] => [
  ...release.files.map((file) => file.digest),
  ...(release.searchIndex ? [release.searchIndex.digest] : []),
];
