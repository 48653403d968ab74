// The publishing benchmark (`npm run bench:publish`, scripts/bench-publish.ts): builds the
// 100,000-ad generated set (about 117,000 pages, as `npm run bench` does) on tmpfs, starts the
// real server on it (the build's own server/index.ts, {out}/server/serve.mjs, on a free port of
// 127.0.0.1, publishing into that site), then N times: a member's ad waits for review; a moderator
// approves it through the moderation route (POST /api/moderate/ads/{id}/approve), timing until the
// ad's URL answers 200; its member deletes it through the posting route (POST
// /api/ads/{id}/delete), timing until it answers 404. Meanwhile a reader fetches the affected
// pages (the ad's page, its city's page, the landing page) in a loop and counts truncated bodies
// and unexpected statuses.
// Prints the figures and writes them to docs/benchmarks.md (## Publishing).
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { openBenchStore } from './bench-store.ts';
import { writeDocSection } from './docs.ts';
import { buildSite, citiesOfEverySize, writeGeneratedContent } from './generated-site.ts';
import {
  approveThenDelete,
  collectPublishLines,
  HOST,
  percentile,
  POLL_MS,
  posterAndModerator,
  publishSeconds,
  readerFailures,
  readerLine,
  runLine,
  seconds,
  sqlitePathIn,
  startReader,
  startServer,
  waitForServer,
  type ReaderCounts,
} from './publish-rounds.ts';
import { parseServerBenchOptions } from './server-bench-options.ts';
import { freePort, stopServer } from './server-process.ts';
import { createWorkspace } from './workspace.ts';

const root = join(import.meta.dirname, '..');
const START = '<!-- bench-publish:start -->';
const END = '<!-- bench-publish:end -->';
const HEADING = '## Publishing';

export interface PublishBenchOptions {
  ads: number;
  rounds: number;
  write: boolean;
  keep: boolean;
}

export function parsePublishBenchOptions(argv: readonly string[]): PublishBenchOptions {
  const { count: rounds, ...options } = parseServerBenchOptions(argv, {
    script: 'bench:publish',
    countFlag: '--rounds',
    ads: 100_000,
    count: 20,
  });
  return { ...options, rounds };
}

interface Round {
  city: string;
  liveMs: number;
  goneMs: number;
}

