// The stylesheets and module scripts Vike's production build links to every page. Vike's
// renderPage() is asked once per Vite build, in a short-lived thread (so Vike's server runtime
// does not stay in memory); the answer is kept in {out}/server/page-assets.json, which the next
// Vite build empties away.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PageAssets } from '../../src/renderer/assets.ts';
import { buildStepUrl } from '../build-steps.ts';

export async function pageAssets(viteDir: string): Promise<PageAssets> {
  const cacheFile = join(viteDir, 'server', 'page-assets.json');
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8')) as PageAssets;
  const assets = await askVike(viteDir);
  writeFileSync(cacheFile, JSON.stringify(assets));
  return assets;
}

function askVike(viteDir: string): Promise<PageAssets> {
  const serverEntry = pathToFileURL(join(viteDir, 'server', 'entry.mjs')).href;
  const worker = new Worker(buildStepUrl('vike-assets'), {
    workerData: { serverEntry },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', (answer: PageAssets | { error: string }) => {
      void worker.terminate();
      if ('error' in answer) reject(new Error(answer.error));
      else resolve(answer);
    });
    worker.once('error', reject);
  });
}
