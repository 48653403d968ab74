// The content an instance reads at run time, released through the site's bucket (docs/product.md
// section 12, "Instances that start in seconds"): with SITE_BUCKET set, only the publisher builds;
// every other instance answers the API and the pages rendered on request from what the publisher
// compiled. Those pages read the compiled content (core/content/: content.json and the ads' state
// files), so after each upload of the site the publisher releases those files, cut into chunks by
// their content (content-chunks.ts), so that one approval travels as the few chunks it changed:
//   {prefix}.localboard/runtime/files/{md5}   each chunk's bytes, and each node of a file's tree of
//                                             chunks, named by their digest (neither is put nor
//                                             fetched again while a release names it)
//   {prefix}.localboard/runtime/release.json  the release: its version and each file's root node,
//                                             written last, once every object it names is there
// What changes with every ad does not travel: the indexes of the ads (ads/index.json, ads/ids.idx:
// every city's offset in its state's file moves with each line before it) and content.json's
// counts of ads (`adCounts`, `activeAds`) are made by each instance from the released state files
// as the compiler makes them (runtime-follower.ts, pipeline/compile/state-file-index.ts); the
// rest of content.json travels as `content-without-counts.json`, and its moderation counts, which
// change with every decision, as the small `transparency.json`.
// The search index (search/search-index-file.ts) is not released with each: it is a gigabyte at a
// million ads, and an instance keeps its own up to date from the released ads files as the
// publisher does (runtime-follower.ts). A copy of the publisher's, the release's `searchIndex`,
// spares a new instance making one from nothing; it is put again once a day
// (SEARCH_INDEX_COPY_MAX_AGE_MS) or when the index's version changes, and the objects no release
// names are swept then.
// The build's own caches beside them (memo.json, batches/, ads-files.json) stay with the publisher.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import type { CompiledContent } from '../../../core/schemas/compiled-content.ts';
import { replaceFile } from '../../../pipeline/replace-file.ts';
import { join } from 'node:path';
import {
  fileMd5Hex,
  md5Hex,
  type ObjectStorage,
} from '../../../store/object-storage/object-storage.ts';
import { SEARCH_INDEX_VERSION } from '../../../search/search-index-file.ts';
import { listSite } from './built-files.ts';
import {
  chunkFile,
  chunksOf,
  parseNode,
  type ChunkedFile,
  type ChunkNode,
} from './content-chunks.ts';
import { eachAtMost } from './site-uploader.ts';

/** Under the site's prefix: the released content, kept out of public reach (README). */
export const RUNTIME_FOLDER = '.localboard/runtime/';
/** The release (format 2: files by chunks; `current.json`, of whole files, was format 1). */
export const RELEASE_KEY = `${RUNTIME_FOLDER}release.json`;
export const runtimeFileKey = (digest: string) => `${RUNTIME_FOLDER}files/${digest}`;

/** content.json as it travels: without what each instance makes (above), and its transparency. */
export const CONTENT_WITHOUT_COUNTS = 'content-without-counts.json';
export const TRANSPARENCY = 'transparency.json';
/** Where the publisher writes those two beside its compiled content, to cut them into chunks. */
const RELEASED_DIR = 'released';
const SEARCH_INDEX_FILE = 'search.sqlite';
/** The copy of the search index a release names is put again when it is older than this. */
export const SEARCH_INDEX_COPY_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** In ads/: the state files (their indexes are made by each instance). */
const isRuntimeAdsFile = (name: string) => name.endsWith('.ndjson');

