// An instance that does not publish keeps to the publisher's latest release of the compiled content
// and the search index (runtime-content.ts; docs/product.md section 12). At start, when the
// publisher announces a release (PostgreSQL's LISTEN/NOTIFY, through the store's announcements),
// and every FOLLOW_EVERY_MS in case an announcement was missed, it reads the release and makes
// each file it does not have yet ({dir}/files/{root}) from its chunks (content-chunks.ts): the
// ones the file's version before had are copied from it, only the others are fetched (each checked
// against its digest), and the nodes of the trees are kept in {dir}/nodes/. It links the files
// into a folder of the release's own ({dir}/release-{version}/), makes the ads index and id index
// there from the state files (pipeline/compile/state-file-index.ts; each state file's are kept in
// {dir}/indexes/ by its root), and only then moves the server's readers to it
// (useCompiledContentDir): a page reads one release whole, the one before or the new one. The
// release before stays on disk for readers still in it.
// The search index is this instance's own ({dir}/index/search.sqlite, linked into each release):
// brought up to date from the release's ads files as the publisher's build does
// (search/write-search-index.ts: a changed city's ads, in one transaction). A new instance starts it
// from the release's copy of the publisher's (or from nothing, when the copy is of another version
// of the index) after it is ready: the pages and the API do not wait for a gigabyte, and until the
// index is there /search says so (`searchReady`).
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { md5Hex, type ObjectStorage } from '../../../store/object-storage/object-storage.ts';
import { compiledContentFile, useCompiledContentDir } from '../../../core/content/index.ts';
import type {
  AdCounts,
  AdsIndex,
  CompiledContent,
} from '../../../core/schemas/compiled-content.ts';
import { adIdIndexFile } from '../../../core/content/ad-id-index-file.ts';
import { readAdsIndex } from '../../../pipeline/compile/state-ad-files.ts';
import { writeAdIdIndex } from '../../../pipeline/compile/ad-id-index.ts';
import { indexStateFile } from '../../../pipeline/compile/state-file-index.ts';
import { writeSearchIndex } from '../../../search/write-search-index.ts';
import { chunkFile, chunksOf, parseNode, type Chunk, type ChunkNode } from './content-chunks.ts';
import {
  CONTENT_WITHOUT_COUNTS,
  fetchNode,
  readRuntimeRelease,
  TRANSPARENCY,
  runtimeFileKey,
  type RuntimeFile,
  type RuntimeRelease,
} from './runtime-content.ts';
import { eachAtMost } from './site-uploader.ts';

/** A look at the bucket this often, whatever was heard. */
export const FOLLOW_EVERY_MS = 30_000;
/** Chunks fetched before they are written: at most this many at once in memory (32 KB each). */
const CHUNKS_A_ROUND = 256;

export interface RuntimeFollower {
  /** Looks for a newer release and moves to it; resolves once done (or failed: then logged). */
  refresh(why: string): Promise<void>;
  /** The release this instance reads, once it has one. */
  readonly version: number | undefined;
  /** Why it has none yet, in one line (/readyz). */
  readonly waitingFor: string;
  /** Whether this instance's search index is there (a new instance makes it after it is ready). */
  readonly searchReady: boolean;
  /** Resolves once the search index is there (or its making failed: then logged). */
  searchMade(): Promise<void>;
  /** Takes `version` as read (the publisher's own, built here: nothing to fetch). */
  heldAlready(version: number): void;
  stop(): void;
}

export interface RuntimeFollowerSettings {
  storage: ObjectStorage;
  /** Where releases are kept on this machine. */
  dir: string;
  /** Whether to follow now (not while this instance is the publisher: it reads its own build). */
  following?: () => boolean;
  log?: (line: string) => void;
}

