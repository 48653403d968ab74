// The saved-search digest benchmark (`npm run bench:digest`, scripts/bench-digest.ts; issue 22):
// the digest of 100,000 saved searches over the million-ad index, and the page latency of the
// running server meanwhile (target: page p99 under 50 ms).
//
// 1. Content: --ads N generated ads (default 1,000,000; bench/ads.ts, one file a state) on tmpfs,
//    compiled with the search index by the build's content step (as bench/search.ts does).
// 2. Database (a SQLite file, the embedded default): --members N verified accounts (default
//    10,000) with 10 saved searches each, written in one transaction through the store's Kysely
//    (bench/bench-store.ts). The queries are normalized as the site saves them (parseSearchQuery,
//    then searchFiltersQuery, as server/saved-searches/saved-searches.ts saveSearch does), in five kinds:
//    a city (with a "seeks" half the time), a state and a word, words only (from the index's
//    vocabulary), filters only (seeks, an age range, sometimes a state), posted within 7 days.
//    Each has seen the index's newest posting day with no ids (seen_day = that day, seen_ids =
//    []): that day's ads are new to all of them, one day of new ads as a daily digest finds.
// 3. Mail: an SMTP sink in this process (smtp-server: accepts everything, no STARTTLS, no AUTH,
//    bodies discarded, messages counted); the digest is given SMTP_URL=smtp://127.0.0.1:PORT.
// 4. The real server ({out}/server/serve.mjs of the worktree's build) on that content and database,
//    and --readers K readers (default 8) fetching a mix of city pages, ad pages (files of the
//    built site) and /search results (rendered from the million-ad index), whole page received,
//    each pausing --pause-ms between pages (default 100: a busy site's traffic, not back-to-back
//    readers that take every cycle there is): --seconds S (default 20) before the digest, then
//    during it. p50 / p99 / max a phase, and during ÷ before, in the same run.
// 5. The digest, started as the server starts it (server/saved-searches/digest-schedule.ts): `node
//    {out}/server/alerts.mjs send`, the server's environment, at nice 10. Its wall time, saved
//    searches a second, digests mailed (its own line and the sink's count), its CPU time and peak
//    resident memory (bench/report-peak-rss.mjs preloaded), and the server's CPU meanwhile. Its
//    time runs to its line; a child still there 15 s after its line is stopped, and said so. The
//    server's own schedule is off (DIGEST_SCHEDULE=off): the run this benchmark starts is the only
//    one.
// Prints the figures and writes them to docs/benchmarks.md (## Saved-search digests). Nothing is
// sent anywhere but 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, setPriority, totalmem } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { MAILS_IN_FLIGHT } from '../server/saved-searches/digest.ts';
import { bundledDigestCommand } from '../server/saved-searches/digest-schedule.ts';
import { savedSearchLabel } from '../server/saved-searches/saved-searches.ts';
import { readSearchIndexVocabulary } from '../search/search-index-vocabulary.ts';
import { searchIndex } from '../search/search-index.ts';
import { useCompiledContentDir } from '../core/content/index.ts';
import { searchIndexFile } from '../search/search-index-file.ts';
import { parseSearchQuery, searchFiltersQuery } from '../core/search-query.ts';
import { openBenchStore } from './bench-store.ts';
import {
  compileGeneratedContent,
  ensureServerBuild,
  writeGeneratedAds,
} from './compile-generated.ts';
import { writeDocSection } from './docs.ts';
import { DEFAULT_BUILD_DATE, DEFAULT_SEED } from './options.ts';
import { makeQueries } from './search.ts';
import { freePort, stopServer, waitForServer } from './server-process.ts';
import { seededRandom } from './seeded-random.ts';
import { residentBytes } from './tree-rss.ts';
import { createWorkspace } from './workspace.ts';