export async function benchPublish(argv: readonly string[]): Promise<void> {
  const options = parsePublishBenchOptions(argv);
  const started = performance.now();
  const workspace = createWorkspace();
  const outDir = join(workspace.dir, 'out');
  const cacheDir = join(workspace.dir, 'cache');
  const dataDir = join(workspace.dir, 'data');
  const databasePath = sqlitePathIn(dataDir);
  // Today (UTC): a moderator's approval makes an ad live from today, as it does in production.
  const buildDate = new Date().toISOString().slice(0, 10);
  let server: ChildProcess | undefined;
  try {
    console.log(`Working in ${workspace.dir}${workspace.onTmpfs ? ' (tmpfs)' : ''}.`);
    const { contentDir, cities } = writeGeneratedContent(workspace.dir, options.ads, buildDate);
    mkdirSync(dataDir, { recursive: true });
    const { store, db, close } = await openBenchStore({ path: databasePath });

    console.log(`Building ${options.ads.toLocaleString('en-US')} ads for ${buildDate}...`);
    const built = buildSite({
      contentDir,
      outDir,
      cacheDir,
      buildDate,
      database: { path: databasePath },
    });
    const { pages, seconds: buildSeconds } = built;
    console.log(`  ${pages} pages in ${buildSeconds.toFixed(0)} s.`);

    const port = await freePort(HOST);
    const publishLog: string[] = [];
    server = startServer({ port, outDir, cacheDir, contentDir, buildDate, dataDir });
    collectPublishLines(server, publishLog);
    const base = `http://${HOST}:${port}`;
    await waitForServer(base, server);
    // A member (verified, as the emailed link does) and a moderator (as the operator's command).
    const people = await posterAndModerator(base, store);

    // Cities of every size, the most populous first.
    const chosen = citiesOfEverySize(cities, options.rounds + 1);
    const loadBefore = loadavg();
    const reader = startReader(base);
    const rounds: Round[] = [];
    try {
      for (const [index, place] of chosen.entries()) {
        const { liveMs, goneMs } = await approveThenDelete(
          base,
          db,
          people,
          place,
          index,
          publishLog,
          reader,
        );
        // The first round warms the server and the disk cache up: not counted.
        const label = index === 0 ? 'warm-up' : `${index}/${options.rounds}`;
        console.log(
          `  ${label} ${place.city}, ${place.state}: live in ${liveMs.toFixed(0)} ms, gone in ${goneMs.toFixed(0)} ms`,
        );
        if (index > 0) rounds.push({ city: `${place.city}, ${place.state}`, liveMs, goneMs });
      }
    } finally {
      await reader.stop();
    }
    const loadAfter = loadavg();
    await close();
    const figures = report({
      options,
      pages,
      buildSeconds,
      rounds,
      counts: reader.counts,
      publishLog,
      loadBefore,
      loadAfter,
      onTmpfs: workspace.onTmpfs,
    });
    console.log(`\n${figures}\n`);
    const failed = readerFailures(reader.counts);
    if (options.write) {
      writeDoc(figures);
      console.log('Wrote the figures to docs/benchmarks.md (## Publishing).');
    }
    if (failed > 0) {
      console.error(`The reader saw ${failed} failures: ${reader.counts.examples.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    if (server) await stopServer(server, 10_000);
    if (options.keep) console.log(`Kept ${workspace.dir} (--keep).`);
    else workspace.remove();
    console.log(`Benchmark took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  }
}

// ---------------------------------------------------------------- figures

function report(run: {
  options: PublishBenchOptions;
  pages: string;
  buildSeconds: number;
  rounds: readonly Round[];
  counts: ReaderCounts;
  publishLog: readonly string[];
  loadBefore: number[];
  loadAfter: number[];
  onTmpfs: boolean;
}): string {
  const live = run.rounds.map((round) => round.liveMs);
  const gone = run.rounds.map((round) => round.goneMs);
  const builds = publishSeconds(run.publishLog);
  const verdict = (values: number[]) => (percentile(values, 0.95) < 3000 ? 'met' : '**missed**');
  return [
    runLine(run.loadBefore, run.loadAfter),
    `- The site: ${run.options.ads.toLocaleString('en-US')} generated ads, ${run.pages} pages, built in ${run.buildSeconds.toFixed(0)} s ${run.onTmpfs ? 'on tmpfs' : 'on disk'}; the real server (\`{out}/server/serve.mjs\`) serves it on 127.0.0.1 and publishes into it.`,
    `- Each round: a member ad waiting for review in a city of another size (the largest first, down to small towns) is approved by a moderator through \`POST /api/moderate/ads/{id}/approve\`; the clock runs until the ad's URL answers 200. Then its member deletes it through \`POST /api/ads/{id}/delete\`, until it answers 404. ${run.rounds.length} rounds after one of warm-up; the URL is asked every ${POLL_MS} ms.`,
    '',
    '| from the request to | p50 s | p95 s | max s | target p95 < 3 s |',
    '| --- | ---: | ---: | ---: | --- |',
    `| the ad's page answers 200 (approved) | ${seconds(percentile(live, 0.5))} | ${seconds(percentile(live, 0.95))} | ${seconds(Math.max(...live))} | ${verdict(live)} |`,
    `| the ad's page answers 404 (deleted) | ${seconds(percentile(gone, 0.5))} | ${seconds(percentile(gone, 0.95))} | ${seconds(Math.max(...gone))} | ${verdict(gone)} |`,
    '',
    `The builds the server ran (its log, \`Published the site … in N s\`): ${builds.length}, p50 ${percentile(builds, 0.5).toFixed(1)} s, max ${Math.max(...builds).toFixed(1)} s.`,
    '',
    `Meanwhile a reader fetched the ad's page, its city's page and the landing page in a loop: ${readerLine(run.counts)}`,
  ].join('\n');
}

function writeDoc(figures: string) {
  writeDocSection(
    join(root, 'docs', 'benchmarks.md'),
    { start: START, end: END, heading: HEADING },
    figures,
  );
}
