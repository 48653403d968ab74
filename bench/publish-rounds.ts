// The pieces of the publishing benchmarks (bench/publish.ts: one server; bench/instances.ts: two
// servers on one PostgreSQL): the real server of a build, its publish log, the member's and the
// moderator's actions over HTTP, the clock from an action until a URL answers, and a reader that
// checks every page it fetches is whole.
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Kysely } from 'kysely';
import { makeModerator } from '../server/moderation/moderator-command.ts';
import { adPath, cityPath } from '../core/paths.ts';
import type { StoreHandle } from '../store/store.ts';
import type { Tables } from '../store/tables.ts';

const root = join(import.meta.dirname, '..');
export const HOST = '127.0.0.1';
/** How often the timer asks for the ad's URL while it waits. */
export const POLL_MS = 20;
/** The longest a publish may take before the run gives up. */
const GIVE_UP_MS = 60_000;

// ---------------------------------------------------------------- the server

export interface ServerSettings {
  port: number;
  /** The build's output: the site is {outDir}/site, the server {outDir}/server/serve.mjs. */
  outDir: string;
  /** The compiled content it reads and its publishes write (COMPILED_CONTENT_DIR). */
  cacheDir: string;
  contentDir: string;
  buildDate: string;
  /** Its own folder: the mail outbox, and the SQLite file (DATABASE_PATH) without a URL. */
  dataDir: string;
  /** On PostgreSQL (DATABASE_URL); else the SQLite file in `dataDir`. */
  databaseUrl?: string;
  /** More of its environment (NODE_OPTIONS, TRUST_PROXY…), over the benchmark's own. */
  env?: NodeJS.ProcessEnv;
  /** Its working folder: this project's (default), or the checkout whose build it runs. */
  cwd?: string;
}

/** The SQLite file of a server started without a database URL. */
export const sqlitePathIn = (dataDir: string) => join(dataDir, 'localboard.sqlite');

/** Starts the build's own server ({outDir}/server/serve.mjs) on 127.0.0.1, publishing into it. */
export function startServer(settings: ServerSettings): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST,
    PORT: String(settings.port),
    SITE_DIR: join(settings.outDir, 'site'),
    COMPILED_CONTENT_DIR: settings.cacheDir,
    CONTENT_DIR: settings.contentDir,
    BUILD_DATE: settings.buildDate,
    MAIL_OUTBOX_DIR: join(settings.dataDir, 'outbox'),
    ...settings.env,
  };
  delete env.DATABASE_URL;
  delete env.DATABASE_PATH;
  if (settings.databaseUrl) env.DATABASE_URL = settings.databaseUrl;
  else env.DATABASE_PATH = sqlitePathIn(settings.dataDir);
  return spawn(
    process.execPath,
    ['--enable-source-maps', join(settings.outDir, 'server', 'serve.mjs')],
    { cwd: settings.cwd ?? root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/** A line of a server's publish log, and when the benchmark read it (performance.now()). */
export interface TimedLine {
  at: number;
  line: string;
}

/**
 * The server's lines about publishing, kept in `lines` (the request log is left aside), and in
 * `timed` with the moment each was read when given; those that say a publish began or went wrong,
 * and anything on stderr, are shown as they come, after `label` when given (which server said it).
 */
export function collectPublishLines(
  server: ChildProcess,
  lines: string[],
  { label = '', timed }: { label?: string; timed?: TimedLine[] } = {},
): void {
  for (const stream of [server.stdout!, server.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      if (/^(Published|Publishing|Warning)/.test(line)) {
        lines.push(line);
        timed?.push({ at: performance.now(), line });
      }
      if (/^(Publishing|Warning)/.test(line) || stream === server.stderr)
        console.log(`    ${label}| ${line}`);
    });
  }
}

/** Waits until `path` on the server answers 200 (`/`: it serves; `/readyz`: it is ready). */
export async function waitForServer(
  base: string,
  server: ChildProcess,
  { path = '/', timeoutMs = 60_000 }: { path?: string; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = 'no answer';
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The server exited (code ${server.exitCode}).`);
    try {
      const answer = await fetch(`${base}${path}`);
      const body = await answer.text();
      if (answer.status === 200) return;
      last = `${answer.status} ${body.trim().slice(0, 200)}`;
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline)
      throw new Error(
        `${base}${path} did not answer 200 within ${timeoutMs / 1000} s (last: ${last}).`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A build's duration in s, when `line` says a build published (`Published the site for D in N s (…)`). */
export function publishedIn(line: string): number | undefined {
  const took = /^Published .* in ([\d.]+) s/.exec(line)?.[1];
  return took === undefined ? undefined : Number(took);
}

/** The durations of the builds in a publish log, in s. */
export function publishSeconds(publishLog: readonly string[]): number[] {
  return publishLog.map(publishedIn).filter((value): value is number => value !== undefined);
}

// ---------------------------------------------------------------- people and their actions

/** Signs up through the API; the session cookie. */
export async function signUp(base: string, email: string): Promise<string> {
  const response = await fetch(`${base}/api/signup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ email, password: 'bench password 2026', dateOfBirth: '1990-05-17' }),
  });
  const cookie = /lb_session=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0];
  if (response.status !== 201 || !cookie)
    throw new Error(`Signing up ${email} answered ${response.status}: ${await response.text()}`);
  return cookie;
}