const root = join(import.meta.dirname, '..');
const HOST = '127.0.0.1';
const START = '<!-- bench-digest:start -->';
const END = '<!-- bench-digest:end -->';
const HEADING = '## Saved-search digests';
const SAVED_PER_MEMBER = 10;
/** The server's priority for its digest child (server/saved-searches/digest-schedule.ts). */
const DIGEST_NICE = 10;
const PAGE_P99_TARGET_MS = 50;
const WARM_UP_MS = 3000;
const ACCEPT_ENCODING = 'br, gzip';
const SEEKS = ['w4m', 'm4w', 'm4m', 'w4w', 't4m', 'm4t', 't4w', 'w4t', 't4t'];
const SAVED_KINDS = [
  'city',
  'state + word',
  'words only',
  'filters only',
  'within 7 days',
] as const;
type SavedKind = (typeof SAVED_KINDS)[number];
/** How often each kind is saved, out of 10. */
const KIND_WEIGHTS: Record<SavedKind, number> = {
  city: 3,
  'state + word': 2,
  'words only': 2,
  'filters only': 2,
  'within 7 days': 1,
};
const PAGE_KINDS = ['city page', 'ad page', 'search'] as const;
type PageKind = (typeof PAGE_KINDS)[number];
type Phase = 'warm-up' | 'before' | 'during';

interface DigestBenchOptions {
  ads: number;
  members: number;
  readers: number;
  seconds: number;
  pauseMs: number;
  write: boolean;
  keep: boolean;
}

const USAGE =
  'usage: npm run bench:digest -- [--ads N] [--members N] [--readers N] [--seconds S] [--pause-ms N] [--no-write] [--keep]';

function parseOptions(argv: readonly string[]): DigestBenchOptions {
  const options: DigestBenchOptions = {
    ads: 1_000_000,
    members: 10_000,
    readers: 8,
    seconds: 20,
    pauseMs: 100,
    write: true,
    keep: false,
  };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    const number = (least: number) => {
      const value = Number(argv[++index]?.replace(/[_,]/g, ''));
      if (!Number.isInteger(value) || value < least)
        throw new Error(`${flag} needs a whole number of at least ${least}\n${USAGE}`);
      return value;
    };
    if (flag === '--ads') options.ads = number(1);
    else if (flag === '--members') options.members = number(1);
    else if (flag === '--readers') options.readers = number(1);
    else if (flag === '--seconds') options.seconds = number(1);
    else if (flag === '--pause-ms') options.pauseMs = number(0);
    else if (flag === '--no-write') options.write = false;
    else if (flag === '--keep') options.keep = true;
    else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  return options;
}

const percentile = (sorted: ArrayLike<number>, fraction: number) =>
  sorted.length === 0
    ? NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;

// ---------------------------------------------------------------- saved searches

interface SavedQuery {
  kind: SavedKind;
  /** As stored: the feed's query string, no leading `?`. */
  query: string;
  label: string;
}

