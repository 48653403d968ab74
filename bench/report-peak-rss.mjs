// Preloaded into each build step by the benchmark (BENCH_RSS_FILE), and into the digest child of
// bench/digest.ts: appends the process's peak resident memory, which covers its worker threads, and
// its CPU time, as one JSON line when it exits. Preloads run in worker threads too; only the main
// thread reports.
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const line = JSON.stringify({
      step: process.env.BUILD_STEP ?? process.argv[1],
      peakRssBytes: usage.maxRSS * 1024,
      userCpuMs: usage.userCPUTime / 1000,
      systemCpuMs: usage.systemCPUTime / 1000,
    });
    appendFileSync(process.env.BENCH_RSS_FILE, `${line}\n`);
  });
}
