// Preloaded into each build step by the benchmark (BENCH_RSS_FILE): appends the process's peak
// resident memory, which covers its worker threads, as one JSON line when it exits.
import { appendFileSync } from 'node:fs';

process.on('exit', () => {
  const line = JSON.stringify({ step: process.env.BUILD_STEP ?? process.argv[1], peakRssBytes: process.resourceUsage().maxRSS * 1024 });
  appendFileSync(process.env.BENCH_RSS_FILE, `${line}\n`);
});