/** `members` × 10 saved searches, each member's distinct, normalized as saveSearch does. */
export function makeSavedSearches(indexFile: string, members: number): SavedQuery[][] {
  const index = readSearchIndexVocabulary(indexFile);
  const total = index.ads;
  const words = index.words({
    minAds: Math.max(2, Math.floor(total / 2000)),
    maxAds: Math.max(3, Math.floor(total / 20)),
    limit: 400,
    mostUsedFirst: true,
  });
  const places = index.places(1000);
  index.close();
  if (words.length === 0 || places.length === 0)
    throw new Error('The index has too few words or places to make the saved searches');
  const r = seededRandom(DEFAULT_SEED + 1);
  const kinds = SAVED_KINDS.flatMap((kind) => Array<SavedKind>(KIND_WEIGHTS[kind]).fill(kind));
  const ageRange = (params: URLSearchParams) => {
    const low = 18 + Math.floor(r.next() * 40);
    params.set('minAge', String(low));
    params.set('maxAge', String(low + 5 + Math.floor(r.next() * 15)));
  };
  const paramsOf = (kind: SavedKind) => {
    const params = new URLSearchParams();
    const place = r.pick(places);
    if (kind === 'city') {
      params.set('state', place.state);
      params.set('city', place.city);
      if (r.next() < 0.5) params.set('seeks', r.pick(SEEKS));
    } else if (kind === 'state + word') {
      params.set('state', place.state);
      params.set('q', r.pick(words));
    } else if (kind === 'words only') {
      params.set('q', r.next() < 0.6 ? r.pick(words) : `${r.pick(words)} ${r.pick(words)}`);
    } else if (kind === 'filters only') {
      params.set('seeks', r.pick(SEEKS));
      if (r.next() < 0.6) ageRange(params);
      if (r.next() < 0.3) params.set('state', place.state);
    } else {
      params.set('within', '7');
      if (r.next() < 0.5) params.set('state', place.state);
      else params.set('seeks', r.pick(SEEKS));
    }
    return params;
  };
  const all: SavedQuery[][] = [];
  for (let member = 0; member < members; member += 1) {
    const mine = new Map<string, SavedQuery>();
    for (let attempt = 0; mine.size < SAVED_PER_MEMBER && attempt < 1000; attempt += 1) {
      const kind = kinds[mine.size % kinds.length]!;
      const parsed = parseSearchQuery(Object.fromEntries(paramsOf(kind)));
      if (!parsed.ok) continue;
      const query = searchFiltersQuery(parsed.values);
      if (!mine.has(query))
        mine.set(query, { kind, query, label: savedSearchLabel(parsed.filters) });
    }
    all.push([...mine.values()]);
  }
  return all;
}

/** Ads read to count the newest day's (more than a day of a million ads). */
const NEWEST_DAY_READ = 50_000;

/** The posting day of the index's newest ad, and how many ads it has that day. */
function newestDay(indexFile: string): { day: string; ads: number } {
  const index = searchIndex(() => indexFile);
  try {
    const all = parseSearchQuery({});
    if (!all.ok) throw new Error('The empty search does not parse');
    const newest = index.newest(all.filters, NEWEST_DAY_READ);
    const day = newest[0]?.postedAt.slice(0, 10);
    if (!day) throw new Error('The search index has no ads');
    const ads = newest.findIndex((ad) => !ad.postedAt.startsWith(day));
    if (ads === -1) throw new Error(`More than ${NEWEST_DAY_READ} ads on ${day}`);
    return { day, ads };
  } finally {
    index.close();
  }
}

/** Rows written at a time. */
const INSERT_CHUNK = 500;

/**
 * The members (verified accounts) and their saved searches, through the store's Kysely in one
 * transaction; each has seen `seenDay` with no ads, so that day's ads are new to all of them.
 */
async function insertSavedSearches(
  databasePath: string,
  members: SavedQuery[][],
  seenDay: string,
): Promise<number> {
  const bench = await openBenchStore({ path: databasePath });
  const now = new Date().toISOString();
  let rows = 0;
  try {
    await bench.db.transaction().execute(async (trx) => {
      for (let first = 0; first < members.length; first += INSERT_CHUNK) {
        const chunk = members.slice(first, first + INSERT_CHUNK);
        // A new database: the ids are 1, 2, 3… (sign-up would choose them the same way).
        const idOf = (index: number) => first + index + 1;
        await trx
          .insertInto('accounts')
          .values(
            chunk.map((_, index) => ({
              id: idOf(index),
              email: `bench-digest-${idOf(index)}@example.org`,
              password_hash: 'not a hash',
              date_of_birth: '1990-01-01',
              terms_accepted_at: now,
              created_at: now,
              email_verified_at: now,
            })),
          )
          .execute();
        const saved = chunk.flatMap((queries, index) =>
          queries.map(({ query, label }) => ({
            account_id: idOf(index),
            query,
            label,
            created_at: now,
            checked_at: null,
            last_sent_at: null,
            seen_day: seenDay,
            seen_ids: '[]',
            unsubscribe_hash: randomBytes(32),
          })),
        );
        for (let at = 0; at < saved.length; at += INSERT_CHUNK)
          await trx
            .insertInto('saved_searches')
            .values(saved.slice(at, at + INSERT_CHUNK))
            .execute();
        rows += saved.length;
      }
    });
  } finally {
    await bench.close();
  }
  return rows;
}

