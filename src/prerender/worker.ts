// A prerender worker thread: takes render tasks from the main thread one at a time, renders
// their pages and writes each file as soon as it is rendered. It keeps one state's ads in memory.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { useCompiledContentDir } from '../content/index.ts';
import { outputFileForPath } from '../paths.ts';
import type { PageAssets } from '../render/assets.ts';
import { pagesOfTask, type PageKind, type RenderTask } from './page-list.ts';
import { renderJob } from './render-job.ts';

export interface WorkerInput {
  compiledContentDir: string;
  outDir: string;
  assets: PageAssets;
}

export interface TaskRequest {
  index: number;
  task: RenderTask;
}

export interface TaskResult {
  index: number;
  pagesByKind: Partial<Record<PageKind, number>>;
  bytes: number;
  /** Paths of the pages that belong in the sitemap, in task order. */
  indexable: string[];
  error?: string;
}

const input = workerData as WorkerInput;
useCompiledContentDir(input.compiledContentDir, 1);
const madeDirs = new Set<string>();

function runTask({ index, task }: TaskRequest): TaskResult {
  const result: TaskResult = { index, pagesByKind: {}, bytes: 0, indexable: [] };
  let current = '';
  try {
    for (const job of pagesOfTask(task)) {
      current = job.path;
      const { html, indexable } = renderJob(job, input.assets);
      const file = join(input.outDir, outputFileForPath(job.path));
      const dir = dirname(file);
      if (!madeDirs.has(dir)) {
        mkdirSync(dir, { recursive: true });
        madeDirs.add(dir);
      }
      writeFileSync(file, html);
      if (indexable) result.indexable.push(job.path);
      result.pagesByKind[job.kind] = (result.pagesByKind[job.kind] ?? 0) + 1;
      result.bytes += Buffer.byteLength(html);
    }
  } catch (error) {
    result.error = `Rendering ${current} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  }
  return result;
}

parentPort?.on('message', (request: TaskRequest | 'done') => {
  if (request === 'done') parentPort?.close();
  else parentPort?.postMessage(runTask(request));
});
