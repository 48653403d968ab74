// Prerenders the site into --out (default dist/client) with one worker thread a core. Run after
// `vite build` (scripts/build.ts does both): Vike builds the client assets into --dist (default
// dist/), and its renderPage() tells us which stylesheets and scripts a page links to.
// Incremental unless --full: the build manifest (--manifest, default next to --out) says what each
// page was made from; unchanged states are skipped, and only pages whose data changed are written.
import { existsSync, mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { compiledContentDir, getAdCounts, getSite, getStateAdFileSignatures } from '../content/index.ts';
import { NOT_FOUND_FILES, outputFileForPath } from '../paths.ts';
import type { PageAssets } from '../render/assets.ts';
import { hashOf, readManifest, taskId, taskSignature, writeManifest, type BuildManifest, type TaskRecord } from './manifest.ts';
import { listTasks, taskWeight, type PageKind } from './page-list.ts';
import { renderNotFound } from './render-job.ts';
import { robotsTxt, sitemapXml } from './site-files.ts';
import type { TaskRequest, TaskResult, WorkerInput } from './worker.ts';

// React's production build; set before any worker starts, and workers inherit it.
process.env.NODE_ENV = 'production';
const started = performance.now();
const distDir = resolve(argValue('--dist') ?? 'dist');
const outDir = resolve(argValue('--out') ?? join(distDir, 'client'));
const manifestFile = resolve(argValue('--manifest') ?? join(dirname(outDir), 'build-manifest.json'));
const contentDir = resolve(compiledContentDir());

const assets = await assetsFromVike();
const renderer = hashOf({ assets, sources: process.env.LOCALBOARD_SOURCES ?? '' });
const lastBuild = readManifest(manifestFile);
const previous = process.argv.includes('--full') || lastBuild?.renderer !== renderer ? undefined : lastBuild;
const adCounts = getAdCounts();
const stateAdFiles = getStateAdFileSignatures();

const tasks = listTasks();
const signatures = tasks.map((task) => taskSignature(task, adCounts, stateAdFiles));
const records: TaskRecord[] = new Array(tasks.length);
const requests: TaskRequest[] = [];
tasks.forEach((task, index) => {
  const signature = signatures[index]!;
  const before = previous?.tasks[taskId(task)];
  if (before && signature !== '' && before.signature === signature) records[index] = before;
  else requests.push({ index, task, previous: before?.pages });
});

const WORKER_HEAP_MB = 64;
// Bundled (.prerender/run.mjs, what the build runs) the worker is worker.mjs; run from source
// with tsx, the bootstrap registers tsx in the worker first.
const WORKER_URL = import.meta.url.endsWith('.ts') ? new URL('./worker-bootstrap.mjs', import.meta.url) : new URL('./worker.mjs', import.meta.url);
const workerCount = Math.max(1, Math.min(availableParallelism(), requests.length, Number(process.env.PRERENDER_WORKERS ?? 4)));
const results = await renderAll({ compiledContentDir: contentDir, outDir, assets }, requests);
const failures = results.filter((result) => result.error);
if (failures.length > 0) {
  for (const failure of failures) console.error(failure.error);
  process.exit(1);
}
for (const result of results) {
  records[result.index] = { signature: signatures[result.index]!, pages: result.pages, indexable: result.indexable };
}

const removed = removeStalePages(lastBuild, records);
for (const [kind, file] of Object.entries(NOT_FOUND_FILES)) {
  writeOutput(file, renderNotFound(kind as keyof typeof NOT_FOUND_FILES, assets));
}
const { baseUrl } = getSite();
writeOutput('sitemap.xml', sitemapXml(baseUrl, records.flatMap((record) => record.indexable)));
writeOutput('robots.txt', robotsTxt(baseUrl));
writeManifest(manifestFile, { version: 1, renderer, tasks: Object.fromEntries(tasks.map((task, index) => [taskId(task), records[index]!])) } satisfies BuildManifest);

const total = records.reduce((sum, record) => sum + Object.keys(record.pages).length, 0);
const written = results.reduce((sum, result) => sum + result.written, 0);
const pagesByKind: Partial<Record<PageKind, number>> = {};
for (const result of results) {
  for (const [kind, count] of Object.entries(result.pagesByKind)) pagesByKind[kind as PageKind] = (pagesByKind[kind as PageKind] ?? 0) + count;
}
const seconds = (performance.now() - started) / 1000;
console.log(
  `Prerendered ${total} pages in ${seconds.toFixed(1)} s (${Math.round(total / seconds)} pages/s, ${workerCount} workers): ` +
    `${written} written, ${total - written} unchanged, ${removed} removed; looked at ` +
    (Object.entries(pagesByKind).map(([kind, count]) => `${kind} ${count}`).join(', ') || 'nothing'),
);

function argValue(flag: string): string | undefined {
  const index = process.argv.indexOf(flag);
  return index === -1 ? undefined : process.argv[index + 1];
}

function writeOutput(file: string, text: string) {
  const path = join(outDir, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Pages the last build wrote that this one does not have: removed, with the folders they leave empty. */
function removeStalePages(last: BuildManifest | undefined, now: readonly TaskRecord[]): number {
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

/** Hands tasks to the workers, longest first, as each becomes free. */
function renderAll(input: WorkerInput, queued: TaskRequest[]): Promise<TaskResult[]> {
  const queue = [...queued].sort((a, b) => taskWeight(b.task) - taskWeight(a.task));
  const done: TaskResult[] = [];
  if (queue.length === 0) return Promise.resolve(done);
  return new Promise((resolvePromise, reject) => {
    let running = workerCount;
    for (let n = 0; n < workerCount; n += 1) {
      // A small heap makes V8 collect garbage early instead of growing: memory stays flat.
      const worker = new Worker(WORKER_URL, {
        workerData: input,
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      });
      const next = () => worker.postMessage(queue.shift() ?? 'done');
      worker.on('message', (result: TaskResult) => {
        done.push(result);
        next();
      });
      worker.once('error', reject);
      worker.once('exit', (code) => {
        if (code !== 0) return reject(new Error(`A prerender worker exited with code ${code}`));
        running -= 1;
        if (running === 0) resolvePromise(done);
      });
      next();
    }
  });
}

/**
 * The stylesheets and module scripts Vike's production build links to every page, asked of
 * Vike's renderPage() in a short-lived thread, so Vike's server runtime does not stay in memory.
 */
function assetsFromVike(): Promise<PageAssets> {
  const worker = new Worker(new URL('./vike-assets.mjs', import.meta.url), { workerData: { serverEntry: pathToFileURL(join(distDir, 'server', 'entry.mjs')).href } });
  return new Promise((resolvePromise, reject) => {
    worker.once('message', (answer: PageAssets | { error: string }) => {
      void worker.terminate();
      if ('error' in answer) reject(new Error(answer.error));
      else resolvePromise(answer);
    });
    worker.once('error', reject);
  });
}

