// Prerenders the site into `outDir` after the content is compiled and Vite has built the client
// assets into `viteDir` (src/build/build.ts runs the three steps). The main thread and one worker
// thread a further core render tasks side by side, each writing a page as soon as it is rendered.
// Incremental unless `full`: the build manifest says what each page was made from; tasks whose
// inputs are unchanged are skipped, and only pages whose data changed are written.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { getSite, useCompiledContentDir } from '../../content/index.ts';
import { NOT_FOUND_FILES } from '../../paths.ts';
import {
  hashOf,
  pageHashFileOf,
  readManifest,
  taskId,
  taskSignatures,
  writeManifest,
  type BuildManifest,
  type TaskRecord,
} from './manifest.ts';
import { pageAssets } from './page-assets.ts';
import { joinPageHashes, pageHashes, readPageHashFile } from './page-hashes.ts';
import { listTasks, taskWeight, type PageKind } from './page-list.ts';
import { removePage } from './remove-page.ts';
import {
  partFile,
  runSharedTasks,
  type RenderSetting,
  type TaskRequest,
  type TaskResult,
} from './render-task.ts';
import { renderNotFound } from './render-job.ts';
import { robotsTxt, sitemapXml } from './site-files.ts';
import type { WorkerInput } from './worker.ts';

export interface PrerenderRequest {
  /** Vite's build (client assets and Vike's server entry). */
  viteDir: string;
  /** Where the pages go (the site's root folder). */
  outDir: string;
  manifestFile: string;
  compiledContentDir: string;
  /** Fingerprint of the source code: a change means every page is rendered again. */
  sources: string;
  full: boolean;
}

export interface PrerenderSummary {
  pages: number;
  written: number;
  removed: number;
  threads: number;
  pagesByKind: Partial<Record<PageKind, number>>;
}

/** Below this many pages to look at, a second thread costs more than it saves. */
const PAGES_WORTH_A_WORKER = 2_000;
const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 6 };

export async function prerender(request: PrerenderRequest): Promise<PrerenderSummary> {
  // React picks its build when first imported: the build runs this process with NODE_ENV=production.
  if (process.env.NODE_ENV !== 'production')
    console.warn('Prerendering with NODE_ENV unset: React runs its slower development build.');
  useCompiledContentDir(request.compiledContentDir);
  const assets = await pageAssets(request.viteDir);
  const renderer = hashOf({ assets, sources: request.sources });
  const lastBuild = readManifest(request.manifestFile);
  const hashFile = pageHashFileOf(request.manifestFile);
  const lastHashes = lastBuild && readPageHashFile(hashFile);
  // A full build renders every page, but still removes the pages the last build had and this one has
  // not. So does a build whose site folder lost its pages (the landing page is in every build).
  const reuse =
    !request.full &&
    lastBuild?.renderer === renderer &&
    existsSync(join(request.outDir, 'index.html'));

  const tasks = listTasks();
  const signatures = taskSignatures(tasks);
  const records: TaskRecord[] = new Array(tasks.length);
  const requests: TaskRequest[] = [];
  const skipped: string[] = [];
  tasks.forEach((task, index) => {
    const id = taskId(task);
    const before = lastBuild?.tasks[id];
    if (
      reuse &&
      before &&
      lastHashes &&
      signatures[index] !== '' &&
      before.signature === signatures[index]
    ) {
      records[index] = before;
      skipped.push(id);
    } else {
      requests.push({ index, task, previous: lastHashes?.lines(id), reuse });
    }
  });
  const weights = new Map(requests.map((entry) => [entry.index, taskWeight(entry.task)]));
  requests.sort((a, b) => weights.get(b.index)! - weights.get(a.index)!);
  const work = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  const threads =
    work < PAGES_WORTH_A_WORKER
      ? 1
      : Math.max(1, Math.min(availableParallelism(), Number(process.env.PRERENDER_THREADS ?? 2)));

  mkdirSync(dirname(hashFile), { recursive: true });
  const setting: RenderSetting = {
    outDir: request.outDir,
    assets,
    partsPrefix: `${hashFile}.part-`,
  };
  const { results, parts } = await renderAll(
    setting,
    requests,
    threads,
    request.compiledContentDir,
  );
  const failures = results.filter((result) => result.error);
  if (failures.length > 0) throw new Error(failures.map((failure) => failure.error).join('\n'));
  for (const result of results) {
    records[result.index] = {
      signature: signatures[result.index]!,
      count: result.count,
      indexable: result.indexable,
    };
  }
  const removed =
    results.reduce((sum, result) => sum + result.removed, 0) +
    removeGoneTasks(request.outDir, lastHashes, new Set(tasks.map(taskId)));
  joinPageHashes(hashFile, lastHashes, skipped, parts);

  const write = (file: string, text: string) => {
    const path = join(request.outDir, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  for (const [kind, file] of Object.entries(NOT_FOUND_FILES))
    write(file, renderNotFound(kind as keyof typeof NOT_FOUND_FILES, assets));
  const { baseUrl } = getSite();
  write(
    'sitemap.xml',
    sitemapXml(
      baseUrl,
      records.flatMap((record) => record.indexable),
    ),
  );
  write('robots.txt', robotsTxt(baseUrl));
  const manifest: BuildManifest = {
    version: 4,
    renderer,
    tasks: Object.fromEntries(tasks.map((task, index) => [taskId(task), records[index]!])),
  };
  writeManifest(request.manifestFile, manifest);

  const pagesByKind: Partial<Record<PageKind, number>> = {};
  for (const result of results) {
    for (const [kind, count] of Object.entries(result.pagesByKind))
      pagesByKind[kind as PageKind] = (pagesByKind[kind as PageKind] ?? 0) + count;
  }
  return {
    pages: records.reduce((sum, record) => sum + record.count, 0),
    written: results.reduce((sum, result) => sum + result.written, 0),
    removed,
    threads,
    pagesByKind,
  };
}

/** Renders the tasks, longest first, on this thread and `threads - 1` workers. */
async function renderAll(
  setting: RenderSetting,
  requests: TaskRequest[],
  threads: number,
  compiledContentDir: string,
): Promise<{ results: TaskResult[]; parts: string[] }> {
  const counter = new SharedArrayBuffer(4);
  const input: WorkerInput = { ...setting, compiledContentDir, requests, counter };
  const parts = [partFile(setting.partsPrefix)];
  const workers = Array.from({ length: threads - 1 }, () => {
    // Small heaps make V8 collect garbage early instead of growing: memory stays flat.
    const worker = new Worker(new URL('./worker.mjs', import.meta.url), {
      workerData: input,
      resourceLimits: WORKER_LIMITS,
    });
    parts.push(partFile(setting.partsPrefix, worker.threadId));
    return new Promise<TaskResult[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`A prerender worker stopped (exit code ${code}) before it finished`)),
      );
    });
  });
  const mine = runSharedTasks(requests, new Int32Array(counter), setting);
  return { results: [...mine, ...(await Promise.all(workers)).flat()], parts };
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
