// The soak on Node 24 (`npm run bench:soak`, scripts/bench-soak.ts; issue 32): better-sqlite3 below
// 13 aborted the process on Node 24.19+ ("Assertion failed: (env) != nullptr" in
// Statement::~Statement) when a statement was collected by a garbage collection V8 started by
// itself (its weak callbacks run later, as a task outside JavaScript) or at teardown. A collection
// forced with gc() does not show it: V8 runs a forced collection's callbacks at once, inside the
// call. So this runs the real server for minutes under every kind of load at once, with a young
// generation of 1 MiB (NODE_OPTIONS, which its publish builds and digest inherit) so that V8
// collects by itself all the time, and looks for the crash:
// - builds the generated site (default 20,000 ads, bench/generated-site.ts) on tmpfs and starts the
//   build's own server ({out}/server/serve.mjs) on a free port of 127.0.0.1, on SQLite;
// - for --minutes M (default 5), all at once, each loop bounded in time and in count: readers
//   (landing, state, city and ad pages, /api/me), searchers (/search, words, sometimes a city),
//   sign-ups (POST /api/signup, each from its own address behind TRUST_PROXY=1), and publishing
//   rounds as bench/publish.ts runs them (approve → the ad answers 200, delete → 404; each spawns
//   an incremental build, child processes that open SQLite and write the search index);
// - every line the server writes is scanned for a native abort; it must still run at the end, then
//   exit cleanly (code 0, no signal) on SIGTERM; its GC counts (GET /metrics) and RSS are reported.
// Prints the figures and writes them to docs/benchmarks.md (## Soak on Node 24). Exit code 1 on a
// crash sign, a failed publish, an unexpected exit or failed requests. Nothing leaves 127.0.0.1.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { readSearchIndexVocabulary } from '../search/search-index-vocabulary.ts';
import { searchIndexFile } from '../search/search-index-file.ts';
import { busyRetryMs } from '../src/client/submit-json.ts';
import { adPath, cityPath, statePath } from '../core/paths.ts';
import { openBenchStore } from './bench-store.ts';
import { writeDocSection } from './docs.ts';
import { buildSite, citiesOfEverySize, writeGeneratedContent } from './generated-site.ts';
import { DEFAULT_SEED } from './options.ts';
import {
  approveThenDelete,
  collectPublishLines,
  HOST,
  percentile,
  posterAndModerator,
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
import { seededRandom } from './seeded-random.ts';
import { parseServerBenchOptions } from './server-bench-options.ts';
import { freePort, stopServer } from './server-process.ts';
import { residentBytes } from './tree-rss.ts';
import { createWorkspace } from './workspace.ts';

const root = join(import.meta.dirname, '..');
const START = '<!-- bench-soak:start -->';
const END = '<!-- bench-soak:end -->';
const HEADING = '## Soak on Node 24';

/** The young generation's semi-space, in MiB (V8's default is 16 on 64 bits): collections by V8 itself, often. */
const SEMI_SPACE_MB = 1;
/** With --forced-gc, gc() this often in the server and its children as well (bench/soak-forced-gc.mjs). */
export const FORCED_GC_EVERY_MS = 2000;
const READERS = 4;
const SEARCHERS = 2;
/** Most requests of one loop, whatever the time. */
const MAX_REQUESTS_PER_LOOP = 2_000_000;
/** Most sign-ups: each has an address of 198.18.0.0/16 of its own. */
const MAX_SIGNUPS = 65_536;
const MAX_ROUNDS = 1000;
/** A request that takes longer has failed. */
const REQUEST_TIMEOUT_MS = 30_000;
/** The server may finish a publish under way before it exits. */
const STOP_GRACE_MS = 60_000;
const RSS_EVERY_MS = 1000;
/** Places whose pages the readers and searchers ask for (those with the most ads), and ads a place. */
const PLACES = 60;
const ADS_PER_PLACE = 10;

/** A native crash, as V8, Node or the shell say it. */
const CRASH_SIGN = /Assertion failed|FATAL ERROR|Segmentation fault|Aborted|core dumped/;
/** A build the server ran that failed, a child stopped by a signal, a digest that stopped. */
const FAILURE_SIGN = /^Publishing for .* failed|stopped by SIG|Saved-search digests stopped/;

export interface SoakOptions {
  ads: number;
  minutes: number;
  /** gc() now and then as well (never the crash's kind of collection: see the top of the file). */
  forcedGc: boolean;
  write: boolean;
  keep: boolean;
}

export function parseSoakOptions(argv: readonly string[]): SoakOptions {
  const forcedGc = argv.includes('--forced-gc');
  const { count: minutes, ...options } = parseServerBenchOptions(
    argv.filter((flag) => flag !== '--forced-gc'),
    { script: 'bench:soak', countFlag: '--minutes', ads: 20_000, count: 5 },
  );
  return { ...options, minutes, forcedGc };
}

// ---------------------------------------------------------------- requests and their counts

/** The requests of one kind of load. */
interface Tally {
  requests: number;
  /** Answered with a status the kind does not expect. */
  unexpected: number;
  /** No answer (refused, reset, timed out), or a page cut short. */
  failures: number;
  statuses: Map<number, number>;
  latencies: number[];
  examples: string[];
}

const newTally = (): Tally => ({
  requests: 0,
  unexpected: 0,
  failures: 0,
  statuses: new Map(),
  latencies: [],
  examples: [],
});

function note(tally: Tally, example: string) {
  if (tally.examples.length < 5) tally.examples.push(example);
}

/**
 * One request, counted in `tally`: its status must be one of `expected`, and an HTML page must be
 * whole (end with `</html>`). The response, for its headers.
 */
async function timedRequest(
  tally: Tally,
  url: string,
  init: RequestInit,
  expected: readonly number[],
): Promise<Response | undefined> {
  const started = performance.now();
  tally.requests += 1;
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = await response.text();
    tally.latencies.push(performance.now() - started);
    tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
    const path = new URL(url).pathname;
    if (!expected.includes(response.status)) {
      tally.unexpected += 1;
      note(tally, `${path} answered ${response.status}`);
    } else if (
      response.headers.get('content-type')?.startsWith('text/html') &&
      !body.trimEnd().endsWith('</html>')
    ) {
      tally.failures += 1;
      note(tally, `${path}: a page of ${body.length} characters not ending with </html>`);
    }
    return response;
  } catch (error) {
    tally.failures += 1;
    note(tally, `${new URL(url).pathname}: ${(error as Error).message}`);
    return undefined;
  }
}

