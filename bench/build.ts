// Runs `scripts/build.mjs` (what `npm run build` runs) as a child process, the way a user would,
// and measures it from the outside: wall time end to end, the peak RSS each process reports into
// BENCH_RSS_FILE, and the most memory all its processes held at once (bench-tree-rss.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { sampleTreeRss } from './tree-rss.ts';

export interface BuildRequest {
  projectRoot: string;
  buildDate: string;
  contentDir: string;
  outDir: string;
  cacheDir: string;
  /** Where the build's processes append their `{step, peakRssBytes}` lines. */
  rssFile: string;
  /** false: an incremental build on top of the last one in the same folders. Default true. */
  full?: boolean;
}

export interface BuildRun {
  wallSeconds: number;
  /** Seconds from each step's start to the next one's (by the build's "• …" lines), in order. */
  stepSeconds: Map<string, number>;
  /**
   * Peak RSS in bytes by step (short name): for the build's own steps, the most its processes held
   * (summed) while the step ran, sampled, since the build's process becomes each step in turn
   * (pipeline/hand-over.ts) and a process's own peak (ru_maxrss) carries over; for any other
   * process, its own peak as it reported it.
   */
  peakRss: Map<string, number>;
  /** The most resident memory of all the build's processes at one moment (sampled), in bytes. */
  peakTreeRss: number;
  /** The most all its processes held at once, each file's pages counted once (tree-rss.ts). */
  peakTreeHeld: number;
  /** CPU time (user + system) of all its processes, threads included, in seconds (sampled). */
  cpuSeconds: number;
  /** Everything the build printed, stdout and stderr. */
  log: string[];
}

/** Short names for the steps build.ts runs; other steps keep their own name. */
const STEP_NAMES: Record<string, string> = {
  'Compiling content': 'content',
  'Building client assets (Vite + Vike)': 'vite',
  'Prerendering pages': 'pages',
};
/** The steps whose work grows with the content (Vite's does not). */
export const CONTENT_STEPS = ['content', 'pages'];
/** The build's own process reports under its script path, scripts/build.mjs (it has no BUILD_STEP). */
const ORCHESTRATOR = 'build';
/** Column order of the known steps: the order they run in, the orchestrator last. */
export const KNOWN_STEPS = [...Object.values(STEP_NAMES), ORCHESTRATOR];

export async function runBuild(request: BuildRequest): Promise<BuildRun> {
  mkdirSync(dirname(request.rssFile), { recursive: true });
  const started = performance.now();
  const { code, log, times, peakTreeRss, peakTreeHeld, peakByPhase, cpuSeconds } = await runNode(
    request.projectRoot,
    buildArguments(request),
    { ...process.env, BENCH_RSS_FILE: request.rssFile },
  );
  const ended = performance.now();
  const wallSeconds = (ended - started) / 1000;
  if (code !== 0) {
    const tail = log.slice(-30).join('\n');
    throw new Error(`the build exited with code ${code}; its last lines:\n${tail}`);
  }
  return {
    wallSeconds,
    stepSeconds: stepSeconds(log, times, ended),
    peakRss: stepPeaks(peakByPhase, readPeakRss(request.rssFile)),
    peakTreeRss,
    peakTreeHeld,
    cpuSeconds,
    log,
  };
}

/** The lines that start each step (pipeline/build.ts), by the step's short name. */
const STEP_STARTS: Array<[RegExp, string]> = [
  [/^• Compiling content/, 'content'],
  [/^• (Building client assets|Client assets are up to date)/, 'vite'],
  [/^• Prerendering pages/, 'pages'],
];

/** Each step's seconds, from the time its first line arrived to the next step's (or the end). */
function stepSeconds(log: readonly string[], times: readonly number[], ended: number) {
  const starts: Array<[string, number]> = [];
  log.forEach((line, index) => {
    const step = STEP_STARTS.find(([pattern]) => pattern.test(line))?.[1];
    if (step) starts.push([step, times[index]!]);
  });
  const finished = log.findIndex((line) => /^Build finished/.test(line));
  const end = finished === -1 ? ended : times[finished]!;
  return new Map(
    starts.map(([step, at], index) => [step, ((starts[index + 1]?.[1] ?? end) - at) / 1000]),
  );
}

