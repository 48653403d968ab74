// The benchmark (`npm run bench`, scripts/bench.ts): builds a 100,000-ad site, a 20,000-page site
// and the shipped content on tmpfs, then rebuilds the first after one ad is changed, added and
// removed, and reports time (by step), throughput, memory, output size and page weight; see
// docs/benchmarks.md. With --ads N or --layout, builds only the full set, of N ads split into files
// that way (one a state, one in all, or about 5,000 small ones), and rebuilds it after the edits.
import { join } from 'node:path';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import {
  adsForPageTarget,
  benchAdStream,
  FIRST_AD_ID,
  generateBenchAds,
  readWeightedCities,
} from './ads.ts';
import { runBuild, summarizeLog } from './build.ts';
import { appendRow, cutBackTo, firstRow, replaceFirstRow, writeContentSet } from './content.ts';
import { writeBenchmarksDoc } from './docs.ts';
import { measureSet, type SetMeasurement } from './measure.ts';
import { parseBenchOptions, type BenchOptions } from './options.ts';
import {
  countCheck,
  countProblem,
  memoryDifference,
  pageTypeTable,
  seconds,
  summaryTable,
} from './report.ts';
import { createWorkspace, type Workspace } from './workspace.ts';

const root = join(import.meta.dirname, '..');
const shippedContent = join(root, 'content');
const SUBSET_PAGES = 20_000;

interface ContentSet {
  name: string;
  /** Folder name inside the workspace. */
  id: string;
  contentDir: string;
  /** The ads file the incremental runs edit. */
  editedFile?: string;
}

