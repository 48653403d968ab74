// A prerender worker thread: renders every n-th page of the list and writes it to disk.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { useContent } from '../content/index.ts';
import type { CompiledContent } from '../schemas/compiled-content.ts';
import { outputFileForPath } from '../paths.ts';
import type { PageAssets } from '../render/assets.ts';
import { listPages, type PageKind } from './page-list.ts';
import { renderJob } from './render-job.ts';

export interface WorkerInput {
  contentFile: string;
  outDir: string;
  assets: PageAssets;
  workerIndex: number;
  workerCount: number;
}

export interface WorkerResult {
  pagesByKind: Partial<Record<PageKind, number>>;
  bytes: number;
  /** Positions in the page list of the pages that belong in the sitemap. */
  indexable: number[];
  error?: string;
}

const input = workerData as WorkerInput;
useContent(JSON.parse(readFileSync(input.contentFile, 'utf8')) as CompiledContent);

const result: WorkerResult = { pagesByKind: {}, bytes: 0, indexable: [] };
const madeDirs = new Set<string>();
const jobs = listPages();
let current = '';
try {
  for (let index = input.workerIndex; index < jobs.length; index += input.workerCount) {
    const job = jobs[index]!;
    current = job.path;
    const { html, indexable } = renderJob(job, input.assets);
    if (indexable) result.indexable.push(index);
    const file = join(input.outDir, outputFileForPath(job.path));
    const dir = dirname(file);
    if (!madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    writeFileSync(file, html);
    result.pagesByKind[job.kind] = (result.pagesByKind[job.kind] ?? 0) + 1;
    result.bytes += Buffer.byteLength(html);
  }
} catch (error) {
  result.error = `Rendering ${current} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}
parentPort?.postMessage(result);
