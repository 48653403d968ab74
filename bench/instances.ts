// The two-instance publishing benchmark (`npm run bench:instances`, scripts/bench-instances.ts),
// a sibling of bench/publish.ts: issue 19's "approve on instance A → the ad answers 200 on
// instance B". It starts a throwaway PostgreSQL (scripts/postgres.mjs), builds the 100,000-ad
// generated set (about 117,000 pages, as `npm run bench` does) on tmpfs once, reading member ads
// from that database (`--database-url`), copies the build's output and its compiled content for a
// second instance, and starts two real servers of that build ({out}/server/serve.mjs), each with
// DATABASE_URL and a SITE_DIR and COMPILED_CONTENT_DIR of its own, waiting until /readyz answers
// 200 on both (each has built its site from the database once). Then N times: a member's ad waits
// for review; a moderator approves it on A (POST /api/moderate/ads/{id}/approve), timing until
// the ad's URL answers 200 on B and on A; its member deletes it on A (POST /api/ads/{id}/delete),
// timing until it answers 404 on B and on A. B publishes because A announced it (PostgreSQL's
// LISTEN/NOTIFY: server/publishing/cluster-publisher.ts). Meanwhile a reader fetches the affected
// pages on B in a loop and counts truncated bodies and unexpected statuses.
// Prints the figures and writes them to docs/benchmarks.md (## Two instances on one PostgreSQL).
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain JavaScript module of the scripts, without types.
import { ensurePostgres, startThrowawayPostgres } from '../scripts/postgres.mjs';
import { adPath, cityPath } from '../core/paths.ts';
import { openBenchStore, type BenchStore } from './bench-store.ts';
import { writeDocSection } from './docs.ts';
import { buildSite, citiesOfEverySize, writeGeneratedContent } from './generated-site.ts';
import {
  act,
  collectPublishLines,
  HOST,
  insertReviewAd,
  percentile,
  POLL_MS,
  posterAndModerator,
  publishedIn,
  publishSeconds,
  readerFailures,
  readerLine,
  runLine,
  seconds,
  startReader,
  startServer,
  timeUntilEach,
  waitForServer,
  type ReaderCounts,
  type TimedLine,
} from './publish-rounds.ts';
import { parseServerBenchOptions } from './server-bench-options.ts';
import { freePort, stopServer } from './server-process.ts';
import { createWorkspace } from './workspace.ts';

const root = join(import.meta.dirname, '..');
const START = '<!-- bench-instances:start -->';
const END = '<!-- bench-instances:end -->';
const HEADING = '## Two instances on one PostgreSQL';
/** The longest an instance may take to build its site from the database before it is ready. */
const READY_WITHIN_MS = 180_000;

export interface InstancesBenchOptions {
  ads: number;
  rounds: number;
  write: boolean;
  keep: boolean;
}

export function parseInstancesBenchOptions(argv: readonly string[]): InstancesBenchOptions {
  const { count: rounds, ...options } = parseServerBenchOptions(argv, {
    script: 'bench:instances',
    countFlag: '--rounds',
    ads: 100_000,
    count: 20,
  });
  return { ...options, rounds };
}

/** One of the two servers. */
interface Instance {
  name: 'A' | 'B';
  base: string;
  child: ChildProcess;
  /** Its publish log, and when each line was read. */
  log: string[];
  timed: TimedLine[];
}

/** How B came to answer, in one round: from the request, in ms. */
interface Breakdown {
  /** B's build that published the change began (its end less its duration). */
  buildStarted: number;
  /** That build's own duration, as B's log says it. */
  build: number;
  /**
   * The page answered on B this long after that build's line was read (negative: before; a
   * build replaces each page as it writes it, and says it published once it has ended).
   */
  after: number;
}

interface Round {
  city: string;
  liveB: number;
  liveA: number;
  goneB: number;
  goneA: number;
  /** The load average (1 min) as the round began. */
  load: number;
  /** When the approval and the deletion were sent (performance.now()). */
  approved: number;
  deleted: number;
  liveBreakdown?: Breakdown;
  goneBreakdown?: Breakdown;
}

