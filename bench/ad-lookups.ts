// Finding an ad by id on the real server (`npm run bench:server -- --lookups`, bench/server.ts):
// `/report?ad=ID` and `/messages/new?ad=ID` for editors' ads (the generated CSV ads), which the
// server finds in the compiled content by id alone (core/content/ad-by-id.ts). Generates N ads
// (default 1,000,000; bench/ads.ts, one CSV a state) on tmpfs and compiles them with the build's
// content step (scripts/compile-content.ts under the build's heap cap), which writes the id index.
// Then two servers of the worktree's build ({out}/server/serve.mjs) on that content, one after the
// other, each asked the same 1,000 lookups one at a time (500 of each page, ids drawn at random
// over all the ads) by a signed-in member:
// - before: the id index moved aside, so the server finds ads as it did before the index existed
//   (every city's ids read on the first lookup and kept, then the ad's whole city read);
// - after: with the id index.
// Latency from sending to the last byte (p50, p99, max, the first lookup alone), the server's own
// time for each (its request log, which the load generator's share of the cores does not touch),
// and its resident memory (VmRSS before and after the lookups, and its peak VmHWM while they
// ran); into docs/benchmarks.md (## Finding an ad by id). Nothing is sent anywhere but 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../store/open-store.ts';
import { findPublishedAd } from '../core/content/ad-by-id.ts';
import { adIdIndexFile } from '../core/content/ad-id-index-file.ts';
import { getSite, useCompiledContentDir } from '../core/content/index.ts';
import { FIRST_AD_ID } from './ads.ts';
import {
  compileGeneratedContent,
  ensureServerBuild,
  writeGeneratedAds,
} from './compile-generated.ts';
import { writeDocSection } from './docs.ts';
import { DEFAULT_BUILD_DATE, DEFAULT_SEED } from './options.ts';
import { mulberry32 } from './seeded-random.ts';
import { freePort, stopServer, waitForServer } from './server-process.ts';
import { createWorkspace } from './workspace.ts';

const root = join(import.meta.dirname, '..');
const HOST = '127.0.0.1';
const START = '<!-- bench-ad-lookups:start -->';
const END = '<!-- bench-ad-lookups:end -->';
const HEADING = '## Finding an ad by id';
const PAGES = ['/report?ad=', '/messages/new?ad='] as const;

export interface AdLookupOptions {
  ads: number;
  lookups: number;
  write: boolean;
  keep: boolean;
}

interface Phase {
  name: string;
  /** Milliseconds a lookup, by page, in the order asked. */
  latencies: Map<(typeof PAGES)[number], number[]>;
  first: number;
  rssBefore: number;
  rssAfter: number;
  peak: number;
  /** Load average (1 min) as the lookups began. */
  load: number;
  /** The server's own milliseconds for each lookup, from its request log (whole ms). */
  serverMs: number[];
}

export async function benchAdLookups(options: AdLookupOptions): Promise<void> {
  const workspace = createWorkspace();
  const contentDir = join(workspace.dir, 'content');
  const compiledDir = join(workspace.dir, 'compiled');
  const loadBefore = loadavg();
  try {
    console.log(`Working in ${workspace.dir}${workspace.onTmpfs ? ' (tmpfs)' : ''}.`);
    ensureServerBuild();
    const generated = performance.now();
    writeGeneratedAds(contentDir, options.ads);
    const generateSeconds = (performance.now() - generated) / 1000;
    console.log(
      `Generated ${options.ads.toLocaleString('en-US')} ads in ${generateSeconds.toFixed(0)} s.`,
    );

    const compiled = performance.now();
    const compileLine = compileGeneratedContent({
      contentDir,
      compiledDir,
      databasePath: join(workspace.dir, 'no-member-ads.sqlite'),
    });
    const compileSeconds = (performance.now() - compiled) / 1000;
    console.log(`  ${compileLine}`);
    const index = adIdIndexFile(compiledDir);
    const indexBytes = statSync(index).size;

    const ids = lookupIds(options.ads, options.lookups);
    // The lookup alone, in this process: with the index, then without it (the fallback keeps
    // what it read in this process, so it goes last).
    useCompiledContentDir(compiledDir);
    // content.json read first, as the server has it from its start.
    getSite();
    const lookupAfter = timeLookups(ids);
    renameSync(index, `${index}.aside`);
    const lookupBefore = timeLookups(ids);
    // Before: the server as it was, without the index (it falls back to reading every city).
    const before = await measure(
      'before (no id index)',
      ids,
      workspace.dir,
      compiledDir,
      contentDir,
    );
    renameSync(`${index}.aside`, index);
    const after = await measure('after (id index)', ids, workspace.dir, compiledDir, contentDir);

    const figures = report(options, {
      phases: [before, after],
      lookups: [
        ['before (no id index)', lookupBefore],
        ['after (id index)', lookupAfter],
      ],
      generateSeconds,
      compileSeconds,
      indexBytes,
      loadBefore,
      onTmpfs: workspace.onTmpfs,
    });
    console.log(`\n${figures}\n`);
    if (options.write) {
      writeDocSection(
        join(root, 'docs', 'benchmarks.md'),
        { start: START, end: END, heading: HEADING },
        figures,
      );
      console.log(`Wrote the figures to docs/benchmarks.md (${HEADING}).`);
    }
  } finally {
    if (!options.keep) workspace.remove();
    else console.log(`Kept ${workspace.dir}.`);
  }
}