/** Runs `step` again and again while `going()` says so, `cap` times at most. */
async function until(
  going: () => boolean,
  cap: number,
  step: (index: number) => Promise<void>,
): Promise<void> {
  for (let index = 0; index < cap && going(); index += 1) await step(index);
}

// ---------------------------------------------------------------- what the loads ask for

/** Real paths of the built site, and words and places of its search index. */
interface Targets {
  states: string[];
  places: Array<{ state: string; city: string }>;
  ads: string[];
  words: string[];
}

function findTargets(outDir: string, cacheDir: string): Targets {
  const index = readSearchIndexVocabulary(searchIndexFile(cacheDir));
  const words = index.words({ minAds: 2, limit: 300, mostUsedFirst: true });
  const places = index.places(PLACES);
  index.close();
  const ads = places.flatMap(({ state, city }) => {
    const folder = join(outDir, 'site', 'city', state, city, 'ad');
    if (!existsSync(folder)) return [];
    return readdirSync(folder)
      .filter((name) => /^\d+$/.test(name))
      .slice(0, ADS_PER_PLACE)
      .map((id) => adPath(state, city, Number(id)));
  });
  if (words.length === 0 || places.length === 0 || ads.length === 0)
    throw new Error('The built site has too few words, places or ads to soak.');
  return { states: [...new Set(places.map((place) => place.state))], places, ads, words };
}