function buildArguments(request: BuildRequest): string[] {
  const reporter = join(request.projectRoot, 'bench/report-peak-rss.mjs');
  // Preloading the reporter into build.ts itself measures the orchestrating process too.
  const preload = existsSync(reporter) ? ['--import', reporter] : [];
  return [
    ...preload,
    'scripts/build.mjs',
    ...['--date', request.buildDate],
    ...['--content', request.contentDir],
    ...['--out', request.outDir],
    ...['--cache', request.cacheDir],
    ...(request.full === false ? [] : ['--full']),
  ];
}

/** Runs node with `args` in `cwd`, echoing its output indented; collects the lines and when each came. */
function runNode(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{
  code: number | null;
  log: string[];
  times: number[];
  peakTreeRss: number;
  peakTreeHeld: number;
  peakByPhase: Map<string, number>;
  cpuSeconds: number;
}> {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // The step running: the build's last "• Step" line.
  let phase = 'start';
  const sampler = sampleTreeRss(child.pid!, undefined, undefined, () => phase);
  const log: string[] = [];
  const times: number[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      log.push(line);
      times.push(performance.now());
      if (line.startsWith('• ')) phase = line.slice(2);
      console.log(`    | ${line}`);
    });
  }
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const peakTreeRss = sampler.stop();
      console.log(
        `    all processes at once: at most ${(peakTreeRss / 1e6).toFixed(0)} MB (during ${sampler.peakPhase()}), ` +
          `${(sampler.held() / 1e6).toFixed(0)} MB held (each file once)`,
      );
      resolve({
        code,
        log,
        times,
        peakTreeRss,
        peakTreeHeld: sampler.held(),
        peakByPhase: sampler.peakByPhase(),
        cpuSeconds: sampler.cpuSeconds(),
      });
    });
  });
}

/** The build's steps' sampled peaks, then what other processes reported of themselves. */
function stepPeaks(sampled: Map<string, number>, reported: Map<string, number>) {
  const steps = new Set(Object.values(STEP_NAMES));
  const peaks = new Map<string, number>();
  for (const [phase, bytes] of sampled) {
    const name = stepName(phase);
    if (steps.has(name)) peaks.set(name, Math.max(peaks.get(name) ?? 0, bytes));
  }
  for (const [name, bytes] of reported) if (!steps.has(name)) peaks.set(name, bytes);
  return peaks;
}

function readPeakRss(rssFile: string): Map<string, number> {
  const peaks = new Map<string, number>();
  if (!existsSync(rssFile)) return peaks;
  for (const line of readFileSync(rssFile, 'utf8').split('\n').filter(Boolean)) {
    const { step, peakRssBytes } = JSON.parse(line) as { step: string; peakRssBytes: number };
    const name = stepName(step);
    peaks.set(name, Math.max(peaks.get(name) ?? 0, peakRssBytes));
  }
  return peaks;
}

function stepName(step: string): string {
  if (STEP_NAMES[step]) return STEP_NAMES[step];
  return step.endsWith('build.mjs') ? ORCHESTRATOR : step;
}

/** The numbers the build prints about itself, when it does (for checking our counts). */
export interface BuildSummary {
  liveAds?: number;
  prerenderedPages?: number;
  prerenderLine?: string;
}

export function summarizeLog(log: readonly string[]): BuildSummary {
  const compiled = log.map((line) => /(\d+) live ads/.exec(line)).find(Boolean);
  const prerenderLine = log.find((line) => /^Prerendered \d+ pages/.test(line));
  const prerendered = prerenderLine ? /^Prerendered (\d+) pages/.exec(prerenderLine) : null;
  return {
    liveAds: compiled ? Number(compiled[1]) : undefined,
    prerenderedPages: prerendered ? Number(prerendered[1]) : undefined,
    prerenderLine,
  };
}