/** Milliseconds of findPublishedAd for each id, in this process (every id must be found). */
function timeLookups(ids: readonly number[]): number[] {
  return ids.map((id) => {
    const started = performance.now();
    const ad = findPublishedAd(id);
    const ms = performance.now() - started;
    if (ad?.id !== id) throw new Error(`findPublishedAd(${id}) did not find the ad`);
    return ms;
  });
}

/** `count` ids drawn over every generated ad (all live on the build date), the same every run. */
function lookupIds(ads: number, count: number): number[] {
  const next = mulberry32(DEFAULT_SEED);
  return Array.from({ length: count }, () => FIRST_AD_ID + Math.floor(next() * ads));
}

async function measure(
  name: string,
  ids: readonly number[],
  workDir: string,
  compiledDir: string,
  contentDir: string,
): Promise<Phase> {
  const dataDir = join(workDir, `server-${name.split(' ')[0]}`);
  mkdirSync(join(dataDir, 'outbox'), { recursive: true });
  const databasePath = join(dataDir, 'bench.sqlite');
  await openSqliteStore(databasePath).close();
  const port = await freePort(HOST);
  const child = startServer(port, { compiledDir, contentDir, databasePath, dataDir });
  // The request log (server/http/middleware/request-log.ts): one line a request, with its duration.
  const serverMs: number[] = [];
  let counting = false;
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop()!;
    for (const line of lines) {
      const took = / GET \/(?:report|messages\/new) 200 (\d+)ms$/.exec(line);
      if (counting && took) serverMs.push(Number(took[1]));
    }
  });
  try {
    const base = `http://${HOST}:${port}`;
    await waitForServer(base, child, 300);
    const session = await signUp(base);
    // The server has started and answered a page: its memory before any lookup. The peak is
    // counted from here (the sign-up's password hash takes 64 MiB for a moment).
    await fetch(`${base}/`).then((response) => response.text());
    writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
    const rssBefore = memoryOf(child.pid!).rss;
    const load = loadavg()[0]!;
    const latencies = new Map(PAGES.map((page) => [page, [] as number[]]));
    let first = NaN;
    counting = true;
    for (const [index, id] of ids.entries()) {
      const page = PAGES[index % PAGES.length]!;
      const started = performance.now();
      const response = await fetch(`${base}${page}${id}`, { headers: { cookie: session } });
      const html = await response.text();
      const ms = performance.now() - started;
      if (response.status !== 200 || !html.includes('</html>'))
        throw new Error(`${page}${id} answered ${response.status}`);
      // The ad was found: a report form about it, or the reply screen saying nobody is behind it.
      if (!html.includes('name="reason"') && !html.includes('nothing you write here would be'))
        throw new Error(`${page}${id} did not find the ad`);
      if (index === 0) first = ms;
      latencies.get(page)!.push(ms);
    }
    const { rss, peak } = memoryOf(child.pid!);
    console.log(
      `  ${name}: first ${first.toFixed(0)} ms, p99 ${percentile(
        [...latencies.values()].flat().sort((a, b) => a - b),
        99,
      ).toFixed(1)} ms, RSS ${mb(rssBefore)} → ${mb(rss)} MB (peak ${mb(peak)} MB)`,
    );
    // The last lines of the log reach this process a moment after the last answer.
    for (let wait = 0; serverMs.length < ids.length && wait < 50; wait += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return { name, latencies, first, rssBefore, rssAfter: rss, peak, load, serverMs };
  } finally {
    await stopServer(child, 5_000);
  }
}

