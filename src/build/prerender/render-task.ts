// Renders the pages of one task (in whichever thread runs it): builds each page's data, hashes it,
// and renders and writes the page only when that hash differs from the last build's. Each thread
// appends the page hashes of the tasks it ran to a part file of its own (page-hashes.ts), and
// removes the pages a task had in the last build and no longer has.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { outputFileForPath } from '../../paths.ts';
import type { PageAssets } from '../../../renderer/assets.ts';
import { renderPageHtml } from '../../../renderer/renderPageHtml.tsx';
import { hashOf, taskId } from './manifest.ts';
import { pageHashes, PageHashWriter, type PageHashLines } from './page-hashes.ts';
import { pagesOfTask, type PageKind, type RenderTask } from './page-list.ts';
import { removePage } from './remove-page.ts';
import { isIndexable, pageAndData } from './render-job.ts';

export interface TaskRequest {
  /** Position of the task in the list of all tasks. */
  index: number;
  task: RenderTask;
  /** What the last build rendered for this task, if it did (its page-hash lines). */
  previous?: PageHashLines;
  /** Whether a page whose data hash is the last build's may be left as it is (not in a full build). */
  reuse: boolean;
}

export interface TaskResult {
  index: number;
  /** Pages of the task, by kind (written or unchanged). */
  pagesByKind: Partial<Record<PageKind, number>>;
  /** Pages of the task. */
  count: number;
  /** Pages written this time (the rest were unchanged). */
  written: number;
  /** Pages of the last build's task that it no longer has, removed. */
  removed: number;
  /** Paths of the pages that belong in the sitemap, in task order. */
  indexable: string[];
  error?: string;
}

export interface RenderSetting {
  outDir: string;
  assets: PageAssets;
  /** Where each thread writes its part of the page hashes: `{partsPrefix}{threadId}`. */
  partsPrefix: string;
}

/** The part file of the page hashes that this thread writes. */
export const partFile = (partsPrefix: string, thread = threadId) => `${partsPrefix}${thread}`;

/** Folders known to exist, so that most pages need a single mkdir (their own folder). */
const madeDirs = new Set<string>();

export function runTask(
  { index, task, previous, reuse }: TaskRequest,
  { outDir, assets }: RenderSetting,
  hashes: PageHashWriter,
): TaskResult {
  const result: TaskResult = {
    index,
    pagesByKind: {},
    count: 0,
    written: 0,
    removed: 0,
    indexable: [],
  };
  const before = previous === undefined ? undefined : pageHashes(previous);
  if (madeDirs.size > 10_000) madeDirs.clear();
  let lines = '';
  let current = '';
  try {
    for (const job of pagesOfTask(task)) {
      current = job.path;
      const [Page, data] = pageAndData(job);
      const hash = hashOf(data);
      const file = join(outDir, outputFileForPath(job.path));
      lines += `${job.path}\t${hash}\n`;
      result.count += 1;
      result.pagesByKind[job.kind] = (result.pagesByKind[job.kind] ?? 0) + 1;
      if (isIndexable(data)) result.indexable.push(job.path);
      const last = before?.get(job.path);
      before?.delete(job.path);
      if (reuse && last === hash && existsSync(file)) continue;
      const html = renderPageHtml(Page, data, assets);
      makeDir(dirname(file));
      writeFileSync(file, html);
      result.written += 1;
    }
    // What is left of the last build's pages, this task no longer has.
    for (const path of before?.keys() ?? []) if (removePage(outDir, path)) result.removed += 1;
    hashes.add(taskId(task), lines);
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

/**
 * Runs tasks until none is left, taking the next one from a counter shared by all threads
 * (Atomics), so that every thread stays busy to the end without asking anyone for work.
 */
export function runSharedTasks(
  requests: readonly TaskRequest[],
  counter: Int32Array,
  setting: RenderSetting,
): TaskResult[] {
  const results: TaskResult[] = [];
  const hashes = new PageHashWriter(partFile(setting.partsPrefix));
  try {
    for (
      let next = Atomics.add(counter, 0, 1);
      next < requests.length;
      next = Atomics.add(counter, 0, 1)
    ) {
      results.push(runTask(requests[next]!, setting, hashes));
    }
  } finally {
    hashes.close();
  }
  return results;
}
