// The publish alone, before and after a change, in one run (docs/benchmarks.md, "Publishing
// speed"): the build a publish runs, timed from its start to the new ad's page on disk (what a
// visitor waits for after an approval, without the server and the network) and to its end, with
// its CPU time. Two sides alternate round by round, the first swapping each round, on one
// generated site each (the same content): another checkout (`--before DIR`, its own
// scripts/build.mjs) or this one with the steps apart (`--steps-apart`: a Node a step, as a large
// site builds). Each round adds one ad, in a city of another size, to the content both build.
//   npm exec -- tsx bench/publish-latency.ts (--before DIR | --steps-apart) [--ads 320] [--rounds 10]
// Prints the figures; writes nothing.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { adPath, outputFileForPath } from '../core/paths.ts';
import { AD_COLUMNS } from '../core/schemas/ad.ts';
import { buildSite, citiesOfEverySize, writeGeneratedContent } from './generated-site.ts';
import { openBenchStore } from './bench-store.ts';
import { DEFAULT_BUILD_DATE } from './options.ts';
import { percentile } from './publish-rounds.ts';
import { createWorkspace } from './workspace.ts';

const root = join(import.meta.dirname, '..');
const option = (flag: string) => {
  const index = process.argv.indexOf(flag);
  return index === -1 ? undefined : process.argv[index + 1];
};
const ads = Number(option('--ads') ?? 320);
const rounds = Number(option('--rounds') ?? 10);
const beforeDir = option('--before');
const stepsApart = process.argv.includes('--steps-apart');
if (!beforeDir === !stepsApart) throw new Error('Say --before DIR or --steps-apart');

interface Side {
  name: 'before' | 'after';
  projectDir: string;
  outDir: string;
  cacheDir: string;
  env: NodeJS.ProcessEnv;
  toPage: number[];
  toEnd: number[];
  cpu: number[];
}

/** Runs the side's build; resolves with ms to the page's file, ms to the end, CPU seconds. */
function publish(side: Side, contentDir: string, database: string, pageFile: string) {
  return new Promise<{ page: number; end: number; cpu: number }>((resolvePromise, reject) => {
    const started = performance.now();
    let page = NaN;
    const child = spawn(
      '/usr/bin/time',
      [
        '-f',
        'CPU %U %S',
        process.execPath,
        'scripts/build.mjs',
        ...['--date', DEFAULT_BUILD_DATE, '--content', contentDir, '--out', side.outDir],
        ...['--cache', side.cacheDir, '--database', database],
      ],
      { cwd: side.projectDir, env: side.env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const poll = setInterval(() => {
      if (Number.isNaN(page) && existsSync(pageFile)) page = performance.now() - started;
    }, 2);
    let said = '';
    child.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    child.once('close', (code) => {
      clearInterval(poll);
      const end = performance.now() - started;
      if (code !== 0) return reject(new Error(`${side.name}'s build failed:\n${said}`));
      const [, user, system] = /CPU ([\d.]+) ([\d.]+)/.exec(said) ?? [];
      resolvePromise({ page, end, cpu: Number(user) + Number(system) });
    });
  });
}

const workspace = createWorkspace();
try {
  console.log(`Working in ${workspace.dir}.`);
  const { contentDir, cities } = writeGeneratedContent(workspace.dir, ads, DEFAULT_BUILD_DATE);
  const database = join(workspace.dir, 'localboard.sqlite');
  await (await openBenchStore({ path: database })).close();
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DATABASE_PATH;
  const sides: Side[] = (['before', 'after'] as const).map((name) => ({
    name,
    projectDir: name === 'before' && beforeDir ? resolve(beforeDir) : root,
    outDir: join(workspace.dir, name, 'out'),
    cacheDir: join(workspace.dir, name, 'cache'),
    env: name === 'before' && stepsApart ? { ...env, LOCALBOARD_BUILD_STEPS_APART: '1' } : env,
    toPage: [],
    toEnd: [],
    cpu: [],
  }));
  for (const side of sides) {
    mkdirSync(side.outDir, { recursive: true });
    console.log(`Building ${side.name} (${side.projectDir})...`);
    const built = buildSite({
      contentDir,
      outDir: side.outDir,
      cacheDir: side.cacheDir,
      buildDate: DEFAULT_BUILD_DATE,
      database: { path: database },
      projectDir: side.projectDir,
    });
    console.log(`  ${built.pages} pages in ${built.seconds.toFixed(0)} s.`);
  }
  const loadBefore = loadavg();
  const places = citiesOfEverySize(cities, rounds + 1);
  for (let round = 0; round <= rounds; round += 1) {
    const { state, city } = places[round]!;
    const id = 900_000 + round;
    writeFileSync(
      join(contentDir, 'ads', `latency-${round}.csv`),
      stringify(
        [
          {
            id: String(id),
            state,
            city,
            age: '31',
            seeks: 'w4m',
            title: 'Walks by the water at dawn',
            description: 'Looking for company on early walks by the water. Say hello.',
            images: '',
            featured: 'false',
            postedAt: DEFAULT_BUILD_DATE,
            expiresAt: '2027-12-31',
            sample: 'false',
          },
        ],
        { header: true, columns: [...AD_COLUMNS] },
      ),
    );
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const pageFile = join(side.outDir, 'site', outputFileForPath(adPath(state, city, id)));
      const { page, end, cpu } = await publish(side, contentDir, database, pageFile);
      // The first round warms up (the compile cache, the page cache) and is not counted.
      if (round === 0) continue;
      side.toPage.push(page);
      side.toEnd.push(end);
      side.cpu.push(cpu);
      console.log(
        `  ${round}/${rounds} ${side.name} ${city}, ${state}: page in ${page.toFixed(0)} ms, ` +
          `end in ${end.toFixed(0)} ms, ${cpu.toFixed(2)} s CPU`,
      );
    }
  }
  const loadAfter = loadavg();
  const [before, after] = sides as [Side, Side];
  const row = (label: string, of: (side: Side) => number[], p: number, unit: 's' | 'ms') => {
    const [b, a] = [percentile(of(before), p / 100), percentile(of(after), p / 100)];
    const shown = (value: number) => (unit === 'ms' ? (value / 1000).toFixed(2) : value.toFixed(2));
    return `| ${label} | ${shown(b)} | ${shown(a)} | ${(a / b).toFixed(2)} |`;
  };
  console.log(
    [
      '',
      `- ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}; load average ${loadBefore.map((v) => v.toFixed(1)).join(' / ')} before the rounds, ${loadAfter.map((v) => v.toFixed(1)).join(' / ')} after.`,
      `- ${ads} generated ads a side, ${rounds} rounds after one of warm-up, alternating; before: ${beforeDir ?? 'this checkout, steps apart'}.`,
      '',
      '| the publish build | before s | after s | after / before |',
      '| --- | ---: | ---: | ---: |',
      row("to the new ad's page on disk, p50", (side) => side.toPage, 50, 'ms'),
      row("to the new ad's page on disk, p95", (side) => side.toPage, 95, 'ms'),
      row('to its end, p50', (side) => side.toEnd, 50, 'ms'),
      row('to its end, p95', (side) => side.toEnd, 95, 'ms'),
      row('CPU (user + system), p50', (side) => side.cpu, 50, 's'),
    ].join('\n'),
  );
} finally {
  workspace.remove();
}