export interface RuntimeFile {
  /** Under the compiled content's folder, with `/`. */
  path: string;
  /** The root node of its chunks (content-chunks.ts): names its bytes. */
  root: string;
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

/** Whole copies of a release's files, each named by the MD5 of its bytes. */
export interface StarterCopy {
  /** When they were put (ISO). */
  put: string;
  files: Array<{ path: string; digest: string; size: number }>;
}

export interface RuntimeRelease {
  format: 2;
  /** Grows by one with each release. */
  version: number;
  /** When the publisher released it (ISO). */
  released: string;
  files: RuntimeFile[];
  /** Made since by every instance from the files; the copy only starts one off. */
  searchIndex?: SearchIndexCopy;
  /**
   * Whole copies of the files, put with the search index's copy (once a day): a new instance
   * fetches these few large objects, cuts them into chunks itself and fetches only the chunks
   * that changed since, rather than tens of thousands of small ones at a million ads.
   */
  starter?: StarterCopy;
  /**
   * Objects the release before named and this one does not: deleted by the release after this
   * one, unless it names them again (an instance may still be fetching this one's predecessor).
   */
  retired: string[];
}

/** The release the bucket holds now, or undefined before the first. */
export async function readRuntimeRelease(
  storage: ObjectStorage,
): Promise<RuntimeRelease | undefined> {
  const bytes = await storage.get(RELEASE_KEY);
  if (!bytes) return undefined;
  const release = JSON.parse(bytes.toString('utf8')) as RuntimeRelease;
  if (release.format !== 2 || !Number.isInteger(release.version) || !Array.isArray(release.files))
    throw new Error(`${storage.describe}${RELEASE_KEY} is not a release of the site's content`);
  return release;
}

/** A node read from the bucket, checked against its digest. */
export async function fetchNode(storage: ObjectStorage, digest: string): Promise<ChunkNode> {
  const bytes = await storage.get(runtimeFileKey(digest));
  if (!bytes) throw new Error(`node ${digest} of the released content is not in the bucket`);
  const node = parseNode(digest, bytes.toString('utf8'));
  if (md5OfText(node.text) !== digest)
    throw new Error(`node ${digest} of the released content came with other bytes`);
  return node;
}

const md5OfText = (text: string) => md5Hex(Buffer.from(text, 'utf8'));

/** Chunked files already cut, while the file is the same (size, inode and time). */
const chunked = new Map<string, { stamp: string; file: ChunkedFile }>();

/** A file's size, inode and time: another stamp, another file. */
function fileStamp(file: string): string {
  const { size, ino, mtimeMs } = statSync(file);
  return `${size} ${ino} ${mtimeMs}`;
}

/** A file cut into chunks, cut again only when it changed (a publish rewrites one state's file). */
function chunkedFile(file: string): ChunkedFile {
  const stamp = fileStamp(file);
  const known = chunked.get(file);
  if (known?.stamp === stamp) return known.file;
  const made = chunkFile(file);
  chunked.set(file, { stamp, file: made });
  return made;
}

/**
 * content.json split for the release ({compiledDir}/released/): the content without its counts
 * of ads, and its transparency report; each file rewritten only when its bytes change.
 */
function splitContent(compiledDir: string): string[] {
  const file = join(compiledDir, 'content.json');
  if (!existsSync(file)) return [];
  const paths = [CONTENT_WITHOUT_COUNTS, TRANSPARENCY].map((name) => `${RELEASED_DIR}/${name}`);
  // Split once a build: content.json is read again only when the build rewrote it.
  const stamp = fileStamp(file);
  if (splitFrom.get(file) === stamp) return paths;
  const { adCounts, activeAds, transparency, ...rest } = JSON.parse(
    readFileSync(file, 'utf8'),
  ) as CompiledContent;
  const dir = join(compiledDir, RELEASED_DIR);
  mkdirSync(dir, { recursive: true });
  const texts = [JSON.stringify(rest), JSON.stringify(transparency ?? null)];
  paths.forEach((path, index) => {
    const target = join(compiledDir, path);
    const text = texts[index]!;
    if (!existsSync(target) || readFileSync(target, 'utf8') !== text) replaceFile(target, text);
  });
  splitFrom.set(file, stamp);
  return paths;
}

/** The content.json each compiled folder's release files were last split from (its stamp). */
const splitFrom = new Map<string, string>();

/** The runtime files of the compiled content in `compiledDir`, cut into chunks. */
export function runtimeFilesOf(
  compiledDir: string,
): Array<RuntimeFile & { chunked: ChunkedFile; local: string }> {
  const split = splitContent(compiledDir);
  const paths = [
    ...split,
    ...listSite(join(compiledDir, 'ads'))
      .filter((name) => !name.includes('/') && isRuntimeAdsFile(name))
      .map((name) => `ads/${name}`),
  ];
  return paths.map((path) => {
    const file = chunkedFile(join(compiledDir, path));
    // The two made from content.json travel under their own names, at the top.
    const released = path.replace(`${RELEASED_DIR}/`, '');
    return { path: released, root: file.root, size: file.size, chunked: file, local: path };
  });
}

/** Every object a release names: its files' chunks and nodes, and its search index copy. */
async function namedBy(
  release: RuntimeRelease,
  node: (digest: string) => Promise<ChunkNode>,
): Promise<Set<string>> {
  const named = new Set<string>(release.searchIndex ? [release.searchIndex.digest] : []);
  for (const file of release.starter?.files ?? []) named.add(file.digest);
  for (const file of release.files) {
    const { chunks, nodes } = await chunksOf(file.root, node);
    for (const part of [...chunks, ...nodes]) named.add(part.digest);
  }
  return named;
}

/** What this process released last: what that release names, so the next puts only the rest. */
let lastReleased: { bucket: string; version: number; named: Set<string> } | undefined;

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
  const { size } = statSync(file);
  const digest = await fileMd5Hex(file);
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
  /** Objects put (chunks, nodes, the index's copy; the others were in the bucket), their bytes. */
  puts: number;
  putBytes: number;
  /** Objects deleted: those two releases ago named and neither of the last two does. */
  deleted: number;
}

