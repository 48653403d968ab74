// A prerender worker thread: takes render tasks from the main thread one at a time, renders
// their pages and writes each file as soon as it is rendered. It keeps one state's ads in memory.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { useCompiledContentDir } from '../content/index.ts';
import { outputFileForPath } from '../paths.ts';
import type { PageAssets } from '../render/assets.ts';
import { hashOf } from './manifest.ts';
import { pagesOfTask, type PageKind, type RenderTask } from './page-list.ts';
import { isIndexable, pageAndData } from './render-job.ts';
import { renderPageHtml } from '../render/renderPageHtml.tsx';

export interface WorkerInput {
  compiledContentDir: string;
  outDir: string;
  assets: PageAssets;
}

export interface TaskRequest {
  index: number;
  task: RenderTask;
  /** What the last build rendered for this task (path → data hash); absent for a full build. */
  previous?: Record<string, string>;
}

export interface TaskResult {
  index: number;
  /** Pages of the task, by kind (written or unchanged). */
  pagesByKind: Partial<Record<PageKind, number>>;
  /** Pages written this time (the rest were unchanged). */
  written: number;
  /** Page path → hash of the data it was rendered from. */
  pages: Record<string, string>;
  /** Paths of the pages that belong in the sitemap, in task order. */
  indexable: string[];
  error?: string;
}

const input = workerData as WorkerInput;
useCompiledContentDir(input.compiledContentDir, 1);
const madeDirs = new Set<string>();

function runTask({ index, task, previous }: TaskRequest): TaskResult {
  madeDirs.clear();
  const result: TaskResult = { index, pagesByKind: {}, written: 0, pages: {}, indexable: [] };
  let current = '';
  try {
    for (const job of pagesOfTask(task)) {
      current = job.path;
      const [Page, data] = pageAndData(job);
      const hash = hashOf(data);
      const file = join(input.outDir, outputFileForPath(job.path));
      result.pages[job.path] = hash;
      result.pagesByKind[job.kind] = (result.pagesByKind[job.kind] ?? 0) + 1;
      if (isIndexable(data)) result.indexable.push(job.path);
      if (previous?.[job.path] === hash && existsSync(file)) continue;
      const html = renderPageHtml(Page, data, input.assets);
      makeDir(dirname(file));
      writeFileSync(file, html);
      result.written += 1;
    }
  } catch (error) {
    result.error = `Rendering ${current} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  }
  return result;
}

/** Creates a page's folder; a plain mkdir when its parent is known to exist (most ad pages). */
function makeDir(dir: string) {
  if (madeDirs.has(dir)) return;
  if (madeDirs.has(dirname(dir))) {
    try {
      mkdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  } else {
    mkdirSync(dir, { recursive: true });
  }
  madeDirs.add(dir);
}

parentPort?.on('message', (request: TaskRequest | 'done') => {
  if (request === 'done') parentPort?.close();
  else parentPort?.postMessage(runTask(request));
});