export interface PosterAndModerator {
  /** The poster's session cookie, its account's id. */
  poster: string;
  posterId: number;
  /** The moderator's session cookie. */
  moderator: string;
}

/**
 * A member who may post (signed up on `base`, verified as the emailed link does) and a moderator
 * (signed up there, the role given as the operator's command gives it: server/moderation/moderator-command.ts).
 */
export async function posterAndModerator(
  base: string,
  store: StoreHandle,
): Promise<PosterAndModerator> {
  const poster = await signUp(base, 'bench-poster@example.org');
  const account = await store.accounts.findByEmail('bench-poster@example.org');
  if (!account) throw new Error('The poster has no account.');
  await store.accounts.markVerified(account.id, new Date().toISOString());
  const moderator = await signUp(base, 'bench-moderator@example.org');
  const made = await makeModerator(store, 'bench-moderator@example.org');
  if (made.code !== 0) throw new Error('The moderator role was not given.');
  return { poster, posterId: account.id, moderator };
}

/** A member's or moderator's action through its route, as the pages' forms post it. */
export async function act(base: string, cookie: string, path: string, body: object): Promise<void> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base, Cookie: cookie },
    body: JSON.stringify(body),
  });
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
}

/** A member ad waiting for review, as the posting form stores it; its id. */
export async function insertReviewAd(
  db: Kysely<Tables>,
  accountId: number,
  state: string,
  city: string,
  index: number,
): Promise<number> {
  const now = new Date().toISOString();
  const { id } = await db
    .insertInto('member_ads')
    .values({
      account_id: accountId,
      state,
      city,
      age: 34,
      seeks: 'm4w',
      title: `Publishing benchmark ad ${index + 1}: coffee and a walk`,
      description: 'A plain ad for the publishing benchmark. Coffee, a walk by the water, a chat.',
      status: 'review',
      created_at: now,
      submitted_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

// ---------------------------------------------------------------- the clock

/**
 * Milliseconds from the start of `act()` until `path` answers `status`, on each of `bases` (each
 * asked every POLL_MS on its own, all at once), in the order of `bases`.
 */
export async function timeUntilEach(
  bases: readonly string[],
  path: string,
  status: number,
  act: () => Promise<void>,
  publishLog: () => readonly string[],
): Promise<number[]> {
  const started = performance.now();
  await act();
  return Promise.all(
    bases.map(async (base) => {
      for (;;) {
        const answer = await fetch(`${base}${path}`);
        await answer.arrayBuffer();
        if (answer.status === status) return performance.now() - started;
        if (performance.now() - started > GIVE_UP_MS)
          throw new Error(
            `${base}${path} did not answer ${status} within ${GIVE_UP_MS / 1000} s; the servers said:\n${publishLog().join('\n')}`,
          );
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    }),
  );
}

/** Milliseconds from the start of `act()` until `path` on `base` answers `status`. */
export async function timeUntil(
  base: string,
  path: string,
  status: number,
  act: () => Promise<void>,
  publishLog: readonly string[],
): Promise<number> {
  const [ms] = await timeUntilEach([base], path, status, act, () => publishLog);
  return ms!;
}

/**
 * One publishing round on `base`: a member ad of `people.posterId` waiting for review in `place`
 * is approved by the moderator (ms until its URL answers 200), then deleted by its member (ms until
 * it answers 404). `reader`, when given, watches the ad's page, its city's and the landing page.
 */
export async function approveThenDelete(
  base: string,
  db: Kysely<Tables>,
  people: PosterAndModerator,
  place: { state: string; city: string },
  index: number,
  publishLog: readonly string[],
  reader?: { watch(paths: string[]): void },
): Promise<{ liveMs: number; goneMs: number }> {
  const id = await insertReviewAd(db, people.posterId, place.state, place.city, index);
  const ad = adPath(place.state, place.city, id);
  reader?.watch([ad, cityPath(place.state, place.city), '/']);
  const liveMs = await timeUntil(
    base,
    ad,
    200,
    () => act(base, people.moderator, `/api/moderate/ads/${id}/approve`, { revision: 1 }),
    publishLog,
  );
  const goneMs = await timeUntil(
    base,
    ad,
    404,
    () => act(base, people.poster, `/api/ads/${id}/delete`, {}),
    publishLog,
  );
  return { liveMs, goneMs };
}

// ---------------------------------------------------------------- the reader

export interface ReaderCounts {
  reads: number;
  truncated: number;
  unexpected: number;
  errors: number;
  examples: string[];
}

export const readerFailures = (counts: ReaderCounts) =>
  counts.truncated + counts.unexpected + counts.errors;

/**
 * Fetches the watched pages from `base` one after the other, for ever: every body must be a whole
 * page (it ends with `</html>`), every page must answer 200 but the first (the round's ad), which
 * may answer 200 or 404.
 */
export function startReader(base: string) {
  const counts: ReaderCounts = { reads: 0, truncated: 0, unexpected: 0, errors: 0, examples: [] };
  let watched: string[] = [];
  let stopped = false;
  const note = (example: string) => {
    if (counts.examples.length < 5) counts.examples.push(example);
  };
  const loop = (async () => {
    while (!stopped) {
      const paths = watched;
      if (paths.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        continue;
      }
      for (const [index, path] of paths.entries()) {
        try {
          const answer = await fetch(`${base}${path}`);
          const body = await answer.text();
          counts.reads += 1;
          const expected = index === 0 ? [200, 404] : [200];
          if (!expected.includes(answer.status)) {
            counts.unexpected += 1;
            note(`${path} answered ${answer.status}`);
          }
          if (!body.trimEnd().endsWith('</html>')) {
            counts.truncated += 1;
            note(`${path}: a body of ${body.length} characters not ending with </html>`);
          }
        } catch (error) {
          counts.errors += 1;
          note(`${path}: ${(error as Error).message}`);
        }
      }
    }
  })();
  return {
    counts,
    watch(paths: string[]) {
      watched = paths;
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/** The reader's counts, as the figures say them. */
export function readerLine(counts: ReaderCounts): string {
  const { reads, truncated, unexpected, errors } = counts;
  return `**${reads.toLocaleString('en-US')} reads, ${truncated} truncated (not ending in \`</html>\`), ${unexpected} unexpected statuses, ${errors} failed requests.**`;
}

// ---------------------------------------------------------------- figures

export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? NaN;
}

/** Milliseconds as seconds with two decimals. */
export const seconds = (ms: number) => (ms / 1000).toFixed(2);

/** A load average (1 / 5 / 15 min). */
export const loadText = (values: readonly number[]) =>
  values.map((value) => value.toFixed(2)).join(' / ');

/** "Run on …" with the machine and the load before and after. */
export function runLine(loadBefore: readonly number[], loadAfter: readonly number[]): string {
  return `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${machine()}, **shared** with other work; load average (1 / 5 / 15 min) ${loadText(loadBefore)} before the rounds, ${loadText(loadAfter)} after.`;
}

function machine(): string {
  return `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'})`;
}
