// The publishing benchmark (`npm run bench:publish`, scripts/bench-publish.ts): builds the
// 100,000-ad generated set (about 117,000 pages, as `npm run bench` does) on tmpfs, starts the
// real server on it (the build's own server/index.ts, {out}/server/serve.mjs, on a free port of
// 127.0.0.1, publishing into that site), then N times: a member's ad waits for review; a moderator
// approves it through the moderation route (POST /api/moderate/ads/{id}/approve), timing until the
// ad's URL answers 200; its member deletes it through the posting route (POST
// /api/ads/{id}/delete), timing until it answers 404. Meanwhile a reader fetches the affected
// pages (the ad's page, its city's page, the landing page) in a loop and counts truncated bodies
// and unexpected statuses.
// Prints the figures and writes them to docs/benchmarks.md (## Publishing).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Kysely } from 'kysely';
import { makeModerator } from '../server/moderator-command.ts';
import type { Tables } from '../server/store/tables.ts';
import { adPath, cityPath } from '../src/paths.ts';
import { openBenchStore } from './bench-store.ts';
import { benchAdStream, readWeightedCities } from './ads.ts';
import { writeContentSet } from './content.ts';
import { DEFAULT_SEED } from './options.ts';
import { createWorkspace } from './workspace.ts';
import { writeDocSection } from './docs.ts';
import { parseServerBenchOptions } from './server-bench-options.ts';
import { freePort, stopServer } from './server-process.ts';

const root = join(import.meta.dirname, '..');
const HOST = '127.0.0.1';
const START = '<!-- bench-publish:start -->';
const END = '<!-- bench-publish:end -->';
const HEADING = '## Publishing';
/** How often the timer asks for the ad's URL while it waits. */
const POLL_MS = 20;
/** The longest a publish may take before the run gives up. */
const GIVE_UP_MS = 60_000;

export interface PublishBenchOptions {
  ads: number;
  rounds: number;
  write: boolean;
  keep: boolean;
}

export function parsePublishBenchOptions(argv: readonly string[]): PublishBenchOptions {
  const { count: rounds, ...options } = parseServerBenchOptions(argv, {
    script: 'bench:publish',
    countFlag: '--rounds',
    ads: 100_000,
    count: 20,
  });
  return { ...options, rounds };
}

interface ReaderCounts {
  reads: number;
  truncated: number;
  unexpected: number;
  errors: number;
  examples: string[];
}

interface Round {
  city: string;
  liveMs: number;
  goneMs: number;
}