const READ_KINDS = ['landing page', 'state pages', 'city pages', 'ad pages', '/api/me'] as const;
const SEARCH_KINDS = ['search, words', 'search, words + city'] as const;
type LoadKind = (typeof READ_KINDS)[number] | (typeof SEARCH_KINDS)[number] | 'sign-ups';
/** The share of each kind among a reader's requests. */
const READ_MIX: Record<(typeof READ_KINDS)[number], number> = {
  'landing page': 0.1,
  'state pages': 0.15,
  'city pages': 0.3,
  'ad pages': 0.35,
  '/api/me': 0.1,
};
const SEEKS = ['w4m', 'm4w', 'm4m', 'w4w'];

// ---------------------------------------------------------------- the soak

interface Round {
  liveMs: number;
  goneMs: number;
}

interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export async function benchSoak(argv: readonly string[]): Promise<void> {
  const options = parseSoakOptions(argv);
  const started = performance.now();
  const workspace = createWorkspace();
  const outDir = join(workspace.dir, 'out');
  const cacheDir = join(workspace.dir, 'cache');
  const dataDir = join(workspace.dir, 'data');
  const databasePath = sqlitePathIn(dataDir);
  const buildDate = new Date().toISOString().slice(0, 10);
  let server: ChildProcess | undefined;
  try {
    console.log(`Working in ${workspace.dir}${workspace.onTmpfs ? ' (tmpfs)' : ''}.`);
    const { contentDir, cities } = writeGeneratedContent(workspace.dir, options.ads, buildDate);
    mkdirSync(dataDir, { recursive: true });
    const { store, db, close } = await openBenchStore({ path: databasePath });

    console.log(`Building ${options.ads.toLocaleString('en-US')} ads for ${buildDate}...`);
    const { pages, seconds: buildSeconds } = buildSite({
      contentDir,
      outDir,
      cacheDir,
      buildDate,
      database: { path: databasePath },
    });
    console.log(`  ${pages} pages in ${buildSeconds.toFixed(0)} s.`);
    const targets = findTargets(outDir, cacheDir);

    const port = await freePort(HOST);
    const base = `http://${HOST}:${port}`;
    // Behind a proxy (TRUST_PROXY=1), so each sign-up has an address of its own; /metrics then
    // answers only with the token.
    const metricsToken = randomBytes(16).toString('hex');
    const nodeOptions = [
      process.env.NODE_OPTIONS ?? '',
      `--max-semi-space-size=${SEMI_SPACE_MB}`,
      ...(options.forcedGc
        ? [
            '--expose-gc',
            `--import=${pathToFileURL(join(import.meta.dirname, 'soak-forced-gc.mjs')).href}`,
          ]
        : []),
    ]
      .join(' ')
      .trim();
    server = startServer({
      port,
      outDir,
      cacheDir,
      contentDir,
      buildDate,
      dataDir,
      env: { NODE_OPTIONS: nodeOptions, TRUST_PROXY: '1', METRICS_TOKEN: metricsToken },
    });
    const serverPid = server.pid!;
    const exited = new Promise<ServerExit>((resolve) =>
      server!.once('close', (code, signal) => resolve({ code, signal })),
    );
    const publishLog: string[] = [];
    collectPublishLines(server, publishLog);
    const watch = watchServerLines(server);
    await waitForServer(base, server);
    const metrics = () => scrapeMetrics(base, metricsToken);
    const people = await posterAndModerator(base, store);

    // The first scrape starts the server's process metrics (GC among them): counted from here.
    const before = await metrics();
    const rss = sampleRss(serverPid);
    const loadBefore = loadavg();
    const deadline = performance.now() + options.minutes * 60_000;
    // Until the time is up, or the server is gone (a crash: no use asking it more).
    const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;
    const going = () => performance.now() < deadline && running(server!);
    console.log(
      `Soaking for ${options.minutes} min: ${READERS} readers, ${SEARCHERS} searchers, sign-ups and publishing at once...`,
    );
    const tallies = new Map<LoadKind, Tally>(
      [...READ_KINDS, ...SEARCH_KINDS, 'sign-ups' as const].map((kind) => [kind, newTally()]),
    );
    const tally = (kind: LoadKind) => tallies.get(kind)!;
    /** Session cookies of members: the poster's, then those of the latest sign-ups. */
    const members = [people.poster];
    const progress = setInterval(() => {
      const left = Math.max(0, (deadline - performance.now()) / 60_000);
      const requests = [...tallies.values()].reduce((sum, each) => sum + each.requests, 0);
      console.log(
        `  ${left.toFixed(1)} min left: ${requests.toLocaleString('en-US')} requests, ${tally('sign-ups').requests} sign-ups, ${publishLog.length} publish lines`,
      );
    }, 30_000);

    const reader = async (seed: number) => {
      const random = seededRandom(DEFAULT_SEED + seed);
      await until(going, MAX_REQUESTS_PER_LOOP, async () => {
        let draw = random.next();
        const kind = READ_KINDS.find((each) => (draw -= READ_MIX[each]) < 0) ?? 'ad pages';
        if (kind === '/api/me') {
          const cookie = random.pick(members);
          await timedRequest(tally(kind), `${base}/api/me`, { headers: { Cookie: cookie } }, [200]);
          return;
        }
        const place = random.pick(targets.places);
        const path =
          kind === 'landing page'
            ? '/'
            : kind === 'state pages'
              ? statePath(random.pick(targets.states))
              : kind === 'city pages'
                ? cityPath(place.state, place.city)
                : random.pick(targets.ads);
        await timedRequest(tally(kind), `${base}${path}`, {}, [200]);
      });
    };

    const searcher = async (seed: number) => {
      const random = seededRandom(DEFAULT_SEED + 100 + seed);
      await until(going, MAX_REQUESTS_PER_LOOP, async () => {
        const params = new URLSearchParams();
        params.set(
          'q',
          random.next() < 0.3
            ? `${random.pick(targets.words)} ${random.pick(targets.words)}`
            : random.pick(targets.words),
        );
        const inCity = random.next() < 0.3;
        if (inCity) {
          const place = random.pick(targets.places);
          params.set('state', place.state);
          params.set('city', place.city);
        }
        if (random.next() < 0.2) params.set('seeks', random.pick(SEEKS));
        const kind = inCity ? 'search, words + city' : 'search, words';
        await timedRequest(tally(kind), `${base}/search?${params}`, {}, [200]);
      });
    };

    const runId = randomBytes(3).toString('hex');
    const signingUp = until(going, MAX_SIGNUPS, async (index) => {
      const response = await timedRequest(
        tally('sign-ups'),
        `${base}/api/signup`,
        {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Origin: base,
            // Its own address behind the proxy: the per-address limit is not what is soaked.
            'x-forwarded-for': `198.18.${index >> 8}.${index & 255}`,
          },
          body: JSON.stringify({
            email: `soak-${runId}-${index}@example.org`,
            password: `soak password ${index}`,
            dateOfBirth: '1990-05-17',
          }),
        },
        // 503: the password hashing is busy, the server's answer to a client to wait.
        [201, 503],
      );
      const cookie = /lb_session=[^;]+/.exec(response?.headers.get('set-cookie') ?? '')?.[0];
      if (cookie) members.push(cookie);
      if (members.length > 200) members.splice(1, 1);
      // As the browser's form does: a busy server is given the time it asks for.
      if (response?.status === 503)
        await new Promise((resolve) => setTimeout(resolve, busyRetryMs(response) ?? 1000));
    });

    const rounds: Round[] = [];
    const roundFailures: string[] = [];
    const roundReader = startReader(base);
    const roundCities = citiesOfEverySize(cities, 20);
    const publishing = until(going, MAX_ROUNDS, async (index) => {
      const place = roundCities[index % roundCities.length]!;
      try {
        const { liveMs, goneMs } = await approveThenDelete(
          base,
          db,
          people,
          place,
          index,
          publishLog,
          roundReader,
        );
        rounds.push({ liveMs, goneMs });
      } catch (error) {
        roundFailures.push(`round ${index + 1}: ${(error as Error).message.split('\n')[0]}`);
      }
    });

    try {
      await Promise.all([
        ...Array.from({ length: READERS }, (_, index) => reader(index)),
        ...Array.from({ length: SEARCHERS }, (_, index) => searcher(index)),
        signingUp,
        publishing,
      ]);
    } finally {
      clearInterval(progress);
      await roundReader.stop();
    }
    const loadAfter = loadavg();
    const runningAtEnd = running(server);
    const after = await metrics().catch((error: unknown) => {
      console.error(`/metrics at the end: ${(error as Error).message}`);
      return undefined;
    });
    const rssFigures = rss.stop();
    await close();

    console.log('Stopping the server (SIGTERM)...');
    await stopServer(server, STOP_GRACE_MS);
    const exit = await exited;
    server = undefined;

    const figures = report({
      options,
      pages,
      buildSeconds,
      onTmpfs: workspace.onTmpfs,
      loadBefore,
      loadAfter,
      tallies,
      rounds,
      roundFailures,
      roundReads: roundReader.counts,
      publishLog,
      before,
      after,
      rss: rssFigures,
      watch,
      runningAtEnd,
      exit,
    });
    console.log(`\n${figures}\n`);
    if (options.write) {
      writeDocSection(
        join(root, 'docs', 'benchmarks.md'),
        { start: START, end: END, heading: HEADING },
        figures,
      );
      console.log(`Wrote the figures to docs/benchmarks.md (${HEADING.slice(3)}).`);
    }

    const problems = [
      ...watch.crashLines.map((line) => `a crash sign: ${line}`),
      ...watch.failureLines.map((line) => `a failure: ${line}`),
      ...roundFailures,
      ...(readerFailures(roundReader.counts) > 0
        ? [`the round reader: ${roundReader.counts.examples.join('; ')}`]
        : []),
      ...[...tallies].flatMap(([kind, each]) =>
        each.unexpected + each.failures > 0 ? [`${kind}: ${each.examples.join('; ')}`] : [],
      ),
      ...(runningAtEnd ? [] : ['the server was not running at the end']),
      ...(after ? [] : ['/metrics did not answer at the end']),
      ...(exit.code === 0 && exit.signal === null
        ? []
        : [`the server exited with code ${exit.code}, signal ${exit.signal}`]),
    ];
    if (problems.length > 0) {
      console.error(`The soak failed:\n- ${problems.join('\n- ')}`);
      process.exitCode = 1;
    } else console.log('No native abort, no failure: the server ran and exited cleanly.');
  } finally {
    if (server) await stopServer(server, STOP_GRACE_MS);
    if (options.keep) console.log(`Kept ${workspace.dir} (--keep).`);
    else {
      try {
        workspace.remove();
      } catch (error) {
        // A build of a server that crashed may go on writing there for a while.
        console.error(`Could not remove ${workspace.dir}: ${(error as Error).message}`);
        process.exitCode = 1;
      }
    }
    console.log(`Benchmark took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  }
}

// ---------------------------------------------------------------- watching the server

interface ServerWatch {
  lines: number;
  /** Lines that say the process (or a child of it) crashed natively. */
  crashLines: string[];
  /** Lines that say a publish build or a digest failed. */
  failureLines: string[];
}

/** Scans every line the server writes (its request log included) for a crash or a failure. */
function watchServerLines(server: ChildProcess): ServerWatch {
  const watch: ServerWatch = { lines: 0, crashLines: [], failureLines: [] };
  for (const stream of [server.stdout!, server.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      watch.lines += 1;
      if (CRASH_SIGN.test(line)) {
        watch.crashLines.push(line);
        console.log(`    crash sign | ${line}`);
      }
      if (FAILURE_SIGN.test(line)) watch.failureLines.push(line);
    });
  }
  return watch;
}

interface MetricsSample {
  /** nodejs_gc_duration_seconds_count by kind (minor, major, incremental, weakcb). */
  gc: Record<string, number>;
  /** localboard_publishes_total by outcome (ok, failed). */
  publishes: Record<string, number>;
}

async function scrapeMetrics(base: string, token: string): Promise<MetricsSample> {
  const response = await fetch(`${base}/metrics`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  const byLabel = (name: string, label: string) => {
    const found: Record<string, number> = {};
    const line = new RegExp(`^${name}\\{${label}="([^"]+)"\\} (\\S+)$`, 'gm');
    for (const [, value, count] of text.matchAll(line)) found[value!] = Number(count);
    return found;
  };
  return {
    gc: byLabel('nodejs_gc_duration_seconds_count', 'kind'),
    publishes: byLabel('localboard_publishes_total', 'outcome'),
  };
}