export function runtimeFollower(settings: RuntimeFollowerSettings): RuntimeFollower {
  const { storage, dir } = settings;
  const log = settings.log ?? ((line: string) => console.log(line));
  const following = settings.following ?? (() => true);
  const filesDir = join(dir, 'files');
  const nodesDir = join(dir, 'nodes');
  const indexesDir = join(dir, 'indexes');
  const indexFile = join(dir, 'index', 'search.sqlite');
  let version: number | undefined;
  /** The release read now, when it was fetched here, and the nodes its files' trees have. */
  let current: { release: RuntimeRelease; nodes: Set<string> } | undefined;
  let waitingFor = `waiting for the publisher's first release of the site's content in ${storage.describe}`;
  let running: Promise<void> | undefined;
  let again = false;
  let searchReady = existsSync(indexFile);
  let makingSearch: Promise<void> = Promise.resolve();
  let searchUnderWay = false;
  const timer = setInterval(() => void follower.refresh('a regular look'), FOLLOW_EVERY_MS);
  timer.unref();

  /** What one move fetched. */
  interface Fetched {
    objects: number;
    bytes: number;
  }

  /** A node of a file's tree: kept here, else fetched (and kept). */
  function nodeReader(fetched: Fetched, seen: Set<string>) {
    return async (digest: string): Promise<ChunkNode> => {
      seen.add(digest);
      const local = join(nodesDir, digest);
      if (existsSync(local)) return parseNode(digest, readFileSync(local, 'utf8'));
      const node = await fetchNode(storage, digest);
      fetched.objects += 1;
      fetched.bytes += Buffer.byteLength(node.text);
      writeFileSync(`${local}.part`, node.text);
      renameSync(`${local}.part`, local);
      return node;
    };
  }

  /**
   * Makes a released file ({filesDir}/{root}) from its chunks: those of this path's file in the
   * release read now copied from it, the others fetched.
   */
  async function makeFile(
    release: RuntimeRelease,
    file: RuntimeFile,
    node: (digest: string) => Promise<ChunkNode>,
    fetched: Fetched,
  ): Promise<void> {
    const target = join(filesDir, file.root);
    if (existsSync(target)) return;
    const { chunks } = await chunksOf(file.root, node);
    const had = new Map<string, Chunk>();
    const earlier = current?.release.files.find((one) => one.path === file.path);
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

  async function moveTo(release: RuntimeRelease, why: string): Promise<void> {
    const started = performance.now();
    for (const folder of [filesDir, nodesDir]) mkdirSync(folder, { recursive: true });
    const fetched: Fetched = { objects: 0, bytes: 0 };
    const nodes = new Set<string>();
    const node = nodeReader(fetched, nodes);
    await eachAtMost(4, release.files, (file) => makeFile(release, file, node, fetched));
    const releaseDir = join(dir, `release-${release.version}`);
    rmSync(`${releaseDir}.part`, { recursive: true, force: true });
    for (const file of release.files) {
      const target = join(`${releaseDir}.part`, file.path);
      mkdirSync(dirname(target), { recursive: true });
      linkSync(join(filesDir, file.root), target);
    }
    writeMadeFiles(release, `${releaseDir}.part`);
    // The search index, when this instance has one: brought up to the release before it is read.
    const index = searchReady
      ? bringSearchIndexUp(`${releaseDir}.part`)
      : { said: 'being made (search waits for it)' };
    symlinkSync(indexFile, join(`${releaseDir}.part`, 'search.sqlite'));
    rmSync(releaseDir, { recursive: true, force: true });
    renameSync(`${releaseDir}.part`, releaseDir);
    // This instance became the publisher meanwhile: it reads its own builds.
    if (!following()) return;
    const before = current;
    useCompiledContentDir(releaseDir);
    current = { release, nodes };
    version = release.version;
    waitingFor = '';
    removeOlder(current, before);
    const ms = Math.round(performance.now() - started);
    log(
      `Reading release ${release.version} of the site's content (${why}): ${fetched.objects} ` +
        `objects fetched (${(fetched.bytes / 1e6).toFixed(2)} MB), search index: ${index.said}, ` +
        `in ${ms} ms.`,
    );
    if (!searchReady && !searchUnderWay) {
      searchUnderWay = true;
      makingSearch = makeSearchIndex(release).finally(() => {
        searchUnderWay = false;
      });
    }
  }

  /** Brings this instance's search index up to the ads of the release in `releaseDir`. */
  function bringSearchIndexUp(releaseDir: string): { said: string } {
    const content = JSON.parse(
      readFileSync(compiledContentFile(releaseDir), 'utf8'),
    ) as CompiledContent;
    const update = writeSearchIndex(releaseDir, content.buildDate, {
      adsIndex: content.activeAds > 0 ? readAdsIndex(releaseDir) : {},
      states: content.states,
      indexFile,
    });
    const said =
      `${update.citiesChanged} ${update.citiesChanged === 1 ? 'city' : 'cities'} ` +
      `brought up to date in ${Math.round(update.milliseconds)} ms`;
    return { said };
  }

  /**
   * A new instance's search index, made while it already serves: from the release's copy of the
   * publisher's (streamed to a file beside it and renamed into place), or from nothing; then
   * brought up to the release read by then.
   */
  async function makeSearchIndex(release: RuntimeRelease): Promise<void> {
    const started = performance.now();
    try {
      const copy = release.searchIndex;
      mkdirSync(dirname(indexFile), { recursive: true });
      let from = 'made from the released ads';
      if (copy) {
        if (!(await storage.getFile(runtimeFileKey(copy.digest), `${indexFile}.part`, copy.digest)))
          throw new Error(`the search index of release ${release.version} is not in the bucket`);
        renameSync(`${indexFile}.part`, indexFile);
        from = `the publisher's copy (${(copy.size / 1e6).toFixed(2)} MB) fetched`;
      }
      // Brought up to the release read now, between two moves.
      await oneAtATime(async () => {
        const reading = current && join(dir, `release-${current.release.version}`);
        const update = reading ? bringSearchIndexUp(reading) : undefined;
        searchReady = true;
        log(
          `The search index is ready: ${from}${update ? `, ${update.said}` : ''}, ` +
            `${Math.round(performance.now() - started)} ms after the release was read.`,
        );
      });
    } catch (error) {
      rmSync(`${indexFile}.part`, { force: true });
      log(
        `The search index could not be made: ${(error as Error).message} (tried again at the next release).`,
      );
    }
  }
  /** Keeps this release and the one before; files, nodes and indexes neither names go. */
  function removeOlder(
    kept: { release: RuntimeRelease; nodes: Set<string> },
    before: { release: RuntimeRelease; nodes: Set<string> } | undefined,
  ): void {
    const releases = [kept, ...(before ? [before] : [])];
    const folders = new Set(['files', 'nodes', 'indexes', 'index']);
    for (const { release } of releases) folders.add(`release-${release.version}`);
    for (const name of readdirSync(dir))
      if (!folders.has(name)) rmSync(join(dir, name), { recursive: true, force: true });
    const roots = new Set(
      releases.flatMap(({ release }) => release.files.map((file) => file.root)),
    );
    for (const name of readdirSync(filesDir))
      if (!roots.has(name)) rmSync(join(filesDir, name), { force: true });
    for (const name of existsSync(indexesDir) ? readdirSync(indexesDir) : [])
      if (!roots.has(name.replace(/\.(json|ids)$/, '')))
        rmSync(join(indexesDir, name), { force: true });
    const nodes = new Set(releases.flatMap((one) => [...one.nodes]));
    for (const name of readdirSync(nodesDir))
      if (!nodes.has(name)) rmSync(join(nodesDir, name), { force: true });
  }

  /** Moves and the search index's last step run one at a time. */
  let lane: Promise<unknown> = Promise.resolve();
  function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const next = lane.then(work, work);
    lane = next.catch(() => {});
    return next;
  }

  async function look(why: string): Promise<void> {
    if (!following()) return;
    try {
      const release = await readRuntimeRelease(storage);
      if (!release) return;
      if (version !== undefined && release.version <= version) return;
      await moveTo(release, why);
    } catch (error) {
      const message = `the site's content could not be read from ${storage.describe}: ${(error as Error).message}`;
      if (version === undefined) waitingFor = message;
      log(
        `${message[0]!.toUpperCase()}${message.slice(1)} (tried again at the next announcement).`,
      );
    }
  }

  const follower: RuntimeFollower = {
    async refresh(why) {
      // One look at a time; what is asked meanwhile makes one more look after it.
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        do {
          again = false;
          await oneAtATime(() => look(why));
        } while (again);
      })().finally(() => {
        running = undefined;
      });
      return running;
    },
    get version() {
      return version;
    },
    get waitingFor() {
      return waitingFor;
    },
    get searchReady() {
      return searchReady;
    },
    searchMade: () => makingSearch,
    heldAlready(held) {
      if (version === undefined || held > version) version = held;
      waitingFor = '';
    },
    stop() {
      clearInterval(timer);
    },
  };
  return follower;
}