// ---------------------------------------------------------------- mail

/** An SMTP server that accepts every message, reads it to the end, and counts it. */
async function startSmtpSink() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    // nodemailer would take up an offered STARTTLS and then refuse the sink's self-signed
    // certificate; a real relay on 127.0.0.1 would not offer it either.
    disabledCommands: ['STARTTLS', 'AUTH'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => {
        received += 1;
        callback();
      });
      stream.resume();
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---------------------------------------------------------------- pages

interface PageTarget {
  kind: PageKind;
  path: string;
}

/** City and ad pages of the built site (the shipped content's), and searches of the million-ad index. */
function pageTargets(siteDir: string, indexFile: string): PageTarget[] {
  const cities: string[] = [];
  const ads: string[] = [];
  const cityRoot = join(siteDir, 'city');
  for (const state of readdirSync(cityRoot).sort()) {
    for (const city of readdirSync(join(cityRoot, state)).sort()) {
      const base = `/city/${encodeURIComponent(state)}/${encodeURIComponent(city)}`;
      const adDir = join(cityRoot, state, city, 'ad');
      if (!existsSync(adDir)) continue;
      cities.push(base);
      for (const id of readdirSync(adDir).sort())
        if (existsSync(join(adDir, id, 'index.html'))) ads.push(`${base}/ad/${id}`);
    }
  }
  if (cities.length === 0 || ads.length === 0)
    throw new Error(`No city page with ads in ${siteDir}`);
  // Page 1 only: a page 2 past the last result is a 400.
  const searches = makeQueries(indexFile, 100).map((query) => query.path.replace(/&?page=2$/, ''));
  const r = seededRandom(DEFAULT_SEED + 2);
  // Two city pages and two ad pages for each search.
  const targets: PageTarget[] = [];
  for (let index = 0; index < 600; index += 1) {
    const which = index % 5;
    if (which < 2) targets.push({ kind: 'city page', path: r.pick(cities) });
    else if (which < 4) targets.push({ kind: 'ad page', path: r.pick(ads) });
    else targets.push({ kind: 'search', path: r.pick(searches) });
  }
  return targets;
}

interface PageSample {
  phase: Phase;
  kind: PageKind;
  ms: number;
}

function get(agent: Agent, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: HOST,
        port,
        path,
        agent,
        headers: { 'accept-encoding': ACCEPT_ENCODING },
        timeout: 30_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** `readers` keep-alive readers going through `targets`, each pausing `pauseMs` between pages. */
function pageLoad(port: number, targets: readonly PageTarget[], readers: number, pauseMs: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: readers });
  const samples: PageSample[] = [];
  const failures: Record<Phase, number> = { 'warm-up': 0, before: 0, during: 0 };
  /** Why, with the path: the status or the error. */
  const failedBy = new Map<string, number>();
  const failed = (phase: Phase, why: string) => {
    failures[phase] += 1;
    failedBy.set(why, (failedBy.get(why) ?? 0) + 1);
  };
  let phase: Phase = 'warm-up';
  let stopped = false;
  let next = 0;
  const reader = async () => {
    while (!stopped) {
      const target = targets[next++ % targets.length]!;
      const at = phase;
      const sent = performance.now();
      try {
        const status = await get(agent, port, target.path);
        samples.push({ phase: at, kind: target.kind, ms: performance.now() - sent });
        if (status !== 200) failed(at, `${status} ${target.path}`);
      } catch (error) {
        failed(at, `${(error as Error).message} ${target.path}`);
      }
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  };
  const running = Promise.all(Array.from({ length: readers }, reader));
  return {
    phase(to: Phase) {
      phase = to;
    },
    async stop() {
      stopped = true;
      await running;
      agent.destroy();
      return { samples, failures, failedBy };
    },
  };
}

