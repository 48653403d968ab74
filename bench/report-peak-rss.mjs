// Preloaded into each build step by the benchmark (BENCH_RSS_FILE): appends the process's peak
// resident memory, which covers its worker threads, as one JSON line when it exits. Preloads run
// in worker threads too; only the main thread reports.
import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  process.on('exit', () => {
    const line = JSON.stringify({
      step: process.env.BUILD_STEP ?? process.argv[1],
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
    });
    appendFileSync(process.env.BENCH_RSS_FILE, `${line}\n`);
  });
}
