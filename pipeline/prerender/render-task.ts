// Renders the pages of one task, a render group (in whichever thread runs it): builds each page's
// data with its folder's data hook, hashes it,
// and renders and writes the page only when that hash differs from the last build's. Each thread
// appends the page hashes of the tasks it ran to a part file of its own (page-hashes.ts), and
// removes the pages a task had in the last build and no longer has.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { outputFileForPath } from '../../core/paths.ts';
import type { PageAssets } from '../../src/renderer/assets.ts';
import { renderPageHtml } from '../../src/renderer/renderPageHtml.tsx';
import { replaceFile } from '../replace-file.ts';
import { hashOf } from './manifest.ts';
import { pageHashes, PageHashWriter, readPageHashFile, type PageHashFile } from './page-hashes.ts';
import { filesOfGroup, pagesOfGroup, type RenderGroup } from './render-groups.ts';
import { removePage } from './remove-page.ts';

export interface TaskRequest {
  /** Position of the group in the list of all groups (every thread lists them alike). */
  index: number;
  /** The group's key, to check that the thread's list agrees. */
  key: string;
  /** Whether a page whose data hash is the last build's may be left as it is (not in a full build). */
  reuse: boolean;
}

export interface TaskResult {
  index: number;
  /** Pages of the task, by page folder (written or unchanged). */
  pagesByKind: Record<string, number>;
  /** Pages of the task. */
  count: number;
  /** Pages written this time (the rest were unchanged). */
  written: number;
  /** Files of the task that are not pages (city feeds), and how many were written this time. */
  files: number;
  filesWritten: number;
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
  /** The last build's page-hash file, if there was a last build. */
  lastHashFile?: string;
  /**
   * Whether pages are written straight to their files instead of replaced whole: when the site
   * folder has no landing page yet (a first build, or one after a build that stopped half-way),
   * which nothing serves, so nobody can read a page half-written.
   */
  inPlace?: boolean;
}

/** The part file of the page hashes that this thread writes. */
export const partFile = (partsPrefix: string, thread = threadId) => `${partsPrefix}${thread}`;

/**
 * Folders known to exist, so that most pages need a single mkdir (their own folder). Known for one
 * render pass only (runSharedTasks): between two, a build removes the folders of pages gone, and a
 * process may render many passes (the warm publisher, pipeline/publish-worker.ts).
 */
const madeDirs = new Set<string>();

export function runTask(
  { index, key, reuse }: TaskRequest,
  group: RenderGroup,
  { outDir, assets, inPlace = false }: RenderSetting,
  hashes: PageHashWriter,
  last: PageHashFile | undefined,
): TaskResult {
  const result: TaskResult = {
    index,
    pagesByKind: {},
    count: 0,
    written: 0,
    files: 0,
    filesWritten: 0,
    removed: 0,
    indexable: [],
  };
  // What the last build rendered for this task, if it did.
  const previous = last?.lines(key);
  const before = previous === undefined ? undefined : pageHashes(previous);
  if (madeDirs.size > 10_000) madeDirs.clear();
  // Each file replaced whole, as the server may be serving the site while it is published; written
  // in place where nothing serves it yet.
  const write = inPlace ? writeFileSync : replaceFile;
  let lines = '';
  let current = '';
  try {
    if (group.key !== key) throw new Error(`This thread lists ${group.key} where ${key} was asked`);
    for (const { page, path, routeParams } of pagesOfGroup(group)) {
      current = path;
      const data = page.data({ routeParams, urlPathname: path });
      const hash = hashOf(data);
      const file = join(outDir, outputFileForPath(path));
      lines += `${path}\t${hash}\n`;
      result.count += 1;
      result.pagesByKind[page.id] = (result.pagesByKind[page.id] ?? 0) + 1;
      // Whether the page's robots directive lets search engines index it (the sitemap).
      if (data.head.robots.startsWith('index')) result.indexable.push(path);
      const last = before?.get(path);
      before?.delete(path);
      if (reuse && last === hash && existsSync(file)) continue;
      const html = renderPageHtml(page.Page, data, assets);
      makeDir(dirname(file));
      write(file, html);
      result.written += 1;
    }
    // Files beside the pages (a city's feed): hashed by their text, written when it changed.
    for (const { path, text } of filesOfGroup(group)) {
      current = path;
      const content = text();
      const hash = hashOf(content);
      const file = join(outDir, outputFileForPath(path));
      lines += `${path}\t${hash}\n`;
      result.files += 1;
      const last = before?.get(path);
      before?.delete(path);
      if (reuse && last === hash && existsSync(file)) continue;
      makeDir(dirname(file));
      write(file, content);
      result.filesWritten += 1;
    }
    // What is left of the last build's pages, this task no longer has.
    for (const path of before?.keys() ?? []) if (removePage(outDir, path)) result.removed += 1;
    hashes.add(group.key, lines);
  } catch (error) {
    // The machine's refusal (a full disk, a missing permission) is told in one line; anything
    // else is a bug of ours and keeps its stack.
    const systemError = error instanceof Error && 'code' in error && 'syscall' in error;
    const reason =
      error instanceof Error
        ? systemError
          ? error.message
          : (error.stack ?? error.message)
        : String(error);
    result.error = `Rendering ${current} failed: ${reason}`;
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
  groups: readonly RenderGroup[],
  counter: Int32Array,
  setting: RenderSetting,
  /** Called before each task this thread takes (the main thread starts a late worker there). */
  beforeTask: () => void = () => {},
): TaskResult[] {
  const results: TaskResult[] = [];
  madeDirs.clear();
  const hashes = new PageHashWriter(partFile(setting.partsPrefix));
  const last = setting.lastHashFile ? readPageHashFile(setting.lastHashFile) : undefined;
  try {
    for (
      let next = Atomics.add(counter, 0, 1);
      next < requests.length;
      next = Atomics.add(counter, 0, 1)
    ) {
      beforeTask();
      const request = requests[next]!;
      const result = runTask(request, groups[request.index]!, setting, hashes, last);
      results.push(result);
      if (result.error) {
        // The build has failed: no thread takes another task.
        Atomics.store(counter, 0, requests.length);
        break;
      }
    }
  } finally {
    hashes.close();
  }
  return results;
}
