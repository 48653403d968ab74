// Feeds under polling (`npm run bench:server -- --only feeds`; docs/product.md section 11): on the
// real server as built (dist/server/serve.mjs), 50 keep-alive readers fetch a city feed (a file
// of the site) and a search feed (rendered from the search index on each request), each first
// without and then with If-None-Match (answered 304), and the city page for comparison. The
// phases of a run share one server and one moment of the machine, so their ratios are what to
// read: the machine is shared. Writes docs/benchmarks.md (## Feeds).
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDocSection } from './docs.ts';
import { stopServer } from './server-process.ts';
import {
  ACCEPT_ENCODING,
  HOST,
  ms,
  readers,
  startServer,
  summarise,
  thousands,
  type PhaseResult,
  type ServerBenchOptions,
} from './server.ts';

const root = join(import.meta.dirname, '..');
const SEARCH_FEED = '/search/feed.xml?state=California&seeks=w4m';

/** The ETag the server gives a path now. */
function etagOf(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: HOST, port, path, headers: { 'accept-encoding': ACCEPT_ENCODING } },
      (res) => {
        res.resume();
        const etag = res.headers.etag;
        if (res.statusCode !== 200 || !etag)
          reject(new Error(`${path} answered ${res.statusCode} without an ETag`));
        else resolve(etag);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function runOnce(options: ServerBenchOptions, city: string): Promise<PhaseResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'localboard-bench-feeds-'));
  const { port, child } = await startServer(dataDir);
  const phases: PhaseResult[] = [];
  try {
    const cityFeed = `${city}/feed.xml`;
    const headers = { 'accept-encoding': ACCEPT_ENCODING };
    const targets = [
      { name: 'city page', path: city, headers, status: 200 },
      { name: 'city feed', path: cityFeed, headers, status: 200 },
      {
        name: 'city feed, If-None-Match (304)',
        path: cityFeed,
        headers: { ...headers, 'if-none-match': await etagOf(port, cityFeed) },
        status: 304,
      },
      { name: 'search feed', path: SEARCH_FEED, headers, status: 200 },
      {
        name: 'search feed, If-None-Match (304)',
        path: SEARCH_FEED,
        headers: { ...headers, 'if-none-match': await etagOf(port, SEARCH_FEED) },
        status: 304,
      },
    ];
    for (const target of targets) {
      const { path, status } = target;
      await readers(port, path, target.headers, 1000, options.maxRequests, status);
      const sample = await readers(
        port,
        path,
        target.headers,
        options.seconds * 1000,
        options.maxRequests,
        status,
      );
      const phase = summarise(target.name, path, false, sample);
      phases.push(phase);
      console.log(
        `  ${phase.name}: ${phase.requests} requests, ${phase.rps.toFixed(0)}/s, p50 ${phase.p50.toFixed(1)} ms, p99 ${phase.p99.toFixed(1)} ms, ${phase.failures} failed`,
      );
    }
  } finally {
    await stopServer(child, 5_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return phases;
}

function report(runs: PhaseResult[][], options: ServerBenchOptions): string {
  const lines = [
    `${runs.length} ${runs.length === 1 ? 'run' : 'runs'} of ${options.seconds} s a phase, 50 keep-alive readers, ` +
      `\`Accept-Encoding: ${ACCEPT_ENCODING}\`, on the shipped content's build; city \`${runs[0]?.[1]?.path}\`, ` +
      `search \`${SEARCH_FEED}\`. Load average at the end: ${loadavg()[0]!.toFixed(2)}.`,
    '',
    '| run | request, 50 concurrent readers | p50 / p99 ms | req/s | p99 ÷ city page p99 | failed |',
    '|---|---|---|---|---|---|',
  ];
  runs.forEach((phases, index) => {
    const page = phases[0]!;
    for (const phase of phases)
      lines.push(
        `| ${index + 1} | ${phase.name} | ${ms(phase.p50)} / ${ms(phase.p99)} | ${thousands(phase.rps)} | ` +
          `${(phase.p99 / page.p99).toFixed(2)} | ${phase.failures} |`,
      );
  });
  return lines.join('\n');
}

export async function benchFeeds(options: ServerBenchOptions, city: string): Promise<void> {
  const runs: PhaseResult[][] = [];
  for (let index = 1; index <= options.runs; index += 1) {
    console.log(
      `Feeds, run ${index} of ${options.runs} (load average ${loadavg()[0]!.toFixed(2)}):`,
    );
    runs.push(await runOnce(options, city));
  }
  const figures = report(runs, options);
  console.log(`\n${figures}\n`);
  if (options.write) {
    writeDocSection(
      join(root, 'docs', 'benchmarks.md'),
      { start: '<!-- bench-feeds:start -->', end: '<!-- bench-feeds:end -->', heading: '## Feeds' },
      figures,
    );
    console.log('Wrote the figures to docs/benchmarks.md (## Feeds).');
  }
}