export async function benchPublish(argv: readonly string[]): Promise<void> {
  const options = parsePublishBenchOptions(argv);
  const started = performance.now();
  const workspace = createWorkspace();
  const contentDir = join(workspace.dir, 'content');
  const outDir = join(workspace.dir, 'out');
  const cacheDir = join(workspace.dir, 'cache');
  const dataDir = join(workspace.dir, 'data');
  const databasePath = join(dataDir, 'localboard.sqlite');
  // Today (UTC): a moderator's approval makes an ad live from today, as it does in production.
  const buildDate = new Date().toISOString().slice(0, 10);
  let server: ChildProcess | undefined;
  try {
    console.log(`Working in ${workspace.dir}${workspace.onTmpfs ? ' (tmpfs)' : ''}.`);
    const cities = readWeightedCities(join(root, 'content'));
    const ads = benchAdStream({
      contentDir: join(root, 'content'),
      cities,
      seed: DEFAULT_SEED,
      count: options.ads,
      buildDate,
    });
    writeContentSet(join(root, 'content'), contentDir, ads, options.ads, 'per-state');
    mkdirSync(dataDir, { recursive: true });
    const { store, db, close } = await openBenchStore({ path: databasePath });

    console.log(`Building ${options.ads.toLocaleString('en-US')} ads for ${buildDate}...`);
    const buildStarted = performance.now();
    const build = spawnSync(
      process.execPath,
      [
        'scripts/build.mjs',
        ...['--date', buildDate, '--content', contentDir, '--out', outDir],
        ...['--cache', cacheDir, '--database', databasePath],
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' },
    );
    if (build.status !== 0) throw new Error(`The build failed:\n${build.stdout}`);
    const pages = /Prerendered (\d+) pages/.exec(build.stdout)?.[1] ?? '?';
    const buildSeconds = (performance.now() - buildStarted) / 1000;
    console.log(`  ${pages} pages in ${buildSeconds.toFixed(0)} s.`);

    const port = await freePort(HOST);
    const publishLog: string[] = [];
    server = startServer({ port, outDir, cacheDir, contentDir, databasePath, buildDate, dataDir });
    collectPublishLines(server, publishLog);
    await waitForServer(port, server);
    const base = `http://${HOST}:${port}`;
    // A member (verified, as the emailed link does) and a moderator (as the operator's command).
    const poster = await signUp(base, 'bench-poster@example.org');
    await db
      .updateTable('accounts')
      .set({ email_verified_at: new Date().toISOString() })
      .where('email', '=', 'bench-poster@example.org')
      .execute();
    const moderator = await signUp(base, 'bench-moderator@example.org');
    const made = await makeModerator(store, 'bench-moderator@example.org');
    if (made.code !== 0) throw new Error('The moderator role was not given.');
    const { id: accountId } = await db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'bench-poster@example.org')
      .executeTakeFirstOrThrow();

    // Cities of every size: every (n / rounds)-th city of the list, most populous first.
    const byWeight = [...cities].sort((a, b) => b.weight - a.weight);
    const chosen = Array.from(
      { length: options.rounds + 1 },
      (_, index) => byWeight[Math.floor((index * byWeight.length) / (options.rounds + 1))]!,
    );
    const loadBefore = loadavg();
    const reader = startReader(base);
    const rounds: Round[] = [];
    try {
      for (const [index, place] of chosen.entries()) {
        const id = await insertReviewAd(db, accountId, place.state, place.city, index);
        const ad = adPath(place.state, place.city, id);
        reader.watch([ad, cityPath(place.state, place.city), '/']);
        const liveMs = await timeUntil(
          base,
          ad,
          200,
          () => act(base, moderator, `/api/moderate/ads/${id}/approve`, { revision: 1 }),
          publishLog,
        );
        const goneMs = await timeUntil(
          base,
          ad,
          404,
          () => act(base, poster, `/api/ads/${id}/delete`, {}),
          publishLog,
        );
        // The first round warms the server and the disk cache up: not counted.
        const label = index === 0 ? 'warm-up' : `${index}/${options.rounds}`;
        console.log(
          `  ${label} ${place.city}, ${place.state}: live in ${liveMs.toFixed(0)} ms, gone in ${goneMs.toFixed(0)} ms`,
        );
        if (index > 0) rounds.push({ city: `${place.city}, ${place.state}`, liveMs, goneMs });
      }
    } finally {
      await reader.stop();
    }
    const loadAfter = loadavg();
    await close();
    const figures = report({
      options,
      pages,
      buildSeconds,
      rounds,
      counts: reader.counts,
      publishLog,
      loadBefore,
      loadAfter,
      onTmpfs: workspace.onTmpfs,
    });
    console.log(`\n${figures}\n`);
    const failed = reader.counts.truncated + reader.counts.unexpected + reader.counts.errors;
    if (options.write) {
      writeDoc(figures);
      console.log('Wrote the figures to docs/benchmarks.md (## Publishing).');
    }
    if (failed > 0) {
      console.error(`The reader saw ${failed} failures: ${reader.counts.examples.join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    if (server) await stopServer(server, 10_000);
    if (options.keep) console.log(`Kept ${workspace.dir} (--keep).`);
    else workspace.remove();
    console.log(`Benchmark took ${((performance.now() - started) / 1000).toFixed(0)} s.`);
  }
}

// ---------------------------------------------------------------- the database

/** Signs up through the API; the session cookie. */
async function signUp(base: string, email: string): Promise<string> {
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

/** A member's or moderator's action through its route, as the pages' forms post it. */
async function act(base: string, cookie: string, path: string, body: object): Promise<void> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base, Cookie: cookie },
    body: JSON.stringify(body),
  });
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
}

/** A member ad waiting for review, as the posting form stores it. */
async function insertReviewAd(
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

// ---------------------------------------------------------------- the server

function startServer(settings: {
  port: number;
  outDir: string;
  cacheDir: string;
  contentDir: string;
  databasePath: string;
  buildDate: string;
  dataDir: string;
}): ChildProcess {
  return spawn(
    process.execPath,
    ['--enable-source-maps', join(settings.outDir, 'server', 'serve.mjs')],
    {
      cwd: root,
      env: {
        ...process.env,
        HOST,
        PORT: String(settings.port),
        SITE_DIR: join(settings.outDir, 'site'),
        DATABASE_PATH: settings.databasePath,
        COMPILED_CONTENT_DIR: settings.cacheDir,
        CONTENT_DIR: settings.contentDir,
        BUILD_DATE: settings.buildDate,
        MAIL_OUTBOX_DIR: join(settings.dataDir, 'outbox'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/** The server's lines about publishing (the request log is left aside). */
function collectPublishLines(server: ChildProcess, lines: string[]): void {
  for (const stream of [server.stdout!, server.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      if (/^(Published|Publishing|Warning)/.test(line)) lines.push(line);
      if (/^(Publishing|Warning)/.test(line) || stream === server.stderr)
        console.log(`    | ${line}`);
    });
  }
}

async function waitForServer(port: number, server: ChildProcess): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`The server exited (code ${server.exitCode}).`);
    try {
      if ((await fetch(`http://${HOST}:${port}/`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) throw new Error('The server did not answer within 60 s.');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Milliseconds from `act()` until `path` answers `status`. */
async function timeUntil(
  base: string,
  path: string,
  status: number,
  act: () => Promise<void>,
  publishLog: readonly string[],
) {
  const started = performance.now();
  await act();
  for (;;) {
    const answer = await fetch(`${base}${path}`);
    await answer.arrayBuffer();
    if (answer.status === status) return performance.now() - started;
    if (performance.now() - started > GIVE_UP_MS)
      throw new Error(
        `${path} did not answer ${status} within ${GIVE_UP_MS / 1000} s; the server said:\n${publishLog.join('\n')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Fetches the watched pages one after the other, for ever: every body must be a whole page (it
 * ends with `</html>`), the landing and city pages must answer 200, the ad's page 200 or 404.
 */
function startReader(base: string) {
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

// ---------------------------------------------------------------- figures

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? NaN;
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

function report(run: {
  options: PublishBenchOptions;
  pages: string;
  buildSeconds: number;
  rounds: readonly Round[];
  counts: ReaderCounts;
  publishLog: readonly string[];
  loadBefore: number[];
  loadAfter: number[];
  onTmpfs: boolean;
}): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const live = run.rounds.map((round) => round.liveMs);
  const gone = run.rounds.map((round) => round.goneMs);
  const builds = run.publishLog
    .map((line) => /^Published .* in ([\d.]+) s/.exec(line)?.[1])
    .filter((value): value is string => value !== undefined)
    .map(Number);
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  const verdict = (values: number[]) => (percentile(values, 0.95) < 3000 ? 'met' : '**missed**');
  const { reads, truncated, unexpected, errors } = run.counts;
  return [
    `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${availableParallelism()} cores (${cpu}), **shared** with other work; load average (1 / 5 / 15 min) ${load(run.loadBefore)} before the rounds, ${load(run.loadAfter)} after.`,
    `- The site: ${run.options.ads.toLocaleString('en-US')} generated ads, ${run.pages} pages, built in ${run.buildSeconds.toFixed(0)} s ${run.onTmpfs ? 'on tmpfs' : 'on disk'}; the real server (\`{out}/server/serve.mjs\`) serves it on 127.0.0.1 and publishes into it.`,
    `- Each round: a member ad waiting for review in a city of another size (the largest first, down to small towns) is approved by a moderator through \`POST /api/moderate/ads/{id}/approve\`; the clock runs until the ad's URL answers 200. Then its member deletes it through \`POST /api/ads/{id}/delete\`, until it answers 404. ${run.rounds.length} rounds after one of warm-up; the URL is asked every ${POLL_MS} ms.`,
    '',
    '| from the request to | p50 s | p95 s | max s | target p95 < 3 s |',
    '| --- | ---: | ---: | ---: | --- |',
    `| the ad's page answers 200 (approved) | ${seconds(percentile(live, 0.5))} | ${seconds(percentile(live, 0.95))} | ${seconds(Math.max(...live))} | ${verdict(live)} |`,
    `| the ad's page answers 404 (deleted) | ${seconds(percentile(gone, 0.5))} | ${seconds(percentile(gone, 0.95))} | ${seconds(Math.max(...gone))} | ${verdict(gone)} |`,
    '',
    `The builds the server ran (its log, \`Published the site … in N s\`): ${builds.length}, p50 ${percentile(builds, 0.5).toFixed(1)} s, max ${Math.max(...builds).toFixed(1)} s.`,
    '',
    `Meanwhile a reader fetched the ad's page, its city's page and the landing page in a loop: **${reads.toLocaleString('en-US')} reads, ${truncated} truncated (not ending in \`</html>\`), ${unexpected} unexpected statuses, ${errors} failed requests.**`,
  ].join('\n');
}

function writeDoc(figures: string) {
  writeDocSection(
    join(root, 'docs', 'benchmarks.md'),
    { start: START, end: END, heading: HEADING },
    figures,
  );
}
