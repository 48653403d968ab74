// The benchmark (`npm run bench`, scripts/bench.ts): builds a 100,000-ad site, a 20,000-page site and the shipped content on tmpfs
// and reports time, throughput, memory, output size and page weight; see docs/benchmarks.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { adsForPageTarget, generateBenchAds, readWeightedCities } from './ads.ts';
import { runBuild, summarizeLog } from './build.ts';
import { writeContentSet } from './content.ts';
import { writeBenchmarksDoc } from './docs.ts';
import { measureSet, type SetMeasurement } from './measure.ts';
import { parseBenchOptions, type BenchOptions } from './options.ts';
import {
  countCheck,
  countProblem,
  memoryDifference,
  pageTypeTable,
  summaryTable,
} from './report.ts';
import { createWorkspace, type Workspace } from './workspace.ts';
import { splitCsvRecords } from '../src/build/compile/csv-records.ts';

const root = join(import.meta.dirname, '..');
const shippedContent = join(root, 'content');
const FULL_ADS = 100_000;
const SUBSET_PAGES = 20_000;
/** The id of the ad the incremental benchmark adds (the generated ones start at 100,000). */
const NEW_AD_ID = 9_999_999;

interface ContentSet {
  name: string;
  /** Folder name inside the workspace. */
  id: string;
  contentDir: string;
}

const started = performance.now();
const options = parseBenchOptions(process.argv.slice(2));
const workspace = createWorkspace();
process.once('SIGINT', () => {
  workspace.remove();
  process.exit(130);
});
try {
  announce(options, workspace);
  const sets = prepareContentSets(options, workspace);
  const measured = new Map<string, SetMeasurement>();
  // The shipped set goes first: it warms tsx's and the OS's caches for the large ones.
  for (const set of [sets.shipped, sets.subset, sets.full]) {
    measured.set(set.id, await buildAndMeasure(set, options, workspace));
  }
  const results = [sets.full, sets.subset, sets.shipped].map((set) => measured.get(set.id)!);
  const incremental = await rebuildAfterAdEdits(sets.full, options, workspace);
  const figures = `${report(results, options, workspace)}\n\n### Incremental rebuild of the full set\n\n${incremental}`;
  console.log(`\n${figures}\n`);
  if (results.some(countProblem)) {
    console.error('The page counts do not add up (see Checks): docs/benchmarks.md left as it was.');
    process.exitCode = 1;
  } else {
    writeBenchmarksDoc(join(root, 'docs', 'benchmarks.md'), figures);
    console.log('Wrote the figures to docs/benchmarks.md.');
  }
} finally {
  if (options.keep) console.log(`Kept ${workspace.dir} (--keep).`);
  else workspace.remove();
  console.log(`Benchmark took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
}

function announce(options: BenchOptions, workspace: Workspace): void {
  console.log(`Seed ${options.seed}, build date ${options.buildDate}.`);
  if (!workspace.onTmpfs) {
    console.log('No /dev/shm here: using the system temporary folder, on disk; expect slower,');
    console.log('noisier figures (writing many small files costs more than rendering them).');
  }
  console.log(`Working in ${workspace.dir}.`);
}

function prepareContentSets(options: BenchOptions, workspace: Workspace) {
  const cities = readWeightedCities(shippedContent);
  const request = { contentDir: shippedContent, cities, seed: options.seed };
  const ads = generateBenchAds({ ...request, count: FULL_ADS, buildDate: options.buildDate });
  const subsetCount = adsForPageTarget(ads, cities, SUBSET_PAGES);
  console.log(
    `Generated ${count(ads.length)} ads over ${count(cities.length)} cities; the ` +
      `${count(SUBSET_PAGES)}-page set takes the first ${count(subsetCount)}.`,
  );
  const write = (id: string, name: string, subsetAds: typeof ads): ContentSet => {
    const contentDir = join(workspace.dir, id, 'content');
    writeContentSet(shippedContent, contentDir, subsetAds);
    return { id, name, contentDir };
  };
  return {
    full: write('full', `full (${count(FULL_ADS)} ads)`, ads),
    subset: write('subset', `20k pages (${count(subsetCount)} ads)`, ads.slice(0, subsetCount)),
    shipped: { id: 'shipped', name: 'shipped content/', contentDir: shippedContent },
  };
}

async function buildAndMeasure(
  set: ContentSet,
  options: BenchOptions,
  workspace: Workspace,
): Promise<SetMeasurement> {
  console.log(`\nBuilding ${set.name}...`);
  const run = await buildSet(set, options, workspace, true);
  console.log(`  built in ${run.wallSeconds.toFixed(1)} s; measuring the output...`);
  return measureSet(set.name, join(workspace.dir, set.id, 'out'), run, summarizeLog(run.log));
}

/** Builds a set in its own folders: `full`, or incrementally on top of its last build. */
function buildSet(set: ContentSet, options: BenchOptions, workspace: Workspace, full: boolean) {
  return runBuild({
    projectRoot: root,
    buildDate: options.buildDate,
    contentDir: set.contentDir,
    outDir: join(workspace.dir, set.id, 'out'),
    cacheDir: join(workspace.dir, set.id, 'cache'),
    rssFile: join(workspace.dir, set.id, full ? 'rss.jsonl' : 'rss-incremental.jsonl'),
    full,
  });
}

/**
 * Edits the full set's ads three times, as an editor would, and times the incremental build after
 * each: one ad's title changed, one ad added, that ad removed again.
 */
async function rebuildAfterAdEdits(
  set: ContentSet,
  options: BenchOptions,
  workspace: Workspace,
): Promise<string> {
  const file = join(set.contentDir, 'ads', 'California.csv');
  const original = readFileSync(file, 'utf8');
  const [header, first] = splitCsvRecords(original)!;
  const ad = parse(`${header!.text}\n${first!.text}`, { columns: true })[0] as Record<
    string,
    string
  >;
  const row = (fields: Record<string, string>) =>
    stringify([fields], { columns: Object.keys(ad) }).trimEnd();
  const changed = original.replace(
    first!.text,
    row({ ...ad, title: 'A changed title for the incremental benchmark' }),
  );
  const added = `${changed.trimEnd()}\n${row({ ...ad, id: String(NEW_AD_ID), title: 'A new ad for the incremental benchmark' })}\n`;
  const edits: Array<[string, string]> = [
    ["one ad's title changed", changed],
    ['one ad added', added],
    ['that ad removed', changed],
  ];
  const rows: string[][] = [];
  const logs: string[] = [];
  for (const [edit, text] of edits) {
    writeFileSync(file, text);
    console.log(`\nRebuilding the full set after this edit: ${edit}...`);
    const run = await buildSet(set, options, workspace, false);
    const prerendered = run.log.find((line) => /^Prerendered/.test(line)) ?? '';
    const [, written = '?', removed = '?'] =
      /(\d+) written, \d+ unchanged, (\d+) removed/.exec(prerendered) ?? [];
    rows.push([
      edit,
      run.wallSeconds.toFixed(1),
      written,
      removed,
      (Math.max(...run.peakRss.values()) / 1e6).toFixed(0),
      (run.peakTreeRss / 1e6).toFixed(0),
    ]);
    logs.push(
      `${edit}:`,
      ...run.log
        .filter((entry) => /^(Compiled|Prerendered|Build finished|• Client)/.test(entry))
        .map((line) => `  ${line}`),
    );
  }
  return [
    'Each edit in `ads/California.csv` of the full set, then `npm run build` (no `--full`) on the last build:',
    '',
    '| edit | wall s | pages written | pages removed | largest process MB | all at once MB |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    '```text',
    ...logs,
    '```',
  ].join('\n');
}

