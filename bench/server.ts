// The server benchmark (`npm run bench:server`, scripts/bench-server.ts): builds the site if
// needed, starts the real server (server/index.ts as built, dist/server/serve.mjs, production password cost) in a child process
// on a free port of 127.0.0.1, and drives it from this process with keep-alive HTTP clients:
// pages and /api/me at 50 concurrent clients, alone and while 8 clients sign up as fast as they
// can. Prints the figures and writes them to docs/benchmarks.md (## Server under load). Then, on a
// new server, a burst of 200 sign-ups in one second while pages are fetched (bench/signup-burst.ts,
// ## Sign-up burst); `--only load` or `--only burst` runs one of the two. Every phase is bounded in
// time and in requests; nothing is sent anywhere but 127.0.0.1.
// The load phases run on each store given by `--stores` (default `sqlite,postgres` when a
// throwaway PostgreSQL can be started here, scripts/postgres.mjs; else SQLite alone), one after
// the other within each run, in alternating order, so the two are compared on the same machine
// at the same moment: a fresh SQLite file, or a fresh PostgreSQL database, for each.
// With --lookups, instead: finding editors' ads by id (`/report?ad=`, `/messages/new?ad=`) on
// --ads N generated ads (default 1,000,000), before and after the id index (bench/ad-lookups.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultHashingThreads } from '../server/auth/hashing-pool.ts';
// @ts-expect-error: a plain JavaScript module of the scripts, without types.
import { ensurePostgres, startThrowawayPostgres } from '../scripts/postgres.mjs';
import { benchAdLookups } from './ad-lookups.ts';
import { benchFeeds } from './feeds.ts';
import { writeDocSection } from './docs.ts';
import { freePort, stopServer } from './server-process.ts';
import { BURST_PEOPLE, BURST_SPREAD_MS } from './signup-burst-people.ts';
import { PAGE_RATE, signupBurst, type BurstResult } from './signup-burst.ts';

const root = join(import.meta.dirname, '..');
const HOST = '127.0.0.1';
const READERS = 50;
const SIGNUP_CLIENTS = 8;
/** Browsers ask for these; the server answers pages with brotli. */
const ACCEPT_ENCODING = 'br, gzip';
const START = '<!-- bench-server:start -->';
const END = '<!-- bench-server:end -->';
const HEADING = '## Server under load';
const BURST_START = '<!-- bench-server-burst:start -->';
const BURST_END = '<!-- bench-server-burst:end -->';
const BURST_HEADING = '## Sign-up burst';

export interface ServerBenchOptions {
  runs: number;
  /** Measured seconds per phase (after a one-second warm-up). */
  seconds: number;
  /** Most requests per phase, whatever the time. */
  maxRequests: number;
  write: boolean;
  /** Only the load phases, or only the sign-up burst (both by default); or only the feeds (bench/feeds.ts). */
  only?: 'load' | 'burst' | 'feeds';
  /** The server's hashing threads (PASSWORD_HASH_THREADS); the server's default otherwise. */
  hashThreads?: number;
  /** Measure finding ads by id instead (bench/ad-lookups.ts), on this many generated ads. */
  lookups?: { ads: number; count: number; keep: boolean };
  /** The stores the load phases run on; undefined: both when PostgreSQL can be started. */
  stores?: StoreKind[];
}

export { HOST, ACCEPT_ENCODING, READERS };

export type StoreKind = 'sqlite' | 'postgres';
const STORE_NAMES: Record<StoreKind, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

const USAGE =
  'usage: npm run bench:server -- [--runs N] [--seconds S] [--only load|burst|feeds] [--stores sqlite,postgres] [--hash-threads N] [--no-write]\n' +
  '       npm run bench:server -- --lookups [--ads N] [--count N] [--no-write] [--keep]';