interface RssFigures {
  startBytes: number;
  maxBytes: number;
  endBytes: number;
}

/** The server's own resident memory (VmRSS), every RSS_EVERY_MS. */
function sampleRss(pid: number) {
  const startBytes = residentBytes(pid);
  let maxBytes = startBytes;
  let endBytes = startBytes;
  const timer = setInterval(() => {
    const bytes = residentBytes(pid);
    if (bytes === 0) return;
    endBytes = bytes;
    maxBytes = Math.max(maxBytes, bytes);
  }, RSS_EVERY_MS);
  return {
    stop(): RssFigures {
      clearInterval(timer);
      const bytes = residentBytes(pid);
      if (bytes > 0) {
        endBytes = bytes;
        maxBytes = Math.max(maxBytes, bytes);
      }
      return { startBytes, maxBytes, endBytes };
    },
  };
}

// ---------------------------------------------------------------- figures

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const count = (value: number) => value.toLocaleString('en-US');
const ms = (value: number) => (Number.isNaN(value) ? '–' : value.toFixed(1));

function report(run: {
  options: SoakOptions;
  pages: string;
  buildSeconds: number;
  onTmpfs: boolean;
  loadBefore: number[];
  loadAfter: number[];
  tallies: ReadonlyMap<LoadKind, Tally>;
  rounds: readonly Round[];
  roundFailures: readonly string[];
  roundReads: ReaderCounts;
  publishLog: readonly string[];
  before: MetricsSample;
  /** Undefined when the server did not answer at the end. */
  after: MetricsSample | undefined;
  rss: RssFigures;
  watch: ServerWatch;
  runningAtEnd: boolean;
  exit: ServerExit;
}): string {
  const rows = [...run.tallies].map(([kind, tally]) => {
    const statuses = [...tally.statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, times]) => `${status} × ${count(times)}`)
      .join(', ');
    return `| ${kind} | ${count(tally.requests)} | ${statuses || '–'} | ${tally.unexpected} | ${tally.failures} | ${ms(percentile(tally.latencies, 0.5))} | ${ms(percentile(tally.latencies, 0.99))} |`;
  });
  const signups = run.tallies.get('sign-ups')!;
  const live = run.rounds.map((round) => round.liveMs);
  const gone = run.rounds.map((round) => round.goneMs);
  const timings =
    run.rounds.length === 0
      ? ''
      : `; live in p50 ${seconds(percentile(live, 0.5))} s, p95 ${seconds(percentile(live, 0.95))} s; gone in p50 ${seconds(percentile(gone, 0.5))} s, p95 ${seconds(percentile(gone, 0.95))} s`;
  const gcOver = (kind: string) =>
    run.after ? count((run.after.gc[kind] ?? 0) - (run.before.gc[kind] ?? 0)) : '?';
  const builds = (outcome: string) =>
    (run.after?.publishes[outcome] ?? NaN) - (run.before.publishes[outcome] ?? 0);
  const buildsText = run.after
    ? `**${builds('ok') + builds('failed')}, ${builds('failed')} failed**`
    : '**unknown** (no `/metrics` at the end)';
  const exit =
    run.exit.signal !== null
      ? `killed by ${run.exit.signal}`
      : `exit code ${run.exit.code}, no signal`;
  return [
    runLine(run.loadBefore, run.loadAfter),
    `- The site: ${count(run.options.ads)} generated ads, ${run.pages} pages, built in ${run.buildSeconds.toFixed(0)} s ${run.onTmpfs ? 'on tmpfs' : 'on disk'}; the real server (\`{out}/server/serve.mjs\`) on SQLite serves it on 127.0.0.1 and publishes into it.`,
    `- V8 collects by itself, often: \`NODE_OPTIONS=--max-semi-space-size=${SEMI_SPACE_MB}\` (a young generation of ${SEMI_SPACE_MB} MiB a semi-space, 16 by default) in the server, its publish builds and its digest. ${run.options.forcedGc ? `Also \`gc()\` every ${FORCED_GC_EVERY_MS / 1000} s (\`--forced-gc\`), which alone would not show the crash: V8 runs a forced collection's callbacks inside the call.` : 'No forced collection: `gc()` runs its callbacks inside the call and would not show the crash.'}`,
    `- For ${run.options.minutes} min at once: ${READERS} readers (landing, state, city and ad pages, \`/api/me\` as a member), ${SEARCHERS} searchers (\`/search?q=\`, one or two words, a city in 30 %), one client signing up (\`POST /api/signup\`, each from its own address behind \`TRUST_PROXY=1\`), and publishing rounds one after the other (a member ad approved by a moderator until its URL answers 200, then deleted by its member until it answers 404; each an incremental build in child processes).`,
    '',
    '| load | requests | statuses | unexpected | failed | p50 ms | p99 ms |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `Sign-ups: **${count(signups.statuses.get(201) ?? 0)} accounts made** of ${count(signups.requests)} asked for (statuses above; 503 is the hashing queue asking to wait).`,
    '',
    `Publishing: **${run.rounds.length} rounds**${run.roundFailures.length > 0 ? `, **${run.roundFailures.length} failed**` : ', none failed'}${timings}. Builds the server ran (\`localboard_publishes_total\`): ${buildsText}. A reader of each round's pages (the ad's, its city's, the landing page): ${readerLine(run.roundReads)}`,
    '',
    `In the server over the run (\`nodejs_gc_duration_seconds_count\` of \`GET /metrics\`): **${gcOver('minor')} minor and ${gcOver('major')} major collections**, ${gcOver('incremental')} incremental markings, ${gcOver('weakcb')} weak-callback passes. Its RSS: ${mib(run.rss.startBytes)} at the start, ${mib(run.rss.maxBytes)} at most, ${mib(run.rss.endBytes)} at the end (sampled every second).`,
    '',
    `Of the server's ${count(run.watch.lines)} lines (its own, its request log's, its builds' failures, its digest's): **${run.watch.crashLines.length} matching a native abort** (\`Assertion failed\`, \`FATAL ERROR\`, \`Segmentation fault\`, \`Aborted\`, \`core dumped\`), **${run.watch.failureLines.length} saying a build or a digest failed**. The server was ${run.runningAtEnd ? 'still running at the end' : '**not running at the end**'}; on SIGTERM: **${exit}**.`,
  ].join('\n');
}