interface PhaseFigures {
  phase: Phase;
  seconds: number;
  pages: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
  byKind: Record<PageKind, { pages: number; p50: number; p99: number; max: number }>;
  /** The server's CPU time in the phase, as a share of one core. */
  serverCpu: number;
}

function figuresOf(
  phase: Phase,
  samples: readonly PageSample[],
  failures: number,
  seconds: number,
  serverCpuSeconds: number,
): PhaseFigures {
  const mine = samples.filter((sample) => sample.phase === phase);
  const stats = (list: readonly PageSample[]) => {
    const sorted = Float64Array.from(list, (sample) => sample.ms).sort();
    return {
      pages: sorted.length,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      max: sorted.at(-1) ?? NaN,
    };
  };
  const byKind = Object.fromEntries(
    PAGE_KINDS.map((kind) => [kind, stats(mine.filter((sample) => sample.kind === kind))]),
  ) as PhaseFigures['byKind'];
  return {
    phase,
    seconds,
    failures,
    ...stats(mine),
    byKind,
    serverCpu: serverCpuSeconds / seconds,
  };
}

// ---------------------------------------------------------------- processes

const TICKS_PER_SECOND = 100;

/** A process's CPU seconds so far (user + system, /proc/{pid}/stat), and its nice value. */
function procStat(pid: number): { cpuSeconds: number; nice: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
      nice: Number(fields[16]),
    };
  } catch {
    return undefined;
  }
}

function startServer(port: number, env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const log = openSync(logFile, 'a');
  try {
    return spawn(process.execPath, ['--enable-source-maps', 'dist/server/serve.mjs'], {
      cwd: root,
      env,
      // Its request log (and any line of its own digest runs) goes to a file, read at the end.
      stdio: ['ignore', log, 'inherit'],
    });
  } finally {
    closeSync(log);
  }
}

interface DigestOutcome {
  exitCode: number | null;
  wallSeconds: number;
  line: string;
  checked: number;
  mailed: number;
  failed: number;
  nice: number | undefined;
  peakRssBytes: number;
  cpuSeconds: number;
  /** From its line to its exit. */
  exitSecondsAfterLine: number;
  /** It had not exited LINGER_MS after its line, and was stopped (SIGTERM). */
  stoppedAfterLine: boolean;
}

/** How long the digest may stay after its line before it is stopped. */
const LINGER_MS = 15_000;

/**
 * The digest, as the server's schedule starts it (server/saved-searches/digest-schedule.ts): `node
 * {out}/server/alerts.mjs send` with the server's environment, at nice 10; its output line read
 * back, and its peak memory and CPU time from bench/report-peak-rss.mjs.
 */