/** A member (the reply screen is for members): signed up over HTTP, its session cookie. */
async function signUp(base: string): Promise<string> {
  const response = await fetch(`${base}/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `bench-lookups-${process.pid}@example.com`,
      password: 'bench lookups password',
      dateOfBirth: '1990-05-17',
    }),
  });
  if (response.status !== 201) throw new Error(`The sign-up answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1]);
  return { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

/** p50 / p99 of the server's own times (its request log: whole milliseconds). */
function serverTimes(times: readonly number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `${percentile(sorted, 50)} / ${percentile(sorted, 99)}`;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

function report(
  options: AdLookupOptions,
  run: {
    phases: Phase[];
    lookups: [string, number[]][];
    generateSeconds: number;
    compileSeconds: number;
    indexBytes: number;
    loadBefore: number[];
    onTmpfs: boolean;
  },
): string {
  const fmt = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));
  const loadAfter = loadavg();
  const lines = [
    `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${options.ads.toLocaleString('en-US')} generated editors' ads (seed ${DEFAULT_SEED}, build date ${DEFAULT_BUILD_DATE}, one CSV a state), on ${run.onTmpfs ? '/dev/shm (tmpfs)' : 'disk'}; generated in ${run.generateSeconds.toFixed(0)} s, compiled (the content step, heap capped at 160 MB, search index included) in ${run.compileSeconds.toFixed(0)} s; the id index is ${(run.indexBytes / 2 ** 20).toFixed(1)} MB.`,
    `- Machine: nproc ${cpus().length} (${cpus()[0]?.model.split(' ').slice(0, 2).join(' ')}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}, **shared** with other work; load average ${run.loadBefore.map((v) => v.toFixed(1)).join(', ')} at the start, ${loadAfter.map((v) => v.toFixed(1)).join(', ')} at the end.`,
    `- Each server (\`{out}/server/serve.mjs\`, started afresh on that content) is asked ${options.lookups.toLocaleString('en-US')} lookups one at a time by a signed-in member, alternately \`/report?ad=ID\` and \`/messages/new?ad=ID\`, ids drawn at random over all the ads (the same in both runs); whole page received. Target: p99 under 20 ms.`,
    '',
    '| server | load before | first lookup ms | p50 ms | p99 ms | max ms | `/report` p99 ms | `/messages/new` p99 ms | in the server: p50 / p99 ms | RSS before MB | RSS after MB | peak RSS during MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const phase of run.phases) {
    const all = [...phase.latencies.values()].flat().sort((a, b) => a - b);
    const p99Of = (page: (typeof PAGES)[number]) =>
      percentile(
        [...phase.latencies.get(page)!].sort((a, b) => a - b),
        99,
      );
    lines.push(
      `| ${phase.name} | ${phase.load.toFixed(1)} | ${fmt(phase.first)} | ${fmt(percentile(all, 50))} | ${fmt(percentile(all, 99))} | ${fmt(all.at(-1)!)} | ${fmt(p99Of('/report?ad='))} | ${fmt(p99Of('/messages/new?ad='))} | ${serverTimes(phase.serverMs)} | ${mb(phase.rssBefore)} | ${mb(phase.rssAfter)} | ${mb(phase.peak)} |`,
    );
  }
  const micro = (ms: number) => (ms * 1000).toFixed(0);
  lines.push(
    '',
    `The lookup alone (\`findPublishedAd\` on the same ${options.lookups.toLocaleString('en-US')} ids in the benchmark's process: no HTTP, no page), µs:`,
    '',
    '| lookup | first | p50 | p99 | max |',
    '|---|---:|---:|---:|---:|',
    ...run.lookups.map(([name, times]) => {
      const sorted = [...times].sort((a, b) => a - b);
      return `| ${name} | ${micro(times[0]!)} | ${micro(percentile(sorted, 50))} | ${micro(percentile(sorted, 99))} | ${micro(sorted.at(-1)!)} |`;
    }),
  );
  return lines.join('\n');
}

function startServer(
  port: number,
  paths: { compiledDir: string; contentDir: string; databasePath: string; dataDir: string },
): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST,
    SITE_DIR: join(root, 'dist', 'site'),
    CONTENT_DIR: paths.contentDir,
    COMPILED_CONTENT_DIR: paths.compiledDir,
    DATABASE_PATH: paths.databasePath,
    MAIL_OUTBOX_DIR: join(paths.dataDir, 'outbox'),
    // The site was built for this day: the server publishes nothing at start-up.
    BUILD_DATE: DEFAULT_BUILD_DATE,
  };
  return spawn(process.execPath, ['--enable-source-maps', 'dist/server/serve.mjs'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}
