// The worker thread of check-ads-in-parallel.ts: checks the batches it takes into the batch cache,
// beside the main thread.
import { workerData } from 'node:worker_threads';
import { adBatchCache, batchOfJob } from './ad-batch-cache.ts';
import { takeJobs, type AdCheckWorkerInput } from './check-ads-in-parallel.ts';

const { compiledDir, jobs, context, shared } = workerData as AdCheckWorkerInput;
const cache = adBatchCache(compiledDir);
takeJobs(jobs, new Int32Array(shared), (job) =>
  cache.checkAndKeep(job.key, batchOfJob(job), context),
);
