// Prerenders the site into `outDir` after the content is compiled and Vite has built the client
// assets into `distDir` (scripts/build-steps.ts runs all three). The main thread and one worker
// thread a further core render tasks side by side, each writing a page as soon as it is rendered.
// Incremental unless `full`: the build manifest says what each page was made from; tasks whose
// inputs are unchanged are skipped, and only pages whose data changed are written.
import { existsSync, mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { getSite, useCompiledContentDir } from '../content/index.ts';
import { NOT_FOUND_FILES, outputFileForPath } from '../paths.ts';
import { hashOf, readManifest, taskId, taskSignatures, writeManifest, type BuildManifest, type TaskRecord } from './manifest.ts';
import { pageAssets } from './page-assets.ts';
import { listTasks, taskWeight, type PageKind } from './page-list.ts';
import { runSharedTasks, type RenderSetting, type TaskRequest, type TaskResult } from './render-task.ts';
import { renderNotFound } from './render-job.ts';
import { robotsTxt, sitemapXml } from './site-files.ts';
import type { WorkerInput } from './worker.ts';

export interface PrerenderRequest {
  /** Vite's build (client assets and Vike's server entry). */
  distDir: string;
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
const WORKER_HEAP_MB = 64;

export async function prerender(request: PrerenderRequest): Promise<PrerenderSummary> {
  // React's production build; workers inherit it.
  process.env.NODE_ENV = 'production';
  useCompiledContentDir(request.compiledContentDir);
  const assets = await pageAssets(request.distDir);
  const renderer = hashOf({ assets, sources: request.sources });
  const lastBuild = readManifest(request.manifestFile);
  const previous = request.full || lastBuild?.renderer !== renderer ? undefined : lastBuild;

  const tasks = listTasks();
  const signatures = taskSignatures(tasks);
  const records: TaskRecord[] = new Array(tasks.length);
  const requests: TaskRequest[] = [];
  tasks.forEach((task, index) => {
    const before = previous?.tasks[taskId(task)];
    if (before && signatures[index] !== '' && before.signature === signatures[index]) records[index] = before;
    else requests.push({ index, task, previous: before?.pages });
  });
  const weights = new Map(requests.map((entry) => [entry.index, taskWeight(entry.task)]));
  requests.sort((a, b) => weights.get(b.index)! - weights.get(a.index)!);
  const work = [...weights.values()].reduce((sum, weight) => sum + weight, 0);
  const threads = work < PAGES_WORTH_A_WORKER ? 1 : Math.max(1, Math.min(availableParallelism(), Number(process.env.PRERENDER_THREADS ?? 2)));

  const results = await renderAll({ outDir: request.outDir, assets }, requests, threads, request.compiledContentDir);
  const failures = results.filter((result) => result.error);
  if (failures.length > 0) throw new Error(failures.map((failure) => failure.error).join('\n'));
  for (const result of results) {
    records[result.index] = { signature: signatures[result.index]!, pages: result.pages, indexable: result.indexable };
  }

  const write = (file: string, text: string) => {
    const path = join(request.outDir, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  const removed = removeStalePages(request.outDir, lastBuild, records);
  for (const [kind, file] of Object.entries(NOT_FOUND_FILES)) write(file, renderNotFound(kind as keyof typeof NOT_FOUND_FILES, assets));
  const { baseUrl } = getSite();
  write('sitemap.xml', sitemapXml(baseUrl, records.flatMap((record) => record.indexable)));
  write('robots.txt', robotsTxt(baseUrl));
  const manifest: BuildManifest = { version: 2, renderer, tasks: Object.fromEntries(tasks.map((task, index) => [taskId(task), records[index]!])) };
  writeManifest(request.manifestFile, manifest);

  const pagesByKind: Partial<Record<PageKind, number>> = {};
  for (const result of results) {
    for (const [kind, count] of Object.entries(result.pagesByKind)) pagesByKind[kind as PageKind] = (pagesByKind[kind as PageKind] ?? 0) + count;
  }
  return {
    pages: records.reduce((sum, record) => sum + Object.keys(record.pages).length, 0),
    written: results.reduce((sum, result) => sum + result.written, 0),
    removed,
    threads,
    pagesByKind,
  };
}

/** Renders the tasks, longest first, on this thread and `threads - 1` workers. */
async function renderAll(setting: RenderSetting, requests: TaskRequest[], threads: number, compiledContentDir: string): Promise<TaskResult[]> {
  const counter = new SharedArrayBuffer(4);
  const input: WorkerInput = { ...setting, compiledContentDir, requests, counter };
  const workers = Array.from({ length: threads - 1 }, () => {
    // A small heap makes V8 collect garbage early instead of growing: memory stays flat.
    const worker = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: input, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    return new Promise<TaskResult[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`A prerender worker stopped (exit code ${code}) before it finished`)));
    });
  });
  const mine = runSharedTasks(requests, new Int32Array(counter), setting);
  return [...mine, ...(await Promise.all(workers)).flat()];
}

/** Pages the last build wrote that this one does not have: removed, with the folders they leave empty. */
function removeStalePages(outDir: string, last: BuildManifest | undefined, now: readonly TaskRecord[]): number {
  if (!last) return 0;
  const current = new Set(now.flatMap((record) => Object.keys(record.pages)));
  let count = 0;
  for (const record of Object.values(last.tasks)) {
    for (const path of Object.keys(record.pages)) {
      if (current.has(path)) continue;
      const file = join(outDir, outputFileForPath(path));
      if (!existsSync(file)) continue;
      rmSync(file);
      count += 1;
      for (let dir = dirname(file); dir.startsWith(outDir) && dir !== outDir; dir = dirname(dir)) {
        try {
          rmdirSync(dir);
        } catch {
          break;
        }
      }
    }
  }
  return count;
}
