// Prerenders the site into `outDir` after the content is compiled and Vite has built the client
// assets (pipeline/build.ts runs the steps). What to render comes from the page registry: each
// page folder's groups of pages (render-groups.ts), one render task a group. The main thread and one
// worker thread on a further core render tasks side by side, each writing a page as soon as it is
// rendered. Incremental unless `full`: the build manifest says what each group was made from; tasks
// whose inputs are unchanged are skipped, and only pages whose data changed are written.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { getSite, useCompiledContentDir } from '../../core/content/index.ts';
import { NOT_FOUND_FILES, webAppManifestPath } from '../../core/paths.ts';
import { webAppManifest } from '../../core/web-app.ts';
import { ErrorPage } from '../../src/pages/registry.ts';
import { notFoundData } from '../../src/pages/_error/errorPageData.ts';
import { renderPageHtml } from '../../src/renderer/renderPageHtml.tsx';
import {
  hashOf,
  pageHashFileOf,
  readManifest,
  writeManifest,
  type BuildManifest,
  type TaskRecord,
} from './manifest.ts';
import { pageAssets } from './page-assets.ts';
import { joinPageHashes, pageHashes, readPageHashFile } from './page-hashes.ts';
import { listRenderGroups, type RenderGroup } from './render-groups.ts';
import { buildStepUrl } from '../build-steps.ts';
import { replaceFile } from '../replace-file.ts';
import { removePage } from './remove-page.ts';
import {
  partFile,
  runSharedTasks,
  type RenderSetting,
  type TaskRequest,
  type TaskResult,
} from './render-task.ts';
import { robotsTxt, SITEMAP_PARTS_FOLDER, sitemapFiles } from './site-files.ts';
import type { WorkerInput } from './worker.ts';
import { startSearchIndexThread } from './new-search-index.ts';
import type { SearchIndexUpdate } from '../../search/write-search-index.ts';

export interface PrerenderRequest {
  /** Vite's build: dist/client and dist/server, or those of another output folder. */
  viteDir: string;
  /** Where the pages go (the site's root folder). */
  outDir: string;
  manifestFile: string;
  compiledContentDir: string;
  /** Fingerprint of the source code: a change means every page is rendered again. */
  sources: string;
  full: boolean;
  /**
   * Build the search index from nothing too, on a thread of its own (the content step left it to
   * this step: new-search-index.ts).
   */
  newSearchIndex?: boolean;
  /** Told as each part ends: the step's timings (step-timings.ts). */
  mark?: (part: string) => void;
}

export interface PrerenderSummary {
  pages: number;
  written: number;
  removed: number;
  /** Files beside the pages (city feeds) looked at, and written this time (their text changed). */
  files: number;
  filesWritten: number;
  threads: number;
  /** Pages looked at, by page folder. */
  pagesByKind: Record<string, number>;
  /** The search index built from nothing (`newSearchIndex`). */
  searchIndex?: SearchIndexUpdate;
}

/** Below this many pages to look at, a second thread costs more than it saves. */
const PAGES_WORTH_A_WORKER = 2_000;
const WORKER_LIMITS = { maxOldGenerationSizeMb: 56, maxYoungGenerationSizeMb: 6 };