/** The bytes of one chunk of a file. */
function readChunk(file: string, offset: number, size: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const count = readSync(fd, bytes, read, size - read, offset + read);
      if (count === 0) throw new Error(`${file} ended before its chunk at ${offset + read}`);
      read += count;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * Releases the compiled content of `compiledDir` as the version after `previous` (read from the
 * bucket when not given): puts the chunks and nodes the bucket does not have, then the release
 * naming them. The objects of the release before stay (an instance may be fetching it); those of
 * the one before that which neither names go.
 */
export async function releaseRuntimeContent(
  storage: ObjectStorage,
  compiledDir: string,
  previous?: RuntimeRelease,
  concurrency = 8,
): Promise<ReleaseOutcome> {
  const before = previous ?? (await readRuntimeRelease(storage));
  const known =
    before === undefined
      ? new Set<string>()
      : lastReleased?.bucket === storage.describe && lastReleased.version === before.version
        ? lastReleased.named
        : await namedBy(before, (digest) => fetchNode(storage, digest));
  const files = runtimeFilesOf(compiledDir);
  const named = new Set<string>();
  const puts: Array<{ digest: string; bytes: () => Buffer }> = [];
  for (const file of files) {
    const path = join(compiledDir, file.local);
    for (const chunk of file.chunked.chunks) {
      if (!known.has(chunk.digest) && !named.has(chunk.digest))
        puts.push({ digest: chunk.digest, bytes: () => readChunk(path, chunk.offset, chunk.size) });
      named.add(chunk.digest);
    }
    for (const node of file.chunked.nodes) {
      if (!known.has(node.digest) && !named.has(node.digest))
        puts.push({ digest: node.digest, bytes: () => Buffer.from(node.text, 'utf8') });
      named.add(node.digest);
    }
  }
  let putBytes = 0;
  await eachAtMost(concurrency, puts, async (object) => {
    const bytes = object.bytes();
    putBytes += bytes.length;
    await storage.put(runtimeFileKey(object.digest), bytes, RUNTIME_HEADERS);
  });
  const index = await searchIndexCopy(storage, compiledDir, before?.searchIndex);
  if (index.copy) named.add(index.copy.digest);
  const starter =
    before?.starter && index.putBytes === 0
      ? { copy: before.starter, putBytes: 0, puts: 0 }
      : await starterCopy(storage, compiledDir, files, concurrency);
  for (const file of starter.copy.files) named.add(file.digest);
  const release: RuntimeRelease = {
    format: 2,
    version: (before?.version ?? 0) + 1,
    released: new Date().toISOString(),
    files: files.map(({ path, root, size }) => ({ path, root, size })),
    ...(index.copy ? { searchIndex: index.copy } : {}),
    starter: starter.copy,
    retired: [...known].filter((digest) => !named.has(digest)),
  };
  await storage.put(RELEASE_KEY, Buffer.from(JSON.stringify(release)), {
    contentType: 'application/json',
    cacheControl: 'no-store',
  });
  lastReleased = { bucket: storage.describe, version: release.version, named };
  // Two releases ago's leftovers; once a day (with the index's copy) anything else no release names.
  const gone = (before?.retired ?? []).filter((digest) => !named.has(digest));
  if (index.putBytes > 0) gone.push(...(await unnamed(storage, [...known, ...named])));
  await storage.deleteMany([...new Set(gone)].map(runtimeFileKey));
  return {
    release,
    puts: puts.length + (index.putBytes > 0 ? 1 : 0) + starter.puts,
    putBytes: putBytes + index.putBytes + starter.putBytes,
    deleted: gone.length,
  };
}

/** Whole copies of the release's files, put (each named by its MD5; one already there is kept). */
async function starterCopy(
  storage: ObjectStorage,
  compiledDir: string,
  files: ReadonlyArray<RuntimeFile & { local: string }>,
  concurrency: number,
): Promise<{ copy: StarterCopy; putBytes: number; puts: number }> {
  const copy: StarterCopy = { put: new Date().toISOString(), files: [] };
  let putBytes = 0;
  await eachAtMost(concurrency, files, async (file) => {
    const path = join(compiledDir, file.local);
    const digest = await fileMd5Hex(path);
    await storage.putFile(runtimeFileKey(digest), path, RUNTIME_HEADERS, digest);
    copy.files.push({ path: file.path, digest, size: file.size });
    putBytes += file.size;
  });
  return { copy, putBytes, puts: files.length };
}

/** The released objects in the bucket that none of `kept` is (a crash's leftovers, format 1's). */
async function unnamed(storage: ObjectStorage, kept: readonly string[]): Promise<string[]> {
  const keep = new Set(kept);
  const gone: string[] = [];
  for await (const { key } of storage.list(`${RUNTIME_FOLDER}files/`)) {
    const digest = key.slice(`${RUNTIME_FOLDER}files/`.length);
    if (!keep.has(digest)) gone.push(digest);
  }
  return gone;
}
