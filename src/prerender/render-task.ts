// Renders the pages of one task (in whichever thread runs it): builds each page's data, hashes it,
// and renders and writes the page only when that hash differs from the last build's.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { outputFileForPath } from '../paths.ts';
import type { PageAssets } from '../render/assets.ts';
import { renderPageHtml } from '../render/renderPageHtml.tsx';
import { hashOf, pageHashes } from './manifest.ts';
import { pagesOfTask, type PageKind, type RenderTask } from './page-list.ts';
import { isIndexable, pageAndData } from './render-job.ts';

export interface TaskRequest {
  /** Position of the task in the list of all tasks. */
  index: number;
  task: RenderTask;
  /** What the last build rendered for this task (`path<TAB>hash` lines, see manifest.ts); absent for a full build. */
  previous?: string;
}

export interface TaskResult {
  index: number;
  /** Pages of the task, by kind (written or unchanged). */
  pagesByKind: Partial<Record<PageKind, number>>;
  /** Pages written this time (the rest were unchanged). */
  written: number;
  /** Each page's `path<TAB>hash`: the hash of the data it was rendered from. */
  pages: string[];
  /** Paths of the pages that belong in the sitemap, in task order. */
  indexable: string[];
  error?: string;
}

export interface RenderSetting {
  outDir: string;
  assets: PageAssets;
}

/** Folders known to exist, so that most pages need a single mkdir (their own folder). */
const madeDirs = new Set<string>();

export function runTask({ index, task, previous }: TaskRequest, { outDir, assets }: RenderSetting): TaskResult {
  const result: TaskResult = { index, pagesByKind: {}, written: 0, pages: [], indexable: [] };
  const before = previous === undefined ? undefined : pageHashes(previous);
  if (madeDirs.size > 10_000) madeDirs.clear();
  let current = '';
  try {
    for (const job of pagesOfTask(task)) {
      current = job.path;
      const [Page, data] = pageAndData(job);
      const hash = hashOf(data);
      const file = join(outDir, outputFileForPath(job.path));
      result.pages.push(`${job.path}\t${hash}`);
      result.pagesByKind[job.kind] = (result.pagesByKind[job.kind] ?? 0) + 1;
      if (isIndexable(data)) result.indexable.push(job.path);
      if (before?.get(job.path) === hash && existsSync(file)) continue;
      const html = renderPageHtml(Page, data, assets);
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

/**
 * Runs tasks until none is left, taking the next one from a counter shared by all threads
 * (Atomics), so that every thread stays busy to the end without asking anyone for work.
 */
export function runSharedTasks(requests: readonly TaskRequest[], counter: Int32Array, setting: RenderSetting): TaskResult[] {
  const results: TaskResult[] = [];
  for (let next = Atomics.add(counter, 0, 1); next < requests.length; next = Atomics.add(counter, 0, 1)) {
    results.push(runTask(requests[next]!, setting));
  }
  return results;
}