export async function benchInstances(argv: readonly string[]): Promise<void> {
  const options = parseInstancesBenchOptions(argv);
  const started = performance.now();
  const found = ensurePostgres() as { binDir?: string; problem?: string };
  if (!found.binDir) throw new Error(found.problem);
  const workspace = createWorkspace();
  // Today (UTC): a moderator's approval makes an ad live from today, as it does in production.
  const buildDate = new Date().toISOString().slice(0, 10);
  const instances: Instance[] = [];
  let postgres: { url: string; dir: string; stop(): void } | undefined;
  let bench: BenchStore | undefined;
  try {
    console.log(`Working in ${workspace.dir}${workspace.onTmpfs ? ' (tmpfs)' : ''}.`);
    postgres = await startThrowawayPostgres(found.binDir);
    const databaseUrl = postgres!.url;
    console.log(`A throwaway PostgreSQL at ${databaseUrl} (${postgres!.dir}).`);
    // Migrated as a server would, before the build reads it (read-only, never migrating).
    bench = await openBenchStore({ url: databaseUrl });
    const { contentDir, cities } = writeGeneratedContent(workspace.dir, options.ads, buildDate);

    const dirsOf = (name: string) => ({
      outDir: join(workspace.dir, `out-${name}`),
      cacheDir: join(workspace.dir, `cache-${name}`),
      dataDir: join(workspace.dir, `data-${name}`),
    });
    const a = dirsOf('a');
    const b = dirsOf('b');
    console.log(`Building ${options.ads.toLocaleString('en-US')} ads for ${buildDate}...`);
    const { pages, seconds: buildSeconds } = buildSite({
      contentDir,
      outDir: a.outDir,
      cacheDir: a.cacheDir,
      buildDate,
      database: { url: databaseUrl },
    });
    console.log(`  ${pages} pages in ${buildSeconds.toFixed(0)} s.`);
    // The second instance's copy: as an operator would deploy the same build to a second machine.
    const copyStarted = performance.now();
    copyTree(a.outDir, b.outDir);
    copyTree(a.cacheDir, b.cacheDir);
    const copySeconds = (performance.now() - copyStarted) / 1000;
    console.log(`  Copied for instance B in ${copySeconds.toFixed(0)} s.`);

    const startedAt = performance.now();
    for (const [name, dirs] of [
      ['A', a],
      ['B', b],
    ] as const) {
      mkdirSync(dirs.dataDir, { recursive: true });
      const port = await freePort(HOST);
      const child = startServer({ port, contentDir, buildDate, databaseUrl, ...dirs });
      const instance: Instance = {
        name,
        base: `http://${HOST}:${port}`,
        child,
        log: [],
        timed: [],
      };
      collectPublishLines(child, instance.log, { label: `${name} `, timed: instance.timed });
      instances.push(instance);
    }
    const [instanceA, instanceB] = instances as [Instance, Instance];
    // Ready: each has built its site from the database once (server/index.ts, /readyz).
    await Promise.all(
      instances.map((instance) =>
        waitForServer(instance.base, instance.child, {
          path: '/readyz',
          timeoutMs: READY_WITHIN_MS,
        }),
      ),
    );
    const readySeconds = (performance.now() - startedAt) / 1000;
    console.log(`  Both instances ready (/readyz 200) in ${readySeconds.toFixed(1)} s.`);
    const baseA = instanceA.base;
    const baseB = instanceB.base;
    const bases = [baseB, baseA];
    const logs = () =>
      instances.flatMap((instance) => instance.log.map((l) => `${instance.name} ${l}`));

    // A member (verified, as the emailed link does) and a moderator (as the operator's command),
    // both signed up on A.
    const { poster, posterId, moderator } = await posterAndModerator(baseA, bench.store);

    const chosen = citiesOfEverySize(cities, options.rounds + 1);
    const startupBuilds = instances.map((instance) => publishSeconds(instance.log));
    const logMarks = instances.map((instance) => instance.log.length);
    const loadBefore = loadavg();
    const reader = startReader(baseB);
    const rounds: Round[] = [];
    try {
      for (const [index, place] of chosen.entries()) {
        const id = await insertReviewAd(bench.db, posterId, place.state, place.city, index);
        const ad = adPath(place.state, place.city, id);
        reader.watch([ad, cityPath(place.state, place.city), '/']);
        const load = loadavg()[0]!;
        const approved = performance.now();
        const [liveB, liveA] = (await timeUntilEach(
          bases,
          ad,
          200,
          () => act(baseA, moderator, `/api/moderate/ads/${id}/approve`, { revision: 1 }),
          logs,
        )) as [number, number];
        const deleted = performance.now();
        const [goneB, goneA] = (await timeUntilEach(
          bases,
          ad,
          404,
          () => act(baseA, poster, `/api/ads/${id}/delete`, {}),
          logs,
        )) as [number, number];
        // The first round warms the servers and the disk cache up: not counted.
        const label = index === 0 ? 'warm-up' : `${index}/${options.rounds}`;
        console.log(
          `  ${label} ${place.city}, ${place.state} (load ${load.toFixed(2)}): live on B in ${liveB.toFixed(0)} ms (A ${liveA.toFixed(0)} ms), gone on B in ${goneB.toFixed(0)} ms (A ${goneA.toFixed(0)} ms)`,
        );
        if (index > 0)
          rounds.push({
            city: `${place.city}, ${place.state}`,
            liveB,
            liveA,
            goneB,
            goneA,
            load,
            approved,
            deleted,
          });
      }
    } finally {
      await reader.stop();
    }
    const loadAfter = loadavg();
    // A page answers while its build still runs (each file is replaced as it is written): B's
    // last builds may end after the last round. Their lines say where B's time went.
    await settle(instanceB.timed, rounds);
    for (const [index, round] of rounds.entries())
      console.log(
        `  ${index + 1}: approved${describe(round.liveBreakdown)}; deleted${describe(round.goneBreakdown)}`,
      );
    const figures = report({
      options,
      pages,
      buildSeconds,
      copySeconds,
      readySeconds,
      startupBuilds,
      rounds,
      counts: reader.counts,
      roundBuilds: instances.map((instance, at) =>
        publishSeconds(instance.log.slice(logMarks[at])),
      ),
      loadBefore,
      loadAfter,
      onTmpfs: workspace.onTmpfs,
    });
    console.log(`\n${figures}\n`);
    const failed = readerFailures(reader.counts);
    if (options.write) {
      writeDocSection(
        join(root, 'docs', 'benchmarks.md'),
        { start: START, end: END, heading: HEADING },
        figures,
      );
      console.log(`Wrote the figures to docs/benchmarks.md (${HEADING}).`);
    }
    if (failed > 0) {
      console.error(`The reader saw ${failed} failures: ${reader.counts.examples.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    await Promise.all(instances.map((instance) => stopServer(instance.child, 10_000)));
    await bench?.close();
    postgres?.stop();
    if (options.keep) console.log(`Kept ${workspace.dir} (--keep; the database is gone).`);
    else workspace.remove();
    console.log(`Benchmark took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  }
}

/** `cp -a`: the build's output has a link to the project's node_modules, kept as a link. */
function copyTree(from: string, to: string): void {
  const copied = spawnSync('cp', ['-a', from, to], { encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`cp -a ${from} ${to} failed: ${copied.stderr.trim()}`);
}

/**
 * Where B's time went, from B's publish log: the first of its builds that began after the request
 * (its line's moment less its duration; 50 ms of slack for reading the line) published the change.
 */
function breakdown(
  timed: readonly TimedLine[],
  requested: number,
  answeredMs: number,
): Breakdown | undefined {
  for (const { at, line } of timed) {
    const took = publishedIn(line);
    if (took === undefined || at < requested) continue;
    const buildStarted = at - took * 1000 - requested;
    if (buildStarted < -50) continue;
    return { buildStarted, build: took * 1000, after: answeredMs - (at - requested) };
  }
  return undefined;
}

/** Finds each round's builds of B, waiting up to 60 s for the last ones to end. */
async function settle(timed: readonly TimedLine[], rounds: Round[]): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    for (const round of rounds) {
      round.liveBreakdown ??= breakdown(timed, round.approved, round.liveB);
      round.goneBreakdown ??= breakdown(timed, round.deleted, round.goneB);
    }
    const found = rounds.every((round) => round.liveBreakdown && round.goneBreakdown);
    if (found || performance.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const describe = (parts: Breakdown | undefined) =>
  parts
    ? `: B's build began at ${seconds(parts.buildStarted)} s and took ${seconds(parts.build)} s; the page answered ${seconds(Math.abs(parts.after))} s ${parts.after < 0 ? 'before' : 'after'} its end`
    : ': no build of B found';

// ---------------------------------------------------------------- figures

function report(run: {
  options: InstancesBenchOptions;
  pages: string;
  buildSeconds: number;
  copySeconds: number;
  readySeconds: number;
  startupBuilds: number[][];
  rounds: readonly Round[];
  counts: ReaderCounts;
  roundBuilds: number[][];
  loadBefore: number[];
  loadAfter: number[];
  onTmpfs: boolean;
}): string {
  const column = (pick: (round: Round) => number) => run.rounds.map(pick);
  const verdict = (values: number[]) => (percentile(values, 0.95) < 3000 ? 'met' : '**missed**');
  const row = (label: string, values: number[], target: boolean) =>
    `| ${label} | ${seconds(percentile(values, 0.5))} | ${seconds(percentile(values, 0.95))} | ${seconds(Math.max(...values))} | ${target ? verdict(values) : '–'} |`;
  const parts = (pick: (round: Round) => Breakdown | undefined) => {
    const found = run.rounds.map(pick).filter((part): part is Breakdown => part !== undefined);
    const p50 = (key: keyof Breakdown) =>
      seconds(
        percentile(
          found.map((part) => part[key]),
          0.5,
        ),
      );
    const p95 = (key: keyof Breakdown) =>
      seconds(
        percentile(
          found.map((part) => part[key]),
          0.95,
        ),
      );
    return `${p50('buildStarted')} / ${p95('buildStarted')} | ${p50('build')} / ${p95('build')} | ${p50('after')} / ${p95('after')} | ${found.length} of ${run.rounds.length}`;
  };
  const builds = (values: number[]) =>
    values.length === 0
      ? 'none'
      : `${values.length}, p50 ${percentile(values, 0.5).toFixed(1)} s, max ${Math.max(...values).toFixed(1)} s`;
  const [startA, startB] = run.startupBuilds as [number[], number[]];
  const [buildsA, buildsB] = run.roundBuilds as [number[], number[]];
  return [
    runLine(run.loadBefore, run.loadAfter),
    `- The site: ${run.options.ads.toLocaleString('en-US')} generated ads, ${run.pages} pages, built once in ${run.buildSeconds.toFixed(0)} s ${run.onTmpfs ? 'on tmpfs' : 'on disk'} from a throwaway PostgreSQL 15 on the same machine (\`--database-url\`), then copied for the second instance (the output and the compiled content, ${run.copySeconds.toFixed(0)} s). Two real servers of that build (\`{out}/server/serve.mjs\`), each with \`DATABASE_URL\`, its own \`SITE_DIR\` and \`COMPILED_CONTENT_DIR\`, on 127.0.0.1; both answered \`/readyz\` 200 after ${run.readySeconds.toFixed(1)} s (each builds its site from the database once before it is ready: A ${startA.map((value) => `${value.toFixed(1)} s`).join(', ') || '–'}, B ${startB.map((value) => `${value.toFixed(1)} s`).join(', ') || '–'}).`,
    `- Each round: a member ad waiting for review in a city of another size (the largest first, down to small towns) is approved by a moderator on instance A through \`POST /api/moderate/ads/{id}/approve\`; the clock runs until the ad's URL answers 200 on B (and on A). Then its member deletes it on A through \`POST /api/ads/{id}/delete\`, until it answers 404 on B (and on A). ${run.rounds.length} rounds after one of warm-up; each instance is asked for the URL every ${POLL_MS} ms.`,
    '',
    '| from the request on A to | p50 s | p95 s | max s | target p95 < 3 s |',
    '| --- | ---: | ---: | ---: | --- |',
    row(
      "the ad's page answers 200 on B (approved on A)",
      column((round) => round.liveB),
      true,
    ),
    row(
      "the ad's page answers 200 on A",
      column((round) => round.liveA),
      false,
    ),
    row(
      "the ad's page answers 404 on B (deleted on A)",
      column((round) => round.goneB),
      true,
    ),
    row(
      "the ad's page answers 404 on A",
      column((round) => round.goneA),
      false,
    ),
    '',
    "Where B's time goes (from B's log: the build that published the change, p50 / p95 s, from the request on A):",
    '',
    "| on B | its build began after | the build took | the page answered, from the build's end (negative: before) | rounds |",
    '| --- | ---: | ---: | ---: | ---: |',
    `| approved on A | ${parts((round) => round.liveBreakdown)} |`,
    `| deleted on A | ${parts((round) => round.goneBreakdown)} |`,
    '',
    `The load average (1 min) as each round began: ${run.rounds.map((round) => round.load.toFixed(1)).join(', ')}.`,
    '',
    `The builds each server ran during the rounds (its log, \`Published the site … in N s\`): A ${builds(buildsA)}; B ${builds(buildsB)}.`,
    '',
    `Meanwhile a reader fetched the ad's page, its city's page and the landing page on B in a loop: ${readerLine(run.counts)}`,
  ].join('\n');
}
