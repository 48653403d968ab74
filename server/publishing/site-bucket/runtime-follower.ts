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
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { ObjectStorage } from '../../../store/object-storage/object-storage.ts';
import { compiledContentFile, useCompiledContentDir } from '../../../core/content/index.ts';
import type { CompiledContent } from '../../../core/schemas/compiled-content.ts';
import { readAdsIndex } from '../../../pipeline/compile/state-ad-files.ts';
import { writeSearchIndex } from '../../../search/write-search-index.ts';
import { releaseFiles, type Fetched } from './release-files.ts';
import { readRuntimeRelease, runtimeFileKey, type RuntimeRelease } from './runtime-content.ts';

/** A look at the bucket this often, whatever was heard. */
export const FOLLOW_EVERY_MS = 30_000;

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
  const files = releaseFiles(storage, dir);
  const { filesDir, indexesDir } = files;
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

  async function moveTo(release: RuntimeRelease, why: string): Promise<void> {
    const started = performance.now();
    const fetched: Fetched = { objects: 0, bytes: 0 };
    const nodes = new Set<string>();
    await files.makeAll(release, current?.release, nodes, fetched);
    const releaseDir = join(dir, `release-${release.version}`);
    rmSync(`${releaseDir}.part`, { recursive: true, force: true });
    for (const file of release.files) {
      const target = join(`${releaseDir}.part`, file.path);
      mkdirSync(dirname(target), { recursive: true });
      linkSync(join(filesDir, file.root), target);
    }
    files.writeMadeFiles(release, `${releaseDir}.part`);
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
    files.keepNodes(new Set(releases.flatMap((one) => [...one.nodes])));
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