const started = performance.now();
/** The machine's load when the run starts: other work on it slows the builds down. */
const loadAtStart = loadavg();
const options = parseBenchOptions(process.argv.slice(2));
const workspace = createWorkspace();
process.once('SIGINT', () => {
  workspace.remove();
  process.exit(130);
});
try {
  announce(options, workspace);
  if (options.scale) await scaleRun(options, workspace);
  else await standardRun(options, workspace);
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

/** The three sets, the incremental edits of the full one; figures between the bench:start markers. */
async function standardRun(options: BenchOptions, workspace: Workspace): Promise<void> {
  const sets = prepareContentSets(options, workspace);
  const measured = new Map<string, SetMeasurement>();
  // The shipped set goes first: it warms tsx's and the OS's caches for the large ones.
  for (const set of [sets.shipped, sets.subset, sets.full]) {
    measured.set(set.id, await buildAndMeasure(set, options, workspace));
  }
  const results = [sets.full, sets.subset, sets.shipped].map((set) => measured.get(set.id)!);
  const incremental = await rebuildAfterAdEdits(sets.full, options, workspace);
  const [full, subset] = results as [SetMeasurement, SetMeasurement, ...SetMeasurement[]];
  const figures = [
    report(results, options, workspace, memoryDifference(full, subset)),
    `### Incremental rebuild of the full set\n\n${incremental}`,
  ].join('\n\n');
  publish(figures, results);
}

/** One set of --ads N ads in --layout, and its incremental edits; figures between their own markers. */
async function scaleRun(options: BenchOptions, workspace: Workspace): Promise<void> {
  const cities = readWeightedCities(shippedContent);
  const set: ContentSet = {
    id: 'full',
    name: `${count(options.ads)} ads, ${options.layout}`,
    contentDir: join(workspace.dir, 'full', 'content'),
  };
  const started = performance.now();
  const ads = benchAdStream({
    contentDir: shippedContent,
    cities,
    seed: options.seed,
    count: options.ads,
    buildDate: options.buildDate,
  });
  const files = writeContentSet(shippedContent, set.contentDir, ads, options.ads, options.layout);
  set.editedFile = files.includes('California.csv') ? 'California.csv' : files[0];
  console.log(
    `Generated ${count(options.ads)} ads over ${count(cities.length)} cities into ` +
      `${count(files.length)} ${files.length === 1 ? 'file' : 'files'} ` +
      `(${options.layout}) in ${((performance.now() - started) / 1000).toFixed(0)} s.`,
  );
  const result = await buildAndMeasure(set, options, workspace);
  const incremental = await rebuildAfterAdEdits(set, options, workspace);
  const figures = [
    report([result], options, workspace),
    `### Incremental rebuild of ${set.name}\n\n${incremental}`,
  ].join('\n\n');
  publish(figures, [result], `${options.ads} ${options.layout}`);
}

/** Prints the figures and writes them into docs/benchmarks.md, unless the counts do not add up. */
function publish(figures: string, results: readonly SetMeasurement[], key?: string): void {
  console.log(`\n${figures}\n`);
  if (results.some(countProblem)) {
    console.error('The page counts do not add up (see Checks): docs/benchmarks.md left as it was.');
    process.exitCode = 1;
  } else {
    writeBenchmarksDoc(join(root, 'docs', 'benchmarks.md'), figures, key);
    console.log('Wrote the figures to docs/benchmarks.md.');
  }
}

function prepareContentSets(options: BenchOptions, workspace: Workspace) {
  const cities = readWeightedCities(shippedContent);
  const request = { contentDir: shippedContent, cities, seed: options.seed };
  const ads = generateBenchAds({ ...request, count: options.ads, buildDate: options.buildDate });
  const subsetCount = adsForPageTarget(ads, cities, SUBSET_PAGES);
  console.log(
    `Generated ${count(ads.length)} ads over ${count(cities.length)} cities; the ` +
      `${count(SUBSET_PAGES)}-page set takes the first ${count(subsetCount)}.`,
  );
  const write = (id: string, name: string, subsetAds: typeof ads): ContentSet => {
    const contentDir = join(workspace.dir, id, 'content');
    writeContentSet(shippedContent, contentDir, subsetAds, subsetAds.length, 'per-state');
    return { id, name, contentDir, editedFile: 'California.csv' };
  };
  return {
    full: write('full', `full (${count(ads.length)} ads)`, ads),
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
 * Edits the set's ads three times, as an editor would, and times the incremental build after
 * each: one ad's title changed, one ad added, that ad removed again. The edits copy the file a few
 * MB at a time: one file of a million ads is more than a JavaScript string may hold.
 */
async function rebuildAfterAdEdits(
  set: ContentSet,
  options: BenchOptions,
  workspace: Workspace,
): Promise<string> {
  const fileName = set.editedFile ?? 'California.csv';
  const file = join(set.contentDir, 'ads', fileName);
  const { row } = firstRow(file);
  // The generated ads have ids from 100,000 on: the added ad's id is past them.
  const newId = String(Math.max(9_999_999, FIRST_AD_ID + options.ads));
  let sizeBefore = 0;
  const edits: Array<[string, () => void]> = [
    [
      "one ad's title changed",
      () =>
        replaceFirstRow(file, { ...row, title: 'A changed title for the incremental benchmark' }),
    ],
    [
      'one ad added',
      () => {
        sizeBefore = appendRow(file, {
          ...row,
          id: newId,
          title: 'A new ad for the incremental benchmark',
        });
      },
    ],
    ['that ad removed', () => cutBackTo(file, sizeBefore)],
  ];
  const rows: string[][] = [];
  const logs: string[] = [];
  for (const [edit, apply] of edits) {
    apply();
    console.log(`\nRebuilding ${set.name} after this edit: ${edit}...`);
    const run = await buildSet(set, options, workspace, false);
    const prerendered = run.log.find((line) => /^Prerendered/.test(line)) ?? '';
    const [, written = '?', removed = '?'] =
      /(\d+) written, \d+ unchanged, (\d+) removed/.exec(prerendered) ?? [];
    rows.push([
      edit,
      run.wallSeconds.toFixed(1),
      seconds(run.stepSeconds.get('content')),
      seconds(run.stepSeconds.get('pages')),
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
    `Each edit in \`ads/${fileName}\` of the set, then \`npm run build\` (no \`--full\`) on the last build:`,
    '',
    '| edit | wall s | content s | pages s | pages written | pages removed | largest process MB | all at once MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    '```text',
    ...logs,
    '```',
  ].join('\n');
}

function report(
  results: SetMeasurement[],
  options: BenchOptions,
  workspace: Workspace,
  ...notes: string[]
): string {
  return [
    machineFacts(options, workspace),
    '### Build time, pages and memory',
    summaryTable(results),
    ...notes,
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
    `- Machine: nproc ${nproc} (${cpu}), ${memory} GiB memory, Node ${process.version}; ` +
      `load average (1, 5, 15 min) ${loadText(loadAtStart)} at the start, ` +
      `${loadText(loadavg())} at the end (above 0 means other work shared the cores).`,
  ].join('\n');
}

function loadText(load: number[]): string {
  return load.map((value) => value.toFixed(1)).join(', ');
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
