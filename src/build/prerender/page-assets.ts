// The stylesheets and module scripts Vike's production build links to every page. Vike's
// renderPage() is asked once per client build, in a short-lived thread (so Vike's server runtime
// does not stay in memory); the answer is kept in dist/page-assets.json beside the client build's
// stamp, and reused while that stamp is unchanged.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PageAssets } from '../../../renderer/assets.ts';

export const CLIENT_STAMP_FILE = 'client-build-stamp.txt';

export async function pageAssets(viteDir: string): Promise<PageAssets> {
  const stampFile = join(viteDir, CLIENT_STAMP_FILE);
  const cacheFile = join(viteDir, 'page-assets.json');
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : undefined;
  if (stamp && existsSync(cacheFile)) {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as {
      stamp: string;
      assets: PageAssets;
    };
    if (cached.stamp === stamp) return cached.assets;
  }
  const assets = await askVike(viteDir);
  if (stamp) writeFileSync(cacheFile, JSON.stringify({ stamp, assets }));
  return assets;
}

function askVike(viteDir: string): Promise<PageAssets> {
  const serverEntry = pathToFileURL(join(viteDir, 'server', 'entry.mjs')).href;
  const worker = new Worker(new URL('./vike-assets.mjs', import.meta.url), {
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