export function parseServerBenchOptions(argv: readonly string[]): ServerBenchOptions {
  const options: ServerBenchOptions = { runs: 2, seconds: 8, maxRequests: 400_000, write: true };
  const lookups = { ads: 1_000_000, count: 1000, keep: false };
  let lookupFlags = false;
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    const number = () => {
      const value = Number(argv[++index]?.replace(/[_,]/g, ''));
      if (!Number.isInteger(value) || value < 1)
        throw new Error(`${flag} needs a whole number\n${USAGE}`);
      return value;
    };
    if (flag === '--runs') options.runs = number();
    else if (flag === '--seconds') options.seconds = number();
    else if (flag === '--hash-threads') options.hashThreads = number();
    else if (flag === '--only') {
      const part = argv[++index];
      if (part !== 'load' && part !== 'burst' && part !== 'feeds')
        throw new Error(`--only load, burst or feeds\n${USAGE}`);
      options.only = part;
    } else if (flag === '--stores') {
      const stores = (argv[++index] ?? '').split(',').filter(Boolean);
      if (
        stores.length === 0 ||
        stores.some((store) => !(store in STORE_NAMES)) ||
        new Set(stores).size !== stores.length
      )
        throw new Error(`--stores sqlite, postgres or sqlite,postgres\n${USAGE}`);
      options.stores = stores as StoreKind[];
    } else if (flag === '--no-write') options.write = false;
    else if (flag === '--lookups') options.lookups = lookups;
    else if (flag === '--ads' || flag === '--count' || flag === '--keep') {
      lookupFlags = true;
      if (flag === '--keep') lookups.keep = true;
      else lookups[flag === '--ads' ? 'ads' : 'count'] = number();
    } else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  if (lookupFlags && !options.lookups)
    throw new Error(`--ads, --count and --keep go with --lookups\n${USAGE}`);
  return options;
}

interface Sample {
  /** Milliseconds from sending the request to the last byte of the answer. */
  latencies: number[];
  failures: number;
  elapsedMs: number;
}

export interface PhaseResult {
  name: string;
  path: string;
  underSignups: boolean;
  requests: number;
  failures: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  signups?: { completed: number; perSecond: number; statuses: Record<string, number>; p50: number };
}

interface RunResult {
  index: number;
  store: StoreKind;
  loadBefore: number;
  phases: PhaseResult[];
}

// ---------------------------------------------------------------- HTTP client

function send(
  agent: Agent,
  port: number,
  method: 'GET' | 'POST',
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; setCookie: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: HOST, port, method, path, agent, headers, timeout: 30_000 },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'] ?? [] }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

export async function readers(
  port: number,
  path: string,
  headers: Record<string, string>,
  durationMs: number,
  maxRequests: number,
  expectedStatus = 200,
): Promise<Sample> {
  const agent = new Agent({ keepAlive: true, maxSockets: READERS });
  const latencies: number[] = [];
  let failures = 0;
  let issued = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const reader = async () => {
    while (performance.now() < deadline && issued < maxRequests) {
      issued += 1;
      const sent = performance.now();
      try {
        const { status } = await send(agent, port, 'GET', path, headers);
        latencies.push(performance.now() - sent);
        if (status !== expectedStatus) failures += 1;
      } catch {
        failures += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: READERS }, reader));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  return { latencies, failures, elapsedMs };
}

/**
 * Sign-ups so far in this process: each one's address and email are new, also across the phases
 * that run on one server (a repeated email is a 409, a repeated address may meet its limit).
 */
let signupCounter = 0;

