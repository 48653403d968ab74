// Publishing speed, before and after a change, in one run (docs/benchmarks.md, "Publishing
// speed"): on a shared machine absolute times say little, so two checkouts are measured side by
// side, their rounds alternating, and the figures are the ratios.
//   npm exec -- tsx bench/publish-compare.ts --before DIR [--ads 320] [--rounds 10] [--keep]
// DIR is another checkout of the project (a worktree of main, `npm ci` done in it). Each side gets
// its own generated site (bench/generated-site.ts, built by its own scripts/build.mjs), database
// and real server; then each round is bench/publish.ts's (a moderator approves a member ad: ms
// until its URL answers 200; its member deletes it: ms until 404) on one side and then the other,
// the first side swapping every round. Prints the figures; writes nothing.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { openBenchStore, type BenchStore } from './bench-store.ts';
import { buildSite, citiesOfEverySize, writeGeneratedContent } from './generated-site.ts';
import {
  approveThenDelete,
  collectPublishLines,
  HOST,
  loadText,
  percentile,
  posterAndModerator,
  publishSeconds,
  seconds,
  sqlitePathIn,
  startServer,
  waitForServer,
  type PosterAndModerator,
} from './publish-rounds.ts';
import { freePort, stopServer } from './server-process.ts';
import { createWorkspace } from './workspace.ts';

const root = join(import.meta.dirname, '..');

interface Side {
  name: 'before' | 'after';
  projectDir: string;
  base: string;
  server: ChildProcess;
  bench: BenchStore;
  people: PosterAndModerator;
  publishLog: string[];
  live: number[];
  gone: number[];
}

function options(argv: readonly string[]) {
  const value = (flag: string) => {
    const index = argv.indexOf(flag);
    return index === -1 ? undefined : argv[index + 1];
  };
  const before = value('--before');
  if (!before || !existsSync(join(before, 'scripts', 'build.mjs')))
    throw new Error('usage: tsx bench/publish-compare.ts --before DIR [--ads N] [--rounds N]');
  return {
    before: resolve(before),
    ads: Number(value('--ads') ?? 320),
    rounds: Number(value('--rounds') ?? 10),
    keep: argv.includes('--keep'),
  };
}

async function compare(argv: readonly string[]): Promise<void> {
  const { before, ads, rounds, keep } = options(argv);
  const workspace = createWorkspace();
  const buildDate = new Date().toISOString().slice(0, 10);
  const sides: Side[] = [];
  try {
    console.log(`Working in ${workspace.dir}.`);
    let cities: ReturnType<typeof writeGeneratedContent>['cities'] = [];
    for (const [name, projectDir] of [
      ['before', before],
      ['after', root],
    ] as const) {
      const dir = join(workspace.dir, name);
      const generated = writeGeneratedContent(dir, ads, buildDate);
      cities = generated.cities;
      const dataDir = join(dir, 'data');
      mkdirSync(dataDir, { recursive: true });
      const bench = await openBenchStore({ path: sqlitePathIn(dataDir) });
      const [outDir, cacheDir] = [join(dir, 'out'), join(dir, 'cache')];
      console.log(`Building ${name} (${projectDir})...`);
      const built = buildSite({
        contentDir: generated.contentDir,
        outDir,
        cacheDir,
        buildDate,
        database: { path: sqlitePathIn(dataDir) },
        projectDir,
      });
      console.log(`  ${built.pages} pages in ${built.seconds.toFixed(0)} s.`);
      const port = await freePort(HOST);
      const server = startServer({
        port,
        outDir,
        cacheDir,
        contentDir: generated.contentDir,
        buildDate,
        dataDir,
        cwd: projectDir,
      });
      const publishLog: string[] = [];
      collectPublishLines(server, publishLog, { label: name });
      const base = `http://${HOST}:${port}`;
      sides.push({
        name,
        projectDir,
        base,
        server,
        bench,
        people: undefined!,
        publishLog,
        live: [],
        gone: [],
      });
      await waitForServer(base, server);
      sides.at(-1)!.people = await posterAndModerator(base, bench.store);
    }
    const places = citiesOfEverySize(cities, rounds + 1);
    const loadBefore = loadavg();
    for (const [index, place] of places.entries()) {
      const order = index % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const { liveMs, goneMs } = await approveThenDelete(
          side.base,
          side.bench.db,
          side.people,
          place,
          index,
          side.publishLog,
        );
        console.log(
          `  ${index === 0 ? 'warm-up' : `${index}/${rounds}`} ${side.name} ${place.city}, ${place.state}: live in ${liveMs.toFixed(0)} ms, gone in ${goneMs.toFixed(0)} ms`,
        );
        if (index === 0) continue;
        side.live.push(liveMs);
        side.gone.push(goneMs);
      }
    }
    console.log(`\n${figures(sides, ads, rounds, loadBefore, loadavg())}\n`);
  } finally {
    for (const side of sides) {
      await stopServer(side.server, 10_000);
      await side.bench.close();
    }
    if (keep) console.log(`Kept ${workspace.dir} (--keep).`);
    else workspace.remove();
  }
}

function figures(
  sides: readonly Side[],
  ads: number,
  rounds: number,
  loadBefore: number[],
  loadAfter: number[],
): string {
  const [before, after] = sides as [Side, Side];
  const row = (what: string, pick: (side: Side) => number[], at: number) => {
    const [b, a] = [percentile(pick(before), at), percentile(pick(after), at)];
    return `| ${what} | ${seconds(b)} | ${seconds(a)} | ${(a / b).toFixed(2)} |`;
  };
  const builds = (side: Side) => publishSeconds(side.publishLog);
  return [
    `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}; load average (1 / 5 / 15 min) ${loadText(loadBefore)} before the rounds, ${loadText(loadAfter)} after.`,
    `- ${ads} generated ads a side, ${rounds} rounds after one of warm-up, the sides alternating (the first swapping every round).`,
    '',
    '| from the request to | before s | after s | after / before |',
    '| --- | ---: | ---: | ---: |',
    row('approved: the ad answers 200, p50', (side) => side.live, 0.5),
    row('approved: the ad answers 200, p95', (side) => side.live, 0.95),
    row('deleted: the ad answers 404, p50', (side) => side.gone, 0.5),
    row('deleted: the ad answers 404, p95', (side) => side.gone, 0.95),
    row(
      'the server\'s "Published … in N s", p50',
      (side) => builds(side).map((s) => s * 1000),
      0.5,
    ),
  ].join('\n');
}

await compare(process.argv.slice(2));
