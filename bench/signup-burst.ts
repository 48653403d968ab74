// The sign-up burst of `npm run bench:server` (issue 21): 200 people from 200 addresses sign up
// within one second on the real server (production password cost), each with a client that waits
// out a busy server's 503 as the browser's forms do (src/client/submit-json.ts: Retry-After, a
// minute of patience), while pages are fetched at a steady rate. It reports how many accounts were
// made, when the last one was, and the pages' latency meanwhile beside the same rate alone. The
// people run in a process of their own (signup-burst-people.ts).
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openBenchStore } from './bench-store.ts';
import { BURST_PEOPLE, type Person } from './signup-burst-people.ts';

const HOST = '127.0.0.1';
/**
 * Pages a second, sent on schedule whether or not the earlier ones were answered (an open loop,
 * as visitors arrive): a busy site's traffic that leaves the cores room to hash, not the 50
 * back-to-back readers of the load phases, which take every cycle there is.
 */
export const PAGE_RATE = 100;
/** Pages alone before the burst, at the same rate. */
const ALONE_MS = 5000;
/** Most concurrent page requests; more wait for a connection (their wait counts in latency). */
const PAGE_SOCKETS = 64;

export interface PageFigures {
  requests: number;
  failures: number;
  /** Why they failed: the status, or the error's code. */
  failedBy: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
}

export interface BurstResult {
  people: number;
  /** Accounts in the database afterwards. */
  created: number;
  /** Each client's last answer, by status. */
  finalStatuses: Record<string, number>;
  /** 503 answers in all, and the most one client had. */
  busyAnswers: number;
  mostBusy: number;
  /** Clients whose minute of patience ran out. */
  gaveUp: number;
  /** From the first sign-up sent to the last 201. */
  lastCreatedMs: number;
  /** Per client, from its first attempt to its 201. */
  signupP50Ms: number;
  signupMaxMs: number;
  pagesAlone: PageFigures;
  pagesDuring: PageFigures;
  loadBefore: number;
  loadAfter: number;
}

/** GETs one path; resolves to the status, or the error's code when the request failed. */
function get(agent: Agent, port: number, path: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: HOST,
        port,
        path,
        agent,
        headers: { 'accept-encoding': 'br, gzip' },
        timeout: 30_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

/** Pages at PAGE_RATE a second, taking `paths` in turn, until stopped. */
function steadyPages(port: number, paths: readonly string[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: PAGE_SOCKETS });
  const latencies: number[] = [];
  const answered: Promise<void>[] = [];
  let failures = 0;
  const failedBy: Record<string, number> = {};
  let sent = 0;
  const started = performance.now();
  const sendDue = () => {
    // Catches up when the timer fired late, so the rate holds.
    const due = Math.floor(((performance.now() - started) * PAGE_RATE) / 1000);
    for (; sent < due; sent += 1) {
      const path = paths[sent % paths.length]!;
      const at = performance.now();
      answered.push(
        get(agent, port, path).then((status) => {
          latencies.push(performance.now() - at);
          if (status === 200) return;
          failures += 1;
          failedBy[status] = (failedBy[status] ?? 0) + 1;
        }),
      );
    }
  };
  const timer = setInterval(sendDue, 1000 / PAGE_RATE);
  return {
    async stop(): Promise<PageFigures> {
      clearInterval(timer);
      await Promise.all(answered);
      agent.destroy();
      const sorted = Float64Array.from(latencies).sort();
      const at = (fraction: number) =>
        sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? NaN;
      return {
        requests: sorted.length,
        failures,
        failedBy,
        p50: at(0.5),
        p99: at(0.99),
        max: sorted.at(-1) ?? NaN,
      };
    },
  };
}

/**
 * The people, in a process of their own (bench/signup-burst-people.ts), so that their 200
 * clients never delay the answers to the pages measured here.
 */
function peopleSigningUp(port: number): Promise<Person[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, join(import.meta.dirname, 'signup-burst-people.ts'), String(port)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(output) as Person[])
        : reject(new Error(`The people's process exited with code ${code}.`)),
    );
  });
}

/** The burst against the server on `port`, whose database is `databasePath`. */
export async function signupBurst(
  port: number,
  databasePath: string,
  pagePaths: readonly string[],
): Promise<BurstResult> {
  const loadBefore = loadavg()[0]!;
  // Warm the connections and the page cache for a second, then the same rate alone.
  const warmUp = steadyPages(port, pagePaths);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await warmUp.stop();
  const alone = steadyPages(port, pagePaths);
  await new Promise((resolve) => setTimeout(resolve, ALONE_MS));
  const pagesAlone = await alone.stop();

  const during = steadyPages(port, pagePaths);
  const people = await peopleSigningUp(port);
  const pagesDuring = await during.stop();
  const loadAfter = loadavg()[0]!;

  const database = await openBenchStore({ path: databasePath });
  const { created } = await database.db
    .selectFrom('accounts')
    .select(sql<number>`cast(count(*) as integer)`.as('created'))
    .executeTakeFirstOrThrow();
  await database.close();

  const finalStatuses: Record<string, number> = {};
  for (const person of people)
    finalStatuses[person.status] = (finalStatuses[person.status] ?? 0) + 1;
  const createdPeople = people.filter((person) => person.status === 201);
  const durations = Float64Array.from(
    createdPeople.map((person) => person.answeredMs - person.firstSentMs),
  ).sort();
  return {
    people: BURST_PEOPLE,
    created,
    finalStatuses,
    busyAnswers: people.reduce((sum, person) => sum + person.busy, 0),
    mostBusy: Math.max(...people.map((person) => person.busy)),
    gaveUp: people.filter((person) => person.status === 503).length,
    lastCreatedMs: Math.max(0, ...createdPeople.map((person) => person.answeredMs)),
    signupP50Ms: durations[Math.max(0, Math.ceil(durations.length / 2) - 1)] ?? NaN,
    signupMaxMs: durations.at(-1) ?? NaN,
    pagesAlone,
    pagesDuring,
    loadBefore,
    loadAfter,
  };
}
