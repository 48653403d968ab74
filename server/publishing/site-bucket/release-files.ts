// The files of a release, made on an instance that follows the publisher (runtime-follower.ts):
// each from its chunks (content-chunks.ts), those its earlier copy had copied from it (or, on a new
// instance, from the release's whole copy cut into chunks here), the others fetched and checked
// against their digest; the nodes of the files' trees kept in {dir}/nodes/; and what each instance
// makes itself rather than fetch: the ads index, the id index and content.json's counts of ads,
// from the state files (pipeline/compile/state-file-index.ts), kept in {dir}/indexes/ by the
// state file's root.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { md5Hex, type ObjectStorage } from '../../../store/object-storage/object-storage.ts';
import { compiledContentFile } from '../../../core/content/index.ts';
import type {
  AdCounts,
  AdsIndex,
  CompiledContent,
} from '../../../core/schemas/compiled-content.ts';
import { adIdIndexFile } from '../../../core/content/ad-id-index-file.ts';
import { writeAdIdIndex } from '../../../pipeline/compile/ad-id-index.ts';
import { indexStateFile } from '../../../pipeline/compile/state-file-index.ts';
import { chunkFile, chunksOf, parseNode, type Chunk, type ChunkNode } from './content-chunks.ts';
import {
  CONTENT_WITHOUT_COUNTS,
  fetchNode,
  runtimeFileKey,
  TRANSPARENCY,
  type RuntimeFile,
  type RuntimeRelease,
} from './runtime-content.ts';
import { eachAtMost } from './site-uploader.ts';

/** Chunks fetched before they are written: at most this many at once in memory (32 KB each). */
const CHUNKS_A_ROUND = 256;

/** What one move fetched. */
export interface Fetched {
  objects: number;
  bytes: number;
}

export type ReleaseFiles = ReturnType<typeof releaseFiles>;

