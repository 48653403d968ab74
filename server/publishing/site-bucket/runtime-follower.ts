// An instance that does not publish keeps to the publisher's latest release of the compiled content
// and the search index (runtime-content.ts; docs/product.md section 12). At start, when the
// publisher announces a release (PostgreSQL's LISTEN/NOTIFY, through the store's announcements),
// and every FOLLOW_EVERY_MS in case an announcement was missed, it reads the release, fetches the
// files it does not have yet (named by their digest, checked against it) into {dir}/files/, links
// them into a folder of the release's own ({dir}/release-{version}/) and only then moves the
// server's readers to it (useCompiledContentDir): a page reads one release whole, the one before
// or the new one. The release before stays on disk for readers still in it.
// The search index is this instance's own ({dir}/index/search.sqlite, linked into each release):
// brought up to date from the release's ads files as the publisher's build does
// (search/write-search-index.ts: a changed city's ads, in one transaction), started from the
// release's copy of the publisher's when there is none yet (or from nothing, when the copy is of
// another version of the index).
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { md5Hex, type ObjectStorage } from '../../../store/object-storage/object-storage.ts';
import { compiledContentFile, useCompiledContentDir } from '../../../core/content/index.ts';
import type { CompiledContent } from '../../../core/schemas/compiled-content.ts';
import { readAdsIndex } from '../../../pipeline/compile/state-ad-files.ts';
import { writeSearchIndex } from '../../../search/write-search-index.ts';
import {
  namedDigests,
  readRuntimeRelease,
  runtimeFileKey,
  type RuntimeRelease,
} from './runtime-content.ts';
import { eachAtMost } from './site-uploader.ts';

/** A look at the bucket this often, whatever was heard. */
export const FOLLOW_EVERY_MS = 30_000;

export interface RuntimeFollower {
  /** Looks for a newer release and moves to it; resolves once done (or failed: then logged). */
  refresh(why: string): Promise<void>;
  /** The release this instance reads, once it has one. */
  readonly version: number | undefined;
  /** Why it has none yet, in one line (/readyz). */
  readonly waitingFor: string;
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
  const indexFile = join(dir, 'index', 'search.sqlite');
  let version: number | undefined;
  /** The release read now, when it was fetched here. */
  let current: RuntimeRelease | undefined;
  let waitingFor = `waiting for the publisher's first release of the site's content in ${storage.describe}`;
  let running: Promise<void> | undefined;
  let again = false;
  const timer = setInterval(() => void follower.refresh('a regular look'), FOLLOW_EVERY_MS);
  timer.unref();

  async function moveTo(release: RuntimeRelease, why: string): Promise<void> {
    const started = performance.now();
    mkdirSync(filesDir, { recursive: true });
    let fetched = 0;
    let fetchedBytes = 0;
    // A release of an earlier publisher may name its search index: this instance makes its own.
    const files = release.files.filter((file) => file.path !== 'search.sqlite');
    await eachAtMost(8, files, async (file) => {
      const local = join(filesDir, file.digest);
      if (existsSync(local)) return;
      const bytes = await storage.get(runtimeFileKey(file.digest));
      if (!bytes)
        throw new Error(`${file.path} of release ${release.version} is not in the bucket`);
      if (md5Hex(bytes) !== file.digest)
        throw new Error(`${file.path} of release ${release.version} came with other bytes`);
      writeFileSync(`${local}.part`, bytes);
      renameSync(`${local}.part`, local);
      fetched += 1;
      fetchedBytes += bytes.length;
    });
    const releaseDir = join(dir, `release-${release.version}`);
    rmSync(`${releaseDir}.part`, { recursive: true, force: true });
    for (const file of files) {
      const target = join(`${releaseDir}.part`, file.path);
      mkdirSync(dirname(target), { recursive: true });
      linkSync(join(filesDir, file.digest), target);
    }
    const index = await bringSearchIndexUp(release, `${releaseDir}.part`);
    fetched += index.fetched;
    fetchedBytes += index.fetchedBytes;
    rmSync(releaseDir, { recursive: true, force: true });
    renameSync(`${releaseDir}.part`, releaseDir);
    // This instance became the publisher meanwhile: it reads its own builds.
    if (!following()) return;
    const before = current;
    useCompiledContentDir(releaseDir);
    current = release;
    version = release.version;
    waitingFor = '';
    removeOlder(release, before);
    const ms = Math.round(performance.now() - started);
    log(
      `Reading release ${release.version} of the site's content (${why}): ${fetched} files ` +
        `fetched (${(fetchedBytes / 1e6).toFixed(2)} MB), search index: ${index.said}, in ${ms} ms.`,
    );
  }

  /**
   * Brings this instance's search index up to the release's ads (in `releaseDir`, which gets a
   * link to it): from the release's copy of the publisher's when there is no index here yet.
   */
  async function bringSearchIndexUp(release: RuntimeRelease, releaseDir: string) {
    let fetched = 0;
    let fetchedBytes = 0;
    const copy = release.searchIndex;
    mkdirSync(dirname(indexFile), { recursive: true });
    if (!existsSync(indexFile) && copy) {
      if (!(await storage.getFile(runtimeFileKey(copy.digest), indexFile, copy.digest)))
        throw new Error(`the search index of release ${release.version} is not in the bucket`);
      fetched += 1;
      fetchedBytes += copy.size;
    }
    const content = JSON.parse(
      readFileSync(compiledContentFile(releaseDir), 'utf8'),
    ) as CompiledContent;
    const update = writeSearchIndex(releaseDir, content.buildDate, {
      adsIndex: content.activeAds > 0 ? readAdsIndex(releaseDir) : {},
      states: content.states,
      indexFile,
    });
    symlinkSync(indexFile, join(releaseDir, 'search.sqlite'));
    const said =
      `${update.citiesChanged} ${update.citiesChanged === 1 ? 'city' : 'cities'} ` +
      `brought up to date in ${Math.round(update.milliseconds)} ms`;
    return { fetched, fetchedBytes, said };
  }

  /** Keeps this release and the one before; files neither names go. */
  function removeOlder(release: RuntimeRelease, before: RuntimeRelease | undefined): void {
    const kept = new Set([
      `release-${release.version}`,
      `release-${before?.version}`,
      'files',
      'index',
    ]);
    for (const name of readdirSync(dir))
      if (!kept.has(name)) rmSync(join(dir, name), { recursive: true, force: true });
    const named = new Set([release, ...(before ? [before] : [])].flatMap(namedDigests));
    for (const name of readdirSync(filesDir))
      if (!named.has(name)) rmSync(join(filesDir, name), { force: true });
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
          await look(why);
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