export async function prerender(request: PrerenderRequest): Promise<PrerenderSummary> {
  const mark = request.mark ?? (() => {});
  // React picks its build when first imported: the build runs this process with NODE_ENV=production.
  if (process.env.NODE_ENV !== 'production')
    console.warn('Prerendering with NODE_ENV unset: React runs its slower development build.');
  // A city's ads a window at a time: the biggest city's 20 MB of lines are never held whole.
  useCompiledContentDir(request.compiledContentDir, { inWindows: true });
  const assets = await pageAssets(request.viteDir);
  const renderer = hashOf({ assets, sources: request.sources });
  const lastBuild = readManifest(request.manifestFile);
  const hashFile = pageHashFileOf(request.manifestFile);
  const lastHashes = lastBuild && readPageHashFile(hashFile);
  // The landing page is in every build: a site folder without it has no build whole in it.
  const siteBuilt = existsSync(join(request.outDir, 'index.html'));
  // A full build renders every page, but still removes the pages the last build had and this one has
  // not. So does a build whose site folder lost its pages.
  const reuse = !request.full && lastBuild?.renderer === renderer && siteBuilt;
  mark('last build read');

  const groups = listRenderGroups();
  const records: TaskRecord[] = new Array(groups.length);
  const requests: TaskRequest[] = [];
  const skipped: string[] = [];
  groups.forEach((group, index) => {
    const before = lastBuild?.tasks[group.key];
    if (reuse && before && lastHashes && group.inputs !== '' && before.signature === group.inputs) {
      records[index] = before;
      skipped.push(group.key);
    } else {
      requests.push({ index, key: group.key, reuse });
    }
  });
  mark('render groups');
  // The groups whose inputs changed (a publish's: the approved ad's city, its state) before those
  // looked at every time (the site-wide pages), so the ad's page is live as early as can be; each
  // kind longest first.
  const lookedAtEveryTime = (request: TaskRequest) =>
    groups[request.index]!.inputs === '' ? 1 : 0;
  requests.sort(
    (a, b) =>
      lookedAtEveryTime(a) - lookedAtEveryTime(b) ||
      groups[b.index]!.weight - groups[a.index]!.weight,
  );
  const work = requests.reduce((sum, entry) => sum + groups[entry.index]!.weight, 0);
  const threads =
    work < PAGES_WORTH_A_WORKER
      ? 1
      : Math.max(1, Math.min(availableParallelism(), Number(process.env.PRERENDER_THREADS ?? 2)));

  mkdirSync(dirname(hashFile), { recursive: true });
  const setting: RenderSetting = {
    outDir: request.outDir,
    assets,
    partsPrefix: `${hashFile}.part-`,
    // Each thread reads a task's lines of the last build when it runs the task: at a million
    // pages, all of them at once would be hundreds of MB.
    ...(lastHashes ? { lastHashFile: hashFile } : {}),
    // Nothing serves a site folder without a build in it: its pages need not be replaced whole.
    inPlace: !siteBuilt,
  };
  const { results, parts, searchIndex } = await renderAll(setting, requests, groups, threads, {
    compiledContentDir: request.compiledContentDir,
    newSearchIndex: request.newSearchIndex ?? false,
  });
  // Back to reading a city whole, as every other reader of this process does (the warm publisher
  // compiles the next publish's content here: files replaced under a window's offsets).
  useCompiledContentDir(request.compiledContentDir);
  mark('pages rendered');
  const failures = results.filter((result) => result.error);
  if (failures.length > 0) {
    // Threads stop taking tasks at the first failure; a few are enough to see what went wrong.
    const shown = failures.slice(0, 3).map((failure) => failure.error);
    if (failures.length > 3) shown.push(`… and ${failures.length - 3} more tasks failed`);
    throw new Error(shown.join('\n'));
  }
  for (const result of results) {
    records[result.index] = {
      signature: groups[result.index]!.inputs,
      count: result.count,
      indexable: result.indexable,
    };
  }
  const removed =
    results.reduce((sum, result) => sum + result.removed, 0) +
    removeGoneTasks(request.outDir, lastHashes, new Set(groups.map((group) => group.key)));
  joinPageHashes(hashFile, lastHashes, skipped, parts);

  // Each file replaced whole: the server may be serving the site while it is published.
  const write = (file: string, text: string) => {
    const path = join(request.outDir, file);
    mkdirSync(dirname(path), { recursive: true });
    replaceFile(path, text);
  };
  for (const [kind, file] of Object.entries(NOT_FOUND_FILES))
    write(
      file,
      renderPageHtml(ErrorPage, notFoundData(kind as keyof typeof NOT_FOUND_FILES), assets),
    );
  const { baseUrl } = getSite();
  const indexable = records.flatMap((record) => record.indexable);
  const sitemap = sitemapFiles(baseUrl, indexable);
  for (const [file, text] of sitemap) write(file, text);
  // A sitemap split into more parts last time: the parts it no longer has go, once the index
  // that named them is replaced.
  removeOtherFiles(
    join(request.outDir, SITEMAP_PARTS_FOLDER),
    new Set(sitemap.map(([file]) => file)),
  );
  write('robots.txt', robotsTxt(baseUrl));
  // The web app's manifest, named by the brand (core/web-app.ts); its icons are public/'s files.
  write(webAppManifestPath().slice(1), `${JSON.stringify(webAppManifest(getSite()), null, 2)}\n`);
  const manifest: BuildManifest = {
    version: 5,
    renderer,
    tasks: Object.fromEntries(groups.map((group, index) => [group.key, records[index]!])),
  };
  writeManifest(request.manifestFile, manifest);
  mark('page hashes, sitemaps, manifest');

  const pagesByKind: Record<string, number> = {};
  for (const result of results) {
    for (const [kind, count] of Object.entries(result.pagesByKind))
      pagesByKind[kind] = (pagesByKind[kind] ?? 0) + count;
  }
  return {
    pages: records.reduce((sum, record) => sum + record.count, 0),
    written: results.reduce((sum, result) => sum + result.written, 0),
    files: results.reduce((sum, result) => sum + result.files, 0),
    filesWritten: results.reduce((sum, result) => sum + result.filesWritten, 0),
    removed,
    threads,
    pagesByKind,
    ...(searchIndex ? { searchIndex } : {}),
  };
}