async function runDigest(env: NodeJS.ProcessEnv, usageFile: string): Promise<DigestOutcome> {
  const command = bundledDigestCommand(join(root, 'dist', 'server', 'alerts.mjs'));
  const started = performance.now();
  const child = spawn(process.execPath, [...command.execArgv, command.file, 'send'], {
    cwd: command.cwd,
    env: {
      ...env,
      NODE_OPTIONS: `--import ${join(root, 'bench', 'report-peak-rss.mjs')}`,
      BENCH_RSS_FILE: usageFile,
      BUILD_STEP: 'digest',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (child.pid !== undefined) setPriority(child.pid, DIGEST_NICE);
  let nice: number | undefined;
  const look = setTimeout(() => (nice = procStat(child.pid!)?.nice), 500);
  let output = '';
  let lineAt: number | undefined;
  /** Read from /proc when it outstays its line and is stopped (no exit hook then). */
  let stoppedWith: { peakRssBytes: number; cpuSeconds: number } | undefined;
  let linger: NodeJS.Timeout | undefined;
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (lineAt !== undefined || !output.includes('Saved-search digests:')) return;
    lineAt = performance.now();
    // Its work is done; something left open (a pooled SMTP connection) may keep it alive.
    linger = setTimeout(() => {
      stoppedWith = {
        peakRssBytes: residentBytes(child.pid!, 'VmHWM'),
        cpuSeconds: procStat(child.pid!)?.cpuSeconds ?? NaN,
      };
      child.kill('SIGTERM');
    }, LINGER_MS);
  });
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code));
  });
  clearTimeout(look);
  clearTimeout(linger);
  const exitedAt = performance.now();
  const wallSeconds = ((lineAt ?? exitedAt) - started) / 1000;
  const line = output.split('\n').find((text) => text.startsWith('Saved-search digests:')) ?? '';
  const number = (pattern: RegExp) => Number(pattern.exec(line)?.[1] ?? NaN);
  const reported = existsSync(usageFile)
    ? (JSON.parse(readFileSync(usageFile, 'utf8').trim().split('\n').at(-1)!) as {
        peakRssBytes: number;
        userCpuMs: number;
        systemCpuMs: number;
      })
    : undefined;
  const usage = stoppedWith ??
    (reported && {
      peakRssBytes: reported.peakRssBytes,
      cpuSeconds: (reported.userCpuMs + reported.systemCpuMs) / 1000,
    }) ?? { peakRssBytes: NaN, cpuSeconds: NaN };
  return {
    exitCode,
    wallSeconds,
    line,
    checked: number(/looked at (\d+)/),
    mailed: number(/mailed (\d+)/),
    failed: /; (\d+) could not be sent/.test(line) ? number(/; (\d+) could not be sent/) : 0,
    nice,
    peakRssBytes: usage.peakRssBytes,
    cpuSeconds: usage.cpuSeconds,
    exitSecondsAfterLine: lineAt === undefined ? NaN : (exitedAt - lineAt) / 1000,
    stoppedAfterLine: stoppedWith !== undefined,
  };
}

// ---------------------------------------------------------------- the run

