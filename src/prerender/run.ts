// Prerenders the whole site into {dist}/client (dist/ by default) with one worker thread a core.
// Run after `vite build` (scripts/build.ts does both): Vike builds the client assets into {dist},
// and its renderPage() tells us which stylesheets and scripts a page links to.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { compiledContentDir, getSite } from '../content/index.ts';
import { NOT_FOUND_FILES } from '../paths.ts';
import type { PageAssets } from '../render/assets.ts';
import { listTasks, taskWeight, type PageKind } from './page-list.ts';
import { renderNotFound } from './render-job.ts';
import { robotsTxt, sitemapXml } from './site-files.ts';
import type { TaskRequest, TaskResult, WorkerInput } from './worker.ts';

process.env.NODE_ENV = 'production';
const started = performance.now();
const distDir = resolve(argValue('--dist') ?? 'dist');
const outDir = join(distDir, 'client');

const assets = await assetsFromVike();
const tasks = listTasks();
const workerCount = Math.max(1, Math.min(availableParallelism(), Number(process.env.PRERENDER_WORKERS ?? 4)));
const results = await renderAll({ compiledContentDir: resolve(compiledContentDir()), outDir, assets });
const failures = results.filter((result) => result.error);
if (failures.length > 0) {
  for (const failure of failures) console.error(failure.error);
  process.exit(1);
}

for (const [kind, file] of Object.entries(NOT_FOUND_FILES)) {
  writeOutput(file, renderNotFound(kind as keyof typeof NOT_FOUND_FILES, assets));
}
const { baseUrl } = getSite();
writeOutput('sitemap.xml', sitemapXml(baseUrl, results.flatMap((result) => result.indexable)));
writeOutput('robots.txt', robotsTxt(baseUrl));

const pagesByKind: Partial<Record<PageKind, number>> = {};
for (const result of results) {
  for (const [kind, count] of Object.entries(result.pagesByKind)) {
    pagesByKind[kind as PageKind] = (pagesByKind[kind as PageKind] ?? 0) + count;
  }
}
const total = Object.values(pagesByKind).reduce((sum, count) => sum + count, 0);
const seconds = (performance.now() - started) / 1000;
console.log(
  `Prerendered ${total} pages in ${seconds.toFixed(1)} s (${Math.round(total / seconds)} pages/s, ${workerCount} workers): ` +
    Object.entries(pagesByKind).map(([kind, count]) => `${kind} ${count}`).join(', '),
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

/** Hands tasks to the workers, longest first, as each becomes free; results in task order. */
function renderAll(input: WorkerInput): Promise<TaskResult[]> {
  const queue = tasks.map((task, index): TaskRequest => ({ index, task })).sort((a, b) => taskWeight(b.task) - taskWeight(a.task));
  const results: TaskResult[] = new Array(tasks.length);
  return new Promise((resolvePromise, reject) => {
    let running = workerCount;
    for (let n = 0; n < workerCount; n += 1) {
      const worker = new Worker(new URL('./worker-bootstrap.mjs', import.meta.url), { workerData: input });
      const next = () => {
        const request = queue.shift();
        worker.postMessage(request ?? 'done');
      };
      worker.on('message', (result: TaskResult) => {
        results[result.index] = result;
        next();
      });
      worker.once('error', reject);
      worker.once('exit', (code) => {
        if (code !== 0) return reject(new Error(`A prerender worker exited with code ${code}`));
        running -= 1;
        if (running === 0) resolvePromise(results);
      });
      next();
    }
  });
}

/** The stylesheets and module scripts Vike's production build links to every page. */
async function assetsFromVike(): Promise<PageAssets> {
  await import(pathToFileURL(join(distDir, 'server', 'entry.mjs')).href);
  const { renderPage } = await import('vike/server');
  const { httpResponse } = await renderPage({ urlOriginal: '/about' });
  const html = httpResponse?.body ?? '';
  if (httpResponse?.statusCode !== 200) throw new Error(`Vike could not render /about for its asset list (status ${httpResponse?.statusCode})`);
  return {
    stylesheets: [...html.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((match) => match[1]!),
    scripts: [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]!),
  };
}
