// `npm run bench:versus -- --before REF [--after REF] [--ads N] [--rounds R] [--loop-seconds S]`:
// two commits' full builds of the same generated site, alternated in one run (before, after,
// after, before, … so that a drift of the machine's speed weighs on both alike), each followed by
// the one-core React loop (bench/react-loop.mjs). A build's pages a second divided by the loop's
// is the figure that compares across runs on a machine whose speed varies; wall time, CPU time
// (user + system) and the most memory held at once are printed beside it.
// Each commit is checked out into the workspace (`git worktree add --detach`), with this
// checkout's node_modules and .node linked in: a commit whose dependencies are not those of this
// checkout (or a subset) cannot be compared this way. Each generates its ads with its own generator
// (same seed and date), since the ads file's columns change between commits. The pages are
// written on tmpfs (bench/workspace.ts): about 8 GB at a million ads.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runBuild, summarizeLog, type BuildRun } from './build.ts';
import { DEFAULT_BUILD_DATE } from './options.ts';
import { createWorkspace } from './workspace.ts';

const root = join(import.meta.dirname, '..');
const USAGE =
  'usage: npm run bench:versus -- --before REF [--after REF] [--ads N] [--rounds R] ' +
  '[--loop-seconds S]';

interface Side {
  name: 'before' | 'after';
  commit: string;
  checkout: string;
  contentDir: string;
}

interface Round {
  side: Side;
  run: BuildRun;
  pages: number;
  loopPagesPerSecond: number;
}

const options = parseOptions(process.argv.slice(2));
const workspace = createWorkspace();
try {
  const sides = (['before', 'after'] as const).map((name) => prepareSide(name, options[name]));
  const rounds: Round[] = [];
  // ABBA: before, after, after, before, then again.
  const order = Array.from({ length: options.rounds }, (_, index) =>
    index % 2 === 0 ? sides : [...sides].reverse(),
  ).flat();
  for (const [index, side] of order.entries()) {
    console.log(`\nRound ${index + 1} of ${order.length}: ${side.name} (${side.commit})`);
    rounds.push(await buildOnce(side));
  }
  console.log(`\n${table(rounds)}`);
} finally {
  for (const name of ['before', 'after']) {
    spawnSync('git', ['worktree', 'remove', '--force', join(workspace.dir, name)], { cwd: root });
  }
  workspace.remove();
}

function prepareSide(name: 'before' | 'after', ref: string): Side {
  const checkout = join(workspace.dir, name);
  const commit = git(['rev-parse', '--short', `${ref}^{commit}`]);
  git(['worktree', 'add', '--detach', checkout, commit]);
  for (const linked of ['node_modules', '.node']) {
    if (existsSync(join(root, linked))) symlinkSync(join(root, linked), join(checkout, linked));
  }
  const generated = join(workspace.dir, `${name}-generated`);
  const started = performance.now();
  const generate = spawnSync(
    process.execPath,
    [
      ...['--import', 'tsx', '--input-type=module', '-e'],
      "import { writeGeneratedContent } from './bench/generated-site.ts';" +
        'const [dir, ads, date] = process.argv.slice(1);' +
        'writeGeneratedContent(dir, Number(ads), date);',
      ...[generated, String(options.ads), DEFAULT_BUILD_DATE],
    ],
    { cwd: checkout, stdio: 'inherit' },
  );
  if (generate.status !== 0) throw new Error(`${name} (${commit}) could not generate its ads`);
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `${name} is ${commit}; generated ${options.ads} ads with its generator in ${seconds} s`,
  );
  return { name, commit, checkout, contentDir: join(generated, 'content') };
}

async function buildOnce(side: Side): Promise<Round> {
  const outDir = join(workspace.dir, 'out');
  const cacheDir = join(workspace.dir, 'cache');
  rmSync(outDir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
  const run = await runBuild({
    projectRoot: side.checkout,
    buildDate: DEFAULT_BUILD_DATE,
    contentDir: side.contentDir,
    outDir,
    cacheDir,
    rssFile: join(workspace.dir, `${side.name}-rss.jsonl`),
  });
  rmSync(outDir, { recursive: true, force: true });
  const pages = summarizeLog(run.log).prerenderedPages ?? Number.NaN;
  const loop = spawnSync(
    process.execPath,
    [join(root, 'bench/react-loop.mjs'), String(options.loopSeconds)],
    { cwd: root, env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8' },
  );
  const { loopPagesPerSecond } = JSON.parse(loop.stdout) as { loopPagesPerSecond: number };
  console.log(`  the loop after it: ${loopPagesPerSecond} pages/s`);
  return { side, run, pages, loopPagesPerSecond };
}

function table(rounds: readonly Round[]): string {
  const lines = [
    `${options.ads} generated ads, full builds on ${workspace.onTmpfs ? 'tmpfs' : 'disk'}, ` +
      'in this order:',
    '',
    '| round | commit | pages | wall s | content s | pages s | CPU s | most held at once MB | ' +
      'loop pages/s | build pages/s ÷ loop |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [index, { side, run, pages, loopPagesPerSecond }] of rounds.entries()) {
    const ratio = pages / run.wallSeconds / loopPagesPerSecond;
    lines.push(
      `| ${index + 1}, ${side.name} | ${side.commit} | ${pages} | ${run.wallSeconds.toFixed(1)} | ` +
        `${(run.stepSeconds.get('content') ?? 0).toFixed(1)} | ` +
        `${(run.stepSeconds.get('pages') ?? 0).toFixed(1)} | ${run.cpuSeconds.toFixed(1)} | ` +
        `${(run.peakTreeHeld / 1e6).toFixed(0)} | ${loopPagesPerSecond} | ${ratio.toFixed(3)}× |`,
    );
  }
  return lines.join('\n');
}

function parseOptions(argv: readonly string[]) {
  const found = { before: '', after: 'HEAD', ads: 1_000_000, rounds: 2, loopSeconds: 20 };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    const value = argv[++index];
    if (value === undefined) throw new Error(`${flag} needs a value\n${USAGE}`);
    if (flag === '--before') found.before = value;
    else if (flag === '--after') found.after = value;
    else if (flag === '--ads') found.ads = wholeNumber(flag, value);
    else if (flag === '--rounds') found.rounds = wholeNumber(flag, value);
    else if (flag === '--loop-seconds') found.loopSeconds = wholeNumber(flag, value);
    else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  if (!found.before) throw new Error(`--before is needed\n${USAGE}`);
  return found;
}

function wholeNumber(flag: string, value: string): number {
  const number = Number(value.replace(/[_,]/g, ''));
  if (!Number.isSafeInteger(number) || number < 1)
    throw new Error(`${flag} needs a whole number, 1 or more (got ${value})\n${USAGE}`);
  return number;
}

function git(args: string[]): string {
  const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}