export async function benchDigest(argv: readonly string[]): Promise<void> {
  const options = parseOptions(argv);
  const workspace = createWorkspace();
  const contentDir = join(workspace.dir, 'content');
  const compiledDir = join(workspace.dir, 'compiled');
  const databasePath = join(workspace.dir, 'localboard.sqlite');
  const loadBefore = loadavg();
  const n = (value: number) => value.toLocaleString('en-US');
  let server: ChildProcess | undefined;
  let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
  try {
    console.log(`Working in ${workspace.dir}${workspace.onTmpfs ? ' (tmpfs)' : ''}.`);
    ensureServerBuild();
    writeGeneratedAds(contentDir, options.ads);
    await (await openBenchStore({ path: databasePath })).close();
    console.log(`Compiling ${options.ads.toLocaleString('en-US')} ads and indexing them...`);
    const compileStarted = performance.now();
    console.log(`  ${compileGeneratedContent({ contentDir, compiledDir, databasePath })}`);
    const compileSeconds = (performance.now() - compileStarted) / 1000;
    const indexFile = searchIndexFile(compiledDir);
    useCompiledContentDir(compiledDir);

    const insertStarted = performance.now();
    const members = makeSavedSearches(indexFile, options.members);
    const newest = newestDay(indexFile);
    const savedCount = await insertSavedSearches(databasePath, members, newest.day);
    const kindCounts = new Map<SavedKind, number>();
    for (const saved of members.flat())
      kindCounts.set(saved.kind, (kindCounts.get(saved.kind) ?? 0) + 1);
    const insertSeconds = (performance.now() - insertStarted) / 1000;
    console.log(
      `  ${options.members.toLocaleString('en-US')} members, ${savedCount.toLocaleString('en-US')} saved searches in ${insertSeconds.toFixed(1)} s`,
    );

    sink = await startSmtpSink();
    const port = await freePort(HOST);
    mkdirSync(join(workspace.dir, 'outbox'), { recursive: true });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST,
      SITE_DIR: join(root, 'dist', 'site'),
      COMPILED_CONTENT_DIR: compiledDir,
      DATABASE_PATH: databasePath,
      SMTP_URL: `smtp://${HOST}:${sink.port}`,
      // The server's own schedule would start a run 5 minutes in: this benchmark starts the one.
      DIGEST_SCHEDULE: 'off',
      MAIL_OUTBOX_DIR: join(workspace.dir, 'outbox'),
      // The site was built for this day: the server publishes nothing at start-up.
      BUILD_DATE: DEFAULT_BUILD_DATE,
    };
    delete env.DATABASE_URL;
    const serverLog = join(workspace.dir, 'server.log');
    const serverStarted = performance.now();
    server = startServer(port, env, serverLog);
    await waitForServer(`http://${HOST}:${port}`, server, 600);
    console.log(`  server ready in ${((performance.now() - serverStarted) / 1000).toFixed(1)} s`);

    const targets = pageTargets(join(root, 'dist', 'site'), indexFile);
    const load = pageLoad(port, targets, options.readers, options.pauseMs);
    await sleep(WARM_UP_MS);
    load.phase('before');
    const serverCpu0 = procStat(server.pid!)?.cpuSeconds ?? NaN;
    const beforeStarted = performance.now();
    await sleep(options.seconds * 1000);
    const beforeSeconds = (performance.now() - beforeStarted) / 1000;
    const serverCpu1 = procStat(server.pid!)?.cpuSeconds ?? NaN;

    load.phase('during');
    const duringStarted = performance.now();
    console.log(`Digest of ${savedCount.toLocaleString('en-US')} saved searches under way...`);
    const progress = setInterval(
      () => console.log(`  ${n(sink!.received())} mails received so far`),
      30_000,
    );
    const digest = await runDigest(env, join(workspace.dir, 'digest-usage.jsonl')).finally(() =>
      clearInterval(progress),
    );
    const serverCpu2 = procStat(server.pid!)?.cpuSeconds ?? NaN;
    const duringSeconds = (performance.now() - duringStarted) / 1000;
    const { samples, failures, failedBy } = await load.stop();
    for (const [why, count] of failedBy) console.log(`  failed ${count}×: ${why}`);
    console.log(`  ${digest.line || `(no line; exit code ${digest.exitCode})`}`);
    if (digest.exitCode !== 0 && !digest.stoppedAfterLine)
      throw new Error(`The digest exited with code ${digest.exitCode}`);
    const sunk = sink.received();
    // The server's own schedule starts a run 5 minutes after it starts: say so if it did.
    const serverRuns = readFileSync(serverLog, 'utf8')
      .split('\n')
      .filter((text) => text.startsWith('Saved-search digests'));
    const before = figuresOf(
      'before',
      samples,
      failures.before,
      beforeSeconds,
      serverCpu1 - serverCpu0,
    );
    const during = figuresOf(
      'during',
      samples,
      failures.during,
      duringSeconds,
      serverCpu2 - serverCpu1,
    );

    const loadAfter = loadavg();
    const fmt = (value: number) => value.toFixed(1);
    const met = during.p99 < PAGE_P99_TARGET_MS;
    const phaseRow = (name: string, figures: PhaseFigures) =>
      `| ${name} | ${fmt(figures.seconds)} | ${n(figures.pages)} | ${fmt(figures.pages / figures.seconds)} | ${fmt(figures.p50)} | ${fmt(figures.p99)} | ${fmt(figures.max)} | ` +
      PAGE_KINDS.map((kind) => fmt(figures.byKind[kind].p99)).join(' / ') +
      ` | ${Math.round(figures.serverCpu * 100)} % | ${figures.failures} |`;
    const ratio = (a: number, b: number) => (a / b).toFixed(2);
    const lines = [
      `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${n(options.ads)} generated ads (seed ${DEFAULT_SEED}, build date ${DEFAULT_BUILD_DATE}, one file a state, content step ${compileSeconds.toFixed(0)} s), on ${workspace.onTmpfs ? '/dev/shm (tmpfs)' : 'disk'}; SQLite database.`,
      `- ${n(options.members)} verified members with ${SAVED_PER_MEMBER} saved searches each: ${n(savedCount)} (${SAVED_KINDS.map((kind) => `${kind} ${n(kindCounts.get(kind) ?? 0)}`).join(', ')}), each having seen the newest posting day of the index (${newest.day}: the generated ads are posted up to the day before the build date) with none of its ads, so that day's ${n(newest.ads)} ads are new to all of them: one day of new ads, as a daily digest finds them.`,
      `- Mail: SMTP_URL \`smtp://127.0.0.1:PORT\`, through the ${MAILS_IN_FLIGHT} connections the digest keeps open for its run; the sink, like smtp-server always, waits 100 ms before each connection's greeting, as a relay a network away costs a connection's round trips.`,
      `- Machine: nproc ${cpus().length} (${cpus()[0]?.model.split(' ').slice(0, 2).join(' ')}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}; load average ${loadBefore.map((v) => v.toFixed(1)).join(', ')} at the start, ${loadAfter.map((v) => v.toFixed(1)).join(', ')} at the end (other work shared the cores).`,
      '',
      '| the digest | value |',
      '|---|---:|',
      `| wall time, from its start to its line | ${digest.wallSeconds.toFixed(1)} s |`,
      `| saved searches looked at | ${n(digest.checked)} (${n(Math.round(digest.checked / digest.wallSeconds))} a second) |`,
      `| digests mailed: its line / the SMTP sink's count | ${n(digest.mailed)} / ${n(sunk)}${digest.failed > 0 ? ` (${n(digest.failed)} failed)` : ''} |`,
      `| its CPU time (user + system) | ${digest.cpuSeconds.toFixed(1)} s (${Math.round((digest.cpuSeconds / digest.wallSeconds) * 100)} % of one core) |`,
      `| its peak resident memory | ${(digest.peakRssBytes / 2 ** 20).toFixed(0)} MB |`,
      `| its nice value (seen in /proc) | ${digest.nice ?? 'not seen'} |`,
      `| from its line to its exit | ${digest.stoppedAfterLine ? `had not exited ${LINGER_MS / 1000} s after its line: stopped` : `${digest.exitSecondsAfterLine.toFixed(1)} s`} |`,
      '',
      `Pages from the running server, ${options.readers} keep-alive readers each pausing ${options.pauseMs} ms between pages (two city pages and two ad pages, files of the built site, to one /search of the generated ads' index; whole page received, \`Accept-Encoding: ${ACCEPT_ENCODING}\`), ${options.seconds} s before the digest, then while it ran:`,
      '',
      '| phase | seconds | pages | pages/s | p50 ms | p99 ms | max ms | p99 ms: city / ad / search | server CPU | failed |',
      '|---|---:|---:|---:|---:|---:|---:|---|---:|---:|',
      phaseRow('before the digest', before),
      phaseRow('during the digest', during),
      `| during ÷ before | | | | ${ratio(during.p50, before.p50)} | ${ratio(during.p99, before.p99)} | ${ratio(during.max, before.max)} | ${PAGE_KINDS.map((kind) => ratio(during.byKind[kind].p99, before.byKind[kind].p99)).join(' / ')} | | |`,
      '',
      `Target: page p99 under ${PAGE_P99_TARGET_MS} ms while the digest runs: ${met ? `met (${fmt(during.p99)} ms)` : `not met (${fmt(during.p99)} ms)`}.` +
        (serverRuns.length > 0
          ? ` The server's own schedule also ran the digest meanwhile (${serverRuns.join('; ')}).`
          : ''),
    ];
    console.log(`\n${lines.join('\n')}\n`);
    if (digest.mailed !== sunk)
      console.log(`The digest's line says ${digest.mailed} mailed, the sink received ${sunk}.`);
    if (options.write) {
      writeDocSection(
        join(root, 'docs', 'benchmarks.md'),
        { start: START, end: END, heading: HEADING },
        lines.join('\n'),
      );
      console.log(`Wrote the figures to docs/benchmarks.md (${HEADING}).`);
    }
  } finally {
    if (server) await stopServer(server, 5_000);
    await sink?.close();
    if (!options.keep) workspace.remove();
    else console.log(`Kept ${workspace.dir}.`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