/**
 * Renders the tasks, longest first, on this thread and `threads - 1` workers. A new search index
 * is built on a thread of its own first, in the first worker's place: that worker starts, from
 * between two of this thread's tasks, once the index is done.
 */
async function renderAll(
  setting: RenderSetting,
  requests: TaskRequest[],
  groups: readonly RenderGroup[],
  threads: number,
  { compiledContentDir, newSearchIndex }: { compiledContentDir: string; newSearchIndex: boolean },
): Promise<{ results: TaskResult[]; parts: string[]; searchIndex?: SearchIndexUpdate }> {
  const counter = new SharedArrayBuffer(4);
  const input: WorkerInput = { ...setting, compiledContentDir, requests, counter };
  const parts = [partFile(setting.partsPrefix)];
  const workers: Promise<TaskResult[]>[] = [];
  const startWorker = () => {
    // Small heaps make V8 collect garbage early instead of growing: memory stays flat.
    const worker = new Worker(buildStepUrl('prerender-worker'), {
      workerData: input,
      resourceLimits: WORKER_LIMITS,
    });
    parts.push(partFile(setting.partsPrefix, worker.threadId));
    workers.push(
      new Promise<TaskResult[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) =>
          reject(new Error(`A prerender worker stopped (exit code ${code}) before it finished`)),
        );
      }),
    );
  };
  const index = newSearchIndex ? startSearchIndexThread(compiledContentDir) : undefined;
  let late = index && threads > 1 ? 1 : 0;
  for (let started = late; started < threads - 1; started += 1) startWorker();
  const mine = runSharedTasks(requests, groups, new Int32Array(counter), setting, () => {
    if (late > 0 && index!.isDone()) {
      late = 0;
      startWorker();
    }
  });
  // Both awaited at once: a failure of either is handled, never left unhandled meanwhile.
  const [theirs, searchIndex] = await Promise.all([Promise.all(workers), index?.update]);
  return {
    results: [...mine, ...theirs.flat()],
    parts,
    ...(searchIndex ? { searchIndex } : {}),
  };
}

/** Removes the files of `folder` (under the site) that are not in `kept` (paths under the site), and the folder when empty. */
function removeOtherFiles(folder: string, kept: ReadonlySet<string>): void {
  if (!existsSync(folder)) return;
  for (const name of readdirSync(folder)) {
    if (!kept.has(`${basename(folder)}/${name}`)) rmSync(join(folder, name), { force: true });
  }
  if (readdirSync(folder).length === 0) rmSync(folder, { recursive: true, force: true });
}

/** Removes the pages of the last build's tasks that are gone (a city taken off its state's list). */
function removeGoneTasks(
  outDir: string,
  last: ReturnType<typeof readPageHashFile>,
  now: ReadonlySet<string>,
): number {
  let count = 0;
  for (const id of last?.taskIds() ?? []) {
    if (now.has(id)) continue;
    for (const path of pageHashes(last!.lines(id)!).keys())
      if (removePage(outDir, path)) count += 1;
  }
  return count;
}