function report(results: SetMeasurement[], options: BenchOptions, workspace: Workspace): string {
  const [full, subset] = results as [SetMeasurement, SetMeasurement, ...SetMeasurement[]];
  return [
    machineFacts(options, workspace),
    '### Build time, pages and memory',
    summaryTable(results),
    memoryDifference(full, subset),
    ...results.flatMap((set) => [`### Page weight: ${set.name}`, pageTypeTable(set)]),
    '### Checks',
    results.map((set) => `- ${countCheck(set)}`).join('\n'),
    'What the prerender step printed:',
    ['```text', ...results.map(prerenderLine), '```'].join('\n'),
  ].join('\n\n');
}

function prerenderLine(set: SetMeasurement): string {
  return `${set.name}: ${set.summary.prerenderLine ?? '(nothing)'}`;
}

function machineFacts(options: BenchOptions, workspace: Workspace): string {
  const now = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const output = workspace.onTmpfs ? '/dev/shm (tmpfs)' : 'disk';
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const memory = (totalmem() / 1024 ** 3).toFixed(1);
  const nproc = availableParallelism();
  return [
    `- Run on ${now} UTC: seed ${options.seed}, build date ${options.buildDate}, ` +
      `output on ${output}.`,
    `- Machine: nproc ${nproc} (${cpu}), ${memory} GiB memory, Node ${process.version}.`,
  ].join('\n');
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
