// The worker thread of check-ads-in-parallel.ts: summarises the files it takes into the ad-file
// cache, beside the main thread.
import { workerData } from 'node:worker_threads';
import { adFileCache } from './ad-file-cache.ts';
import { takeFiles, type AdCheckWorkerInput } from './check-ads-in-parallel.ts';

const { compiledDir, files, context, shared } = workerData as AdCheckWorkerInput;
const cache = adFileCache(compiledDir);
takeFiles(files, new Int32Array(shared), (entry) =>
  cache.summarise(entry.file, entry.path, context),
);