/** The release files kept in `dir` ({dir}/files/{root}), made from the bucket's `storage`. */
export function releaseFiles(storage: ObjectStorage, dir: string) {
  const filesDir = join(dir, 'files');
  const nodesDir = join(dir, 'nodes');
  const indexesDir = join(dir, 'indexes');
  /**
   * The nodes read so far, parsed: every move reads the tree of every file of its release (a few
   * thousand small nodes at a million ads), nearly all unchanged since the move before.
   */
  const parsed = new Map<string, ChunkNode>();

  /** A node of a file's tree: kept here, else fetched (and kept). */
  function nodeReader(fetched: Fetched, seen: Set<string>) {
    return async (digest: string): Promise<ChunkNode> => {
      seen.add(digest);
      const known = parsed.get(digest);
      if (known) return known;
      const local = join(nodesDir, digest);
      let node: ChunkNode;
      if (existsSync(local)) node = parseNode(digest, readFileSync(local, 'utf8'));
      else {
        node = await fetchNode(storage, digest);
        fetched.objects += 1;
        fetched.bytes += Buffer.byteLength(node.text);
        writeFileSync(`${local}.part`, node.text);
        renameSync(`${local}.part`, local);
      }
      parsed.set(digest, node);
      return node;
    };
  }

  /** Keeps the nodes `kept` names, on disk and in memory; the others go. */
  function keepNodes(kept: ReadonlySet<string>): void {
    for (const digest of parsed.keys()) if (!kept.has(digest)) parsed.delete(digest);
    for (const name of readdirSync(nodesDir))
      if (!kept.has(name)) rmSync(join(nodesDir, name), { force: true });
  }

  /**
   * Makes a released file ({filesDir}/{root}) from its chunks: those of this path's file in the
   * release read now copied from it, the others fetched.
   */
  async function makeFile(
    release: RuntimeRelease,
    readNow: RuntimeRelease | undefined,
    file: RuntimeFile,
    node: (digest: string) => Promise<ChunkNode>,
    fetched: Fetched,
  ): Promise<void> {
    const target = join(filesDir, file.root);
    // Its tree is read all the same (from {dir}/nodes/, nothing fetched): the nodes a release
    // names are kept while it is read, so that a later change of this file fetches its chunks alone.
    const { chunks } = await chunksOf(file.root, node);
    if (existsSync(target)) return;
    const had = new Map<string, Chunk>();
    const earlier = readNow?.files.find((one) => one.path === file.path);
    let earlierFile = earlier && join(filesDir, earlier.root);
    if (earlier && earlierFile && existsSync(earlierFile))
      for (const chunk of (await chunksOf(earlier.root, node)).chunks) had.set(chunk.digest, chunk);
    else {
      // None here yet: the release's whole copy, cut into chunks here, when it has one.
      earlierFile = await starterFile(release, file.path, fetched);
      if (earlierFile)
        for (const chunk of chunkFile(earlierFile).chunks) had.set(chunk.digest, chunk);
    }
    const source = earlierFile && had.size > 0 ? openSync(earlierFile, 'r') : undefined;
    const out = openSync(`${target}.part`, 'w');
    try {
      for (let start = 0; start < chunks.length; start += CHUNKS_A_ROUND) {
        const round = chunks.slice(start, start + CHUNKS_A_ROUND);
        const got = new Map<string, Buffer>();
        await eachAtMost(
          32,
          round.filter((chunk) => !had.has(chunk.digest)),
          async (chunk) => {
            if (got.has(chunk.digest)) return;
            const bytes = await storage.get(runtimeFileKey(chunk.digest));
            if (!bytes)
              throw new Error(`a chunk of ${file.path} of this release is not in the bucket`);
            if (md5Hex(bytes) !== chunk.digest || bytes.length !== chunk.size)
              throw new Error(`a chunk of ${file.path} of this release came with other bytes`);
            got.set(chunk.digest, bytes);
            fetched.objects += 1;
            fetched.bytes += bytes.length;
          },
        );
        for (const chunk of round) {
          const kept = had.get(chunk.digest);
          let bytes = got.get(chunk.digest);
          if (!bytes) {
            bytes = Buffer.allocUnsafe(kept!.size);
            if (readSync(source!, bytes, 0, kept!.size, kept!.offset) !== kept!.size)
              throw new Error(`${earlierFile} is shorter than its release says`);
          }
          writeSync(out, bytes);
        }
      }
    } finally {
      closeSync(out);
      if (source !== undefined) closeSync(source);
    }
    renameSync(`${target}.part`, target);
    rmSync(join(filesDir, `${file.root}.starter`), { force: true });
  }

  /** The whole copy of `path` the release names, fetched beside the file it starts (or none). */
  async function starterFile(
    release: RuntimeRelease,
    path: string,
    fetched: Fetched,
  ): Promise<string | undefined> {
    const copy = release.starter?.files.find((one) => one.path === path);
    const root = release.files.find((one) => one.path === path)?.root;
    if (!copy || !root) return undefined;
    const local = join(filesDir, `${root}.starter`);
    if (!(await storage.getFile(runtimeFileKey(copy.digest), local, copy.digest))) return undefined;
    fetched.objects += 1;
    fetched.bytes += copy.size;
    return local;
  }

  /**
   * The ads index and the id index of the release in `releaseDir`, made from its state files (each
   * state's part kept by the file's root, so an unchanged state costs a read of two small files),
   * and its content.json: the released content with the counts of ads those make.
   */
  function writeMadeFiles(release: RuntimeRelease, releaseDir: string): void {
    mkdirSync(indexesDir, { recursive: true });
    const released = JSON.parse(
      readFileSync(join(releaseDir, CONTENT_WITHOUT_COUNTS), 'utf8'),
    ) as Omit<CompiledContent, 'adCounts' | 'activeAds' | 'transparency'>;
    const transparency = JSON.parse(readFileSync(join(releaseDir, TRANSPARENCY), 'utf8')) as
      CompiledContent['transparency'] | null;
    const index: AdsIndex = {};
    const adCounts: AdCounts = {};
    let activeAds = 0;
    const states: Array<{ state: string; idsFile: string }> = [];
    const byPath = new Map(release.files.map((file) => [file.path, file]));
    // In the content's order of the states, as the compiler lists them.
    for (const { name: state } of released.states) {
      const file = byPath.get(`ads/${state}.ndjson`);
      if (!file) continue;
      const cities = join(indexesDir, `${file.root}.json`);
      const ids = join(indexesDir, `${file.root}.ids`);
      if (!existsSync(cities) || !existsSync(ids)) {
        const made = indexStateFile(join(filesDir, file.root));
        made.ids.write(`${ids}.part`);
        renameSync(`${ids}.part`, ids);
        writeFileSync(`${cities}.part`, JSON.stringify(made.cities));
        renameSync(`${cities}.part`, cities);
      }
      const entries = JSON.parse(readFileSync(cities, 'utf8')) as AdsIndex[string]['cities'];
      index[state] = { pieces: file.root, cities: entries };
      adCounts[state] = Object.fromEntries(
        Object.entries(entries).map(([city, entry]) => [city, entry.ads]),
      );
      for (const entry of Object.values(entries)) activeAds += entry.ads;
      states.push({ state, idsFile: ids });
    }
    if (states.length > 0) {
      mkdirSync(join(releaseDir, 'ads'), { recursive: true });
      writeFileSync(join(releaseDir, 'ads', 'index.json'), JSON.stringify(index));
      writeAdIdIndex(adIdIndexFile(releaseDir), states);
    }
    const content: CompiledContent = {
      ...released,
      adCounts,
      activeAds,
      ...(transparency ? { transparency } : {}),
    };
    writeFileSync(compiledContentFile(releaseDir), JSON.stringify(content));
  }

  return {
    filesDir,
    indexesDir,
    nodeReader,
    keepNodes,
    /**
     * Makes every file of `release` not here yet, from the chunks of `readNow`'s (the release
     * read now) and those fetched; the nodes read on the way are added to `nodes`.
     */
    async makeAll(
      release: RuntimeRelease,
      readNow: RuntimeRelease | undefined,
      nodes: Set<string>,
      fetched: Fetched,
    ): Promise<void> {
      for (const folder of [filesDir, nodesDir]) mkdirSync(folder, { recursive: true });
      const node = nodeReader(fetched, nodes);
      await eachAtMost(4, release.files, (file) => makeFile(release, readNow, file, node, fetched));
    },
    writeMadeFiles,
  };
}