/** Clients signing up back to back, each time as a new address behind the proxy, until stopped. */
function signupLoad(port: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: SIGNUP_CLIENTS });
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let stopped = false;
  const client = async (clientIndex: number) => {
    while (!stopped) {
      const counter = ++signupCounter;
      const body = JSON.stringify({
        email: `bench-${process.pid}-${clientIndex}-${counter}@example.com`,
        password: `bench password ${counter}`,
        dateOfBirth: '1990-05-17',
      });
      // A different client address each time (TRUST_PROXY=1), so no per-address limit stops the
      // load: the attacker the hashing pool is there for has many addresses.
      const forwardedFor = `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
      const sent = performance.now();
      try {
        const { status } = await send(
          agent,
          port,
          'POST',
          '/api/signup',
          { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
          body,
        );
        statuses[status] = (statuses[status] ?? 0) + 1;
        latencies.push(performance.now() - sent);
        // A refused sign-up (503) says when to come back; these clients come back at once.
      } catch {
        statuses.error = (statuses.error ?? 0) + 1;
      }
    }
  };
  const running = Promise.all(Array.from({ length: SIGNUP_CLIENTS }, (_, index) => client(index)));
  const started = performance.now();
  const reset = () => {
    for (const key of Object.keys(statuses)) delete statuses[key];
    latencies.length = 0;
  };
  return {
    /** Forget what was counted so far (the warm-up). */
    reset,
    async stop() {
      stopped = true;
      await running;
      agent.destroy();
      return { statuses, latencies, elapsedMs: performance.now() - started };
    },
  };
}

// ---------------------------------------------------------------- server

/** Where a server keeps its data: its SQLite file in `dataDir`, or a PostgreSQL database. */
type ServerStore = { databaseUrl?: string };

export async function startServer(dataDir: string, hashThreads?: number, store: ServerStore = {}) {
  const port = await freePort(HOST);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST,
    PORT: String(port),
    DATABASE_PATH: join(dataDir, 'bench.sqlite'),
    ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    TRUST_PROXY: '1',
    MAIL_OUTBOX_DIR: join(dataDir, 'outbox'),
  };
  // The production cost (64 MiB a hash), whatever the calling shell says.
  delete env.PASSWORD_HASH_COST;
  delete env.PASSWORD_HASH_THREADS;
  delete env.PASSWORD_HASH_MAX_WAIT_MS;
  if (!store.databaseUrl) delete env.DATABASE_URL;
  if (hashThreads) env.PASSWORD_HASH_THREADS = String(hashThreads);
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/serve.mjs'], {
    cwd: root,
    env,
    // The request log goes nowhere: the server still writes it, as in production.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const agent = new Agent({ keepAlive: false });
  const deadline = performance.now() + 120_000;
  // Ready, not only listening: on PostgreSQL an instance first builds its site from the database
  // (server/index.ts), a publish that would otherwise run during the first phase.
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited (code ${child.exitCode}).`);
    try {
      if ((await send(agent, port, 'GET', '/readyz', {})).status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('The server was not ready (/readyz 200) within 120 s.');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { port, child };
}

/** A throwaway PostgreSQL for the benchmark: a new empty database for each run. */
interface BenchPostgres {
  newDatabase(): Promise<string>;
  stop(): void;
}

/** Starts one (scripts/postgres.mjs); undefined, with a line saying why, when it cannot. */
async function startBenchPostgres(required: boolean): Promise<BenchPostgres | undefined> {
  const found = ensurePostgres() as { binDir?: string; problem?: string };
  if (!found.binDir) {
    if (required) throw new Error(found.problem);
    console.log(`PostgreSQL is left out: ${found.problem}`);
    return undefined;
  }
  const cluster = (await startThrowawayPostgres(found.binDir)) as {
    url: string;
    port: number;
    stop(): void;
  };
  let made = 0;
  return {
    async newDatabase() {
      const name = `bench_${++made}`;
      const created = spawnSync(
        join(found.binDir!, 'createdb'),
        ['-h', HOST, '-p', String(cluster.port), '-U', 'localboard', name],
        { encoding: 'utf8' },
      );
      if (created.status !== 0) throw new Error(`createdb failed: ${created.stderr.trim()}`);
      const url = new URL(cluster.url);
      url.pathname = `/${name}`;
      return url.toString();
    },
    stop: () => cluster.stop(),
  };
}

// ---------------------------------------------------------------- figures

function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

export function summarise(
  name: string,
  path: string,
  underSignups: boolean,
  sample: Sample,
): PhaseResult {
  const sorted = Float64Array.from(sample.latencies).sort();
  return {
    name,
    path,
    underSignups,
    requests: sorted.length,
    failures: sample.failures,
    rps: sorted.length / (sample.elapsedMs / 1000),
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? NaN,
  };
}

/** A city page of the built site: Los Angeles when it is there, else the first one found. */
export function cityPath(siteDir: string): string {
  if (existsSync(join(siteDir, 'city', 'California', 'Los Angeles', 'index.html')))
    return '/city/California/Los%20Angeles';
  for (const state of readdirSync(join(siteDir, 'city')).sort()) {
    const city = readdirSync(join(siteDir, 'city', state)).sort()[0];
    if (city) return `/city/${encodeURIComponent(state)}/${encodeURIComponent(city)}`;
  }
  throw new Error(`No city page in ${siteDir}.`);
}

async function runOnce(
  index: number,
  options: ServerBenchOptions,
  city: string,
  store: StoreKind,
  postgres: BenchPostgres | undefined,
): Promise<RunResult> {
  const loadBefore = loadavg()[0]!;
  const dataDir = mkdtempSync(join(tmpdir(), 'localboard-bench-server-'));
  const databaseUrl = store === 'postgres' ? await postgres!.newDatabase() : undefined;
  const { port, child } = await startServer(dataDir, options.hashThreads, { databaseUrl });
  const phases: PhaseResult[] = [];
  try {
    // One member for /api/me.
    const signupAgent = new Agent({ keepAlive: false });
    const member = await send(
      signupAgent,
      port,
      'POST',
      '/api/signup',
      { 'content-type': 'application/json' },
      JSON.stringify({
        email: 'bench-member@example.com',
        password: 'bench member password',
        dateOfBirth: '1990-05-17',
      }),
    );
    const session = member.setCookie.map((cookie) => cookie.split(';')[0]).join('; ');
    if (member.status !== 201 || !session)
      throw new Error(`The member's sign-up answered ${member.status}.`);

    const ms = options.seconds * 1000;
    const page = { 'accept-encoding': ACCEPT_ENCODING };
    const targets = [
      { name: 'GET /', path: '/', headers: page },
      { name: 'GET city page', path: city, headers: page },
      { name: 'GET /api/me', path: '/api/me', headers: { cookie: session } },
    ];
    for (const target of targets) {
      await readers(port, target.path, target.headers, 1000, options.maxRequests);
      const sample = await readers(port, target.path, target.headers, ms, options.maxRequests);
      phases.push(summarise(target.name, target.path, false, sample));
      log(phases.at(-1)!);
    }
    for (const target of targets.slice(0, 2)) {
      const signups = signupLoad(port);
      // The sign-ups run a second before measuring, so the hashing queue is full from the start.
      await readers(port, target.path, target.headers, 1000, options.maxRequests);
      signups.reset();
      const sample = await readers(port, target.path, target.headers, ms, options.maxRequests);
      const { statuses, latencies, elapsedMs } = await signups.stop();
      const result = summarise(target.name, target.path, true, sample);
      const completed = statuses['201'] ?? 0;
      result.signups = {
        completed,
        perSecond: completed / (Math.min(elapsedMs, ms) / 1000),
        statuses,
        p50: percentile(Float64Array.from(latencies).sort(), 0.5),
      };
      phases.push(result);
      log(result);
    }
  } finally {
    await stopServer(child, 5_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { index, store, loadBefore, phases };
}

function log(phase: PhaseResult) {
  const under = phase.underSignups ? ' + 8 sign-ups' : '';
  console.log(
    `  ${phase.name}${under}: ${phase.requests} requests, ${phase.rps.toFixed(0)}/s, p50 ${phase.p50.toFixed(1)} ms, p99 ${phase.p99.toFixed(1)} ms` +
      (phase.signups ? `, sign-ups ${JSON.stringify(phase.signups.statuses)}` : ''),
  );
}

export const ms = (value: number) =>
  Number.isNaN(value) ? '–' : value < 10 ? value.toFixed(1) : value.toFixed(0);
export const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

/** The run whose worst p99 under sign-ups is lower is the better one. */
const worstP99 = (run: RunResult) =>
  Math.max(...run.phases.filter((phase) => phase.underSignups).map((phase) => phase.p99));

function table(run: RunResult): string {
  const lines = [
    '| request, 50 concurrent clients | alone: p50 / p99 ms | alone: req/s | with 8 clients signing up: p50 / p99 ms | req/s | sign-ups/s (201) | failed |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const alone of run.phases.filter((phase) => !phase.underSignups)) {
    const loaded = run.phases.find((phase) => phase.underSignups && phase.path === alone.path);
    const failed = alone.failures + (loaded?.failures ?? 0);
    lines.push(
      `| ${alone.name} | ${ms(alone.p50)} / ${ms(alone.p99)} | ${thousands(alone.rps)} | ` +
        (loaded
          ? `${ms(loaded.p50)} / ${ms(loaded.p99)} | ${thousands(loaded.rps)} | ${loaded.signups!.perSecond.toFixed(1)} |`
          : '– | – | – |') +
        ` ${failed} |`,
    );
  }
  return lines.join('\n');
}

function report(allRuns: RunResult[], options: ServerBenchOptions): string {
  const stores = [...new Set(allRuns.map((run) => run.store))];
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const header = [
    `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${allRuns.length / stores.length} runs of ${options.seconds} s a phase (after 1 s of warm-up) on ${stores.map((store) => STORE_NAMES[store]).join(' and ')}, Node ${process.version}.`,
    `- Machine: ${availableParallelism()} cores (${cpu}), **shared**: other builds were running on it, so the figures move from run to run; the load average (1 min) before each run is given.`,
    `- The server (\`server/index.ts\`, one process, password hashing on ${options.hashThreads ?? defaultHashingThreads()} thread(s), scrypt at 64 MiB) and the load generator (this process) share those cores.` +
      (stores.includes('postgres')
        ? ' PostgreSQL 15 (a throwaway cluster on the same machine, fsync off, on the same cores) serves the PostgreSQL runs; each run of a store starts on an empty database, the two stores one after the other in alternating order.'
        : ''),
  ];
  if (stores.length > 1) header.push('', comparison(allRuns));
  return [...header, ...stores.flatMap((store) => storeReport(allRuns, store))].join('\n');
}

/** /api/me requests per second and the worst page p99 under sign-ups, store beside store, run by run. */
function comparison(runs: RunResult[]): string {
  const lines = [
    '| run | /api/me req/s: SQLite | PostgreSQL | ratio | worst page p99 with 8 sign-ups, ms: SQLite | PostgreSQL |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  const me = (run: RunResult | undefined) =>
    run?.phases.find((phase) => phase.path === '/api/me' && !phase.underSignups)?.rps ?? NaN;
  for (const index of [...new Set(runs.map((run) => run.index))]) {
    const sqlite = runs.find((run) => run.index === index && run.store === 'sqlite');
    const postgres = runs.find((run) => run.index === index && run.store === 'postgres');
    lines.push(
      `| ${index} | ${thousands(me(sqlite))} | ${thousands(me(postgres))} | ${(me(postgres) / me(sqlite)).toFixed(2)} | ` +
        `${sqlite ? ms(worstP99(sqlite)) : '–'} | ${postgres ? ms(worstP99(postgres)) : '–'} |`,
    );
  }
  return lines.join('\n');
}

function storeReport(allRuns: RunResult[], store: StoreKind): string[] {
  const runs = allRuns.filter((run) => run.store === store);
  const ranked = [...runs].sort((a, b) => worstP99(a) - worstP99(b));
  const lines: string[] = [];
  for (const [rank, run] of ranked.entries()) {
    const label =
      ranked.length === 1
        ? 'Run'
        : rank === 0
          ? 'Better run'
          : rank === ranked.length - 1
            ? 'Worse run'
            : 'Run';
    lines.push(
      '',
      `### ${STORE_NAMES[store]}: ${label.toLowerCase()} (run ${run.index} of ${runs.length}, load average ${run.loadBefore.toFixed(2)} before)`,
      '',
      table(run),
    );
    const signups = run.phases.filter((phase) => phase.signups);
    const statuses = signups.map(
      (phase) =>
        `${phase.name}: ${Object.entries(phase.signups!.statuses)
          .map(([status, count]) => `${count} × ${status}`)
          .join(', ')}, sign-up p50 ${ms(phase.signups!.p50)} ms`,
    );
    lines.push('', `Sign-up answers during the loaded phases — ${statuses.join('; ')}.`);
  }
  return lines;
}

// ---------------------------------------------------------------- the sign-up burst

interface BurstRun extends BurstResult {
  index: number;
}

async function burstOnce(
  index: number,
  options: ServerBenchOptions,
  city: string,
): Promise<BurstRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'localboard-bench-burst-'));
  const { port, child } = await startServer(dataDir, options.hashThreads);
  try {
    const result = await signupBurst(port, join(dataDir, 'bench.sqlite'), ['/', city]);
    console.log(
      `  burst: ${result.created} of ${result.people} accounts, the last at ${seconds(result.lastCreatedMs)}, ` +
        `${result.busyAnswers} × 503; pages p99 ${ms(result.pagesAlone.p99)} ms alone, ${ms(result.pagesDuring.p99)} ms during`,
    );
    return { index, ...result };
  } finally {
    await stopServer(child, 5_000);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const seconds = (value: number) => `${(value / 1000).toFixed(1)} s`;

function burstReport(runs: BurstRun[], options: ServerBenchOptions): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const lines = [
    `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${runs.length} ${runs.length === 1 ? 'run' : 'runs'}, Node ${process.version}.`,
    `- Machine: ${availableParallelism()} cores (${cpu}), **shared** with other engineers' builds and tests: the load average (1 min) before and after each run is given.`,
    `- The server: one process, password hashing on ${options.hashThreads ?? defaultHashingThreads()} thread(s) at nice 10, scrypt at 64 MiB, the default bound of 10 s of expected wait; the load generator shares the cores.`,
    `- ${BURST_PEOPLE} sign-ups from ${BURST_PEOPLE} addresses sent evenly over ${BURST_SPREAD_MS / 1000} s, each waiting out 503s as the forms do (a minute of patience); pages (\`/\` and a city page in turn) at ${PAGE_RATE} a second, 5 s alone, then all through the burst.`,
    '',
    '| run (load before → after) | accounts made | the last made at | sign-up p50 / max | 503 answers (most for one person) | gave up | pages alone p50 / p99 ms | pages during the burst p50 / p99 / max ms | p99 during ÷ alone |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const run of runs) {
    lines.push(
      `| ${run.index} (${run.loadBefore.toFixed(2)} → ${run.loadAfter.toFixed(2)}) | ${run.created} of ${run.people} | ${seconds(run.lastCreatedMs)} | ` +
        `${seconds(run.signupP50Ms)} / ${seconds(run.signupMaxMs)} | ${run.busyAnswers} (${run.mostBusy}) | ${run.gaveUp} | ` +
        `${ms(run.pagesAlone.p50)} / ${ms(run.pagesAlone.p99)} | ${ms(run.pagesDuring.p50)} / ${ms(run.pagesDuring.p99)} / ${ms(run.pagesDuring.max)} | ` +
        `${(run.pagesDuring.p99 / run.pagesAlone.p99).toFixed(1)} |`,
    );
  }
  const failedBy: Record<string, number> = {};
  for (const figures of runs.flatMap((run) => [run.pagesAlone, run.pagesDuring]))
    for (const [why, count] of Object.entries(figures.failedBy))
      failedBy[why] = (failedBy[why] ?? 0) + count;
  const failed = Object.values(failedBy).reduce((sum, count) => sum + count, 0);
  const pages = runs.reduce(
    (sum, run) => sum + run.pagesAlone.requests + run.pagesDuring.requests,
    0,
  );
  const statuses = runs.map(
    (run) =>
      `run ${run.index}: ${Object.entries(run.finalStatuses)
        .map(([status, count]) => `${count} × ${status}`)
        .join(', ')}`,
  );
  lines.push(
    '',
    `Each person's last answer — ${statuses.join('; ')}. Pages that failed: ${failed} of ${thousands(pages)}` +
      (failed > 0
        ? ` (${Object.entries(failedBy)
            .map(([why, count]) => `${count} × ${why}`)
            .join(', ')}).`
        : '.'),
  );
  return lines.join('\n');
}

function writeDoc(figures: string) {
  writeDocSection(
    join(root, 'docs', 'benchmarks.md'),
    { start: START, end: END, heading: HEADING },
    figures,
  );
}

export async function benchServer(argv: readonly string[]): Promise<void> {
  const options = parseServerBenchOptions(argv);
  if (options.lookups) {
    const { ads, count, keep } = options.lookups;
    return benchAdLookups({ ads, lookups: count, write: options.write, keep });
  }
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-needed'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('The build failed.');
  const city = cityPath(join(root, 'dist', 'site'));
  if (options.only === 'feeds') return benchFeeds(options, city);
  if (options.only !== 'burst') {
    const postgres =
      options.stores?.includes('sqlite') && options.stores.length === 1
        ? undefined
        : await startBenchPostgres(options.stores !== undefined);
    const stores: StoreKind[] = options.stores ?? (postgres ? ['sqlite', 'postgres'] : ['sqlite']);
    const runs: RunResult[] = [];
    try {
      for (let index = 1; index <= options.runs; index += 1) {
        // Alternating order: neither store always runs on the warmer (or more loaded) machine.
        const order = index % 2 === 1 ? stores : [...stores].reverse();
        for (const store of order) {
          console.log(
            `Run ${index} of ${options.runs} on ${STORE_NAMES[store]} (load average ${loadavg()[0]!.toFixed(2)}):`,
          );
          runs.push(await runOnce(index, options, city, store, postgres));
        }
      }
    } finally {
      postgres?.stop();
    }
    const figures = report(runs, options);
    console.log(`\n${figures}\n`);
    if (options.write) {
      writeDoc(figures);
      console.log('Wrote the figures to docs/benchmarks.md (## Server under load).');
    }
  }
  if (options.only !== 'load') {
    const bursts: BurstRun[] = [];
    for (let index = 1; index <= options.runs; index += 1) {
      console.log(
        `Sign-up burst ${index} of ${options.runs} (load average ${loadavg()[0]!.toFixed(2)}):`,
      );
      bursts.push(await burstOnce(index, options, city));
    }
    const figures = burstReport(bursts, options);
    console.log(`\n${figures}\n`);
    if (options.write) {
      writeDocSection(
        join(root, 'docs', 'benchmarks.md'),
        { start: BURST_START, end: BURST_END, heading: BURST_HEADING },
        figures,
      );
      console.log(`Wrote the figures to docs/benchmarks.md (${BURST_HEADING}).`);
    }
  }
}
