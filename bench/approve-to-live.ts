// Approve → live through haproxy on three instances with the site in a bucket (issue 52, item 5;
// docs/benchmarks.md, "Approve → live through haproxy"). All on 127.0.0.1, as the several-instance
// test (tests/e2e/bucket-instances.test.ts) sets them up: a throwaway PostgreSQL
// (scripts/postgres.mjs), the S3 server (Ceph's radosgw: scripts/s3-server.mjs), haproxy with
// server/operations/haproxy-config.ts's configuration (scripts/haproxy.mjs), and three instances,
// each from a folder of its own, started as README's `npm start` starts one with SITE_BUCKET,
// PHOTOS_BUCKET and DATABASE_URL set (bench/bucket-instances.ts). The site is the shipped content
// (16,647 pages; --content DIR for another), published to the bucket by whichever instance takes
// the publisher's lock; the others read its releases.
//
// A moderator signs up through haproxy (the role given as the operator's command gives it). Each
// round writes a member ad waiting for review (as the posting form stores it), the moderator
// approves it through haproxy's API, and the clock runs from the approval's answer until
// - the ad's URL answers 200 through haproxy (served from the bucket), and
// - /search through haproxy finds it (an instance's search index, brought up to date from the
//   release), and the same search on each instance directly (the last of the three),
// each asked every 25 ms. First one approval at a time (--ads N, 20 by default, after one round
// of warm-up), then bursts of 5 approvals sent at once (--bursts N, 4 by default), which the
// publisher takes in one or two builds. Prints p50, p95 and max of each, the machine and its load,
// and the publisher's own timings (build, upload, release) and the followers' (reading a release).
//   npm run bench:live -- [--ads N] [--bursts N] [--content DIR]
// Prints the figures; writes nothing into docs/.
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
// @ts-expect-error: a plain JavaScript module of the scripts, without types.
import { ensurePostgres, startThrowawayPostgres } from '../scripts/postgres.mjs';
import { ensureS3Server, startThrowawayS3Server } from '../scripts/s3-server.mjs';
import { ensureHaproxy, startHaproxy, type RunningHaproxy } from '../scripts/haproxy.mjs';
import { adPath, moderateAdApiPath, searchPath } from '../core/paths.ts';
import { makeModerator } from '../server/moderation/moderator-command.ts';
import { haproxyConfig } from '../server/operations/haproxy-config.ts';
import { insertBenchAccount, openBenchStore, type BenchStore } from './bench-store.ts';
import {
  createPublicBucket,
  running,
  s3Settings,
  startBucketInstance,
  stopBucketInstance,
  type BucketInstance,
} from './bucket-instances.ts';
import {
  insertReviewAd,
  loadText,
  percentile,
  runLine,
  seconds,
  signUp,
} from './publish-rounds.ts';
import { freePort } from './server-process.ts';
import { createWorkspace } from './workspace.ts';

const { values: options } = parseArgs({
  options: {
    ads: { type: 'string', default: '20' },
    bursts: { type: 'string', default: '4' },
    content: { type: 'string' },
  },
});
const ADS = Number(options.ads);
const BURSTS = Number(options.bursts);
const BURST_SIZE = 5;
const contentDir = options.content ?? join(import.meta.dirname, '..', 'content');
const POLL_MS = 25;
/** The longest one ad may take before the run gives up on it. */
const GIVE_UP_MS = 120_000;
/** How long the first publish (the whole site built and uploaded) may take. */
const FIRST_PUBLISH_MS = 15 * 60_000;
const BUCKET = 'localboard';
const SITE = { bucket: BUCKET, prefix: 'site/' };
const PHOTOS = { bucket: BUCKET, prefix: 'media/' };
const HOST = '127.0.0.1';

const workspace = createWorkspace();
const instances: BucketInstance[] = [];
let cluster: { url: string; stop(): void } | undefined;
let s3: Awaited<ReturnType<typeof startThrowawayS3Server>> | undefined;
let proxy: RunningHaproxy | undefined;
let bench: BenchStore | undefined;

let stopping: Promise<void> | undefined;
/** Stops everything the benchmark started, once, whichever way it ends. */
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    await Promise.all(instances.map((instance) => stopBucketInstance(instance)));
    await proxy?.stop().catch(() => {});
    await bench?.close().catch(() => {});
    cluster?.stop();
    await s3?.stop().catch(() => {});
    workspace.remove();
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  // Every time: a terminal's Ctrl-C reaches this process twice (from the terminal and from tsx).
  process.on(signal, () => {
    if (stopping) return;
    console.log(`\n${signal}: stopping the instances, haproxy, radosgw and PostgreSQL.`);
    void stopAll().finally(() => process.exit(130));
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const said = (instance: BucketInstance) => instance.output.join('');
/** What the instances said but their request lines: the end of each, for a failure's message. */
const lastWords = () =>
  instances
    .map((one) => {
      const lines = said(one)
        .split('\n')
        .filter((line) => !/^\S+Z (GET|POST|HEAD) /.test(line));
      return `--- ${one.name}\n${lines.slice(-30).join('\n')}`;
    })
    .join('\n');

/** Milliseconds until `check` passes, asked every POLL_MS; throws after `ms`. */
async function until(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    try {
      if (await check()) return performance.now() - started;
    } catch (error) {
      // Not answering yet; an instance that exited ends the wait.
      if (instances.some((one) => !running(one))) throw error;
    }
    if (performance.now() - started > ms)
      throw new Error(`${what}: not within ${ms / 1000} s\n${lastWords()}`);
    await sleep(POLL_MS);
  }
}

/** Whether GET `url` answers `status` (the body read, as a browser would). */
async function answers(url: string, status: number): Promise<boolean> {
  const answer = await fetch(url);
  await answer.arrayBuffer();
  return answer.status === status;
}

/** Whether a search on `base` for the ad's words, in its city, lists the ad. */
async function searchFinds(base: string, ad: PlacedAd): Promise<boolean> {
  const query = new URLSearchParams({ q: 'publishing benchmark', state: ad.state, city: ad.city });
  const answer = await fetch(`${base}${searchPath()}?${query}`);
  return answer.status === 200 && (await answer.text()).includes(`href="${ad.path}"`);
}

interface PlacedAd {
  id: number;
  state: string;
  city: string;
  path: string;
}

/** Every state's cities in the content's order, taken a row at a time across the states. */
function placesOf(dir: string): Array<{ state: string; city: string }> {
  const states = readdirSync(join(dir, 'cities'))
    .filter((name) => name.endsWith('.csv'))
    .sort()
    .map((name) => ({
      state: name.replace(/\.csv$/, ''),
      cities: (
        parse(readFileSync(join(dir, 'cities', name), 'utf8'), { columns: true }) as Array<{
          name: string;
        }>
      ).map((row) => row.name),
    }));
  const places: Array<{ state: string; city: string }> = [];
  for (let row = 0; places.length < 10_000; row += 1) {
    const before = places.length;
    for (const { state, cities } of states) {
      const city = cities[row];
      if (city) places.push({ state, city });
    }
    if (places.length === before) break;
  }
  return places;
}

interface Timed {
  /** From the request until the approval's answer. */
  answerMs: number;
  /** From the answer until the ad's URL answers 200 through haproxy. */
  pageMs: number;
  /** From the answer until /search through haproxy lists it. */
  searchMs: number;
  /** From the answer until /search on every instance (asked directly) lists it. */
  everySearchMs: number;
}

/** Approves `ad` as the moderator through haproxy; the clocks from its answer. */
async function approveAndTime(front: string, moderator: string, ad: PlacedAd): Promise<Timed> {
  const sent = performance.now();
  const approved = await fetch(`${front}${moderateAdApiPath(ad.id, 'approve')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: front, cookie: moderator },
    body: JSON.stringify({ revision: 1 }),
  });
  const answered = performance.now();
  if (approved.status !== 200)
    throw new Error(`Approving ad ${ad.id} answered ${approved.status}: ${await approved.text()}`);
  const live = (what: string, check: () => Promise<boolean>) =>
    until(GIVE_UP_MS, `ad ${ad.id} ${what}`, check).then(() => performance.now() - answered);
  const [pageMs, searchMs, ...each] = await Promise.all([
    live('served 200 through haproxy', () => answers(`${front}${ad.path}`, 200)),
    live('found by /search through haproxy', () => searchFinds(front, ad)),
    ...instances.map((one) =>
      live(`found by /search on ${one.name}`, () => searchFinds(one.url, ad)),
    ),
  ]);
  return { answerMs: answered - sent, pageMs, searchMs, everySearchMs: Math.max(...each) };
}

/** The numbers a kind of line of the instances' output says, from `from` (an output's length) on. */
function figuresSaid(pattern: RegExp, from: Map<BucketInstance, number>): number[] {
  return instances.flatMap((one) =>
    [
      ...said(one)
        .slice(from.get(one) ?? 0)
        .matchAll(pattern),
    ].map((match) => Number(match[1])),
  );
}

function table(title: string, rows: Timed[]): string {
  const line = (what: string, values: number[]) =>
    `| ${what} | ${seconds(percentile(values, 0.5))} | ${seconds(percentile(values, 0.95))} | ${seconds(Math.max(...values))} |`;
  return [
    `${title} (${rows.length} ads):`,
    '',
    "| from the approval's answer (200) until | p50 s | p95 s | max s |",
    '| --- | ---: | ---: | ---: |',
    line(
      "the ad's URL answers 200 through haproxy (the bucket)",
      rows.map((r) => r.pageMs),
    ),
    line(
      '/search through haproxy lists it',
      rows.map((r) => r.searchMs),
    ),
    line(
      '/search on every instance lists it',
      rows.map((r) => r.everySearchMs),
    ),
    line(
      '(the approval request itself, request → answer)',
      rows.map((r) => r.answerMs),
    ),
  ].join('\n');
}

const spread = (values: number[], unit: string) =>
  values.length === 0
    ? 'none'
    : `${values.length}, p50 ${percentile(values, 0.5)} ${unit}, max ${Math.max(...values)} ${unit}`;

try {
  const loadAtStart = loadavg();
  const postgres = ensurePostgres(console.log) as { binDir?: string; problem?: string };
  const s3Found = ensureS3Server(console.log);
  const haproxyFound = ensureHaproxy(console.log);
  const problems = [postgres.problem, s3Found.problem, haproxyFound.problem].filter(Boolean);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  console.log(`Working in ${workspace.dir}; the site's content: ${contentDir}.`);

  const frontPort = await freePort(HOST);
  const front = `http://${HOST}:${frontPort}`;
  const [startedPostgres, startedS3] = await Promise.all([
    startThrowawayPostgres(postgres.binDir) as Promise<{ url: string; stop(): void }>,
    startThrowawayS3Server(s3Found.binDir!),
  ]);
  cluster = startedPostgres;
  s3 = startedS3;
  await createPublicBucket(s3, BUCKET, SITE, PHOTOS);
  const ports = [await freePort(HOST), await freePort(HOST), await freePort(HOST)];
  proxy = await startHaproxy(
    haproxyFound.path!,
    haproxyConfig({
      listen: `${HOST}:${frontPort}`,
      instances: ports.map((port) => `${HOST}:${port}`),
      bucketServer: new URL(s3.endpoint).host,
      site: SITE,
      photos: PHOTOS,
    }),
    frontPort,
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: cluster.url,
    CONTENT_DIR: contentDir,
    SITE_BUCKET: `s3://${BUCKET}/${SITE.prefix}`,
    PHOTOS_BUCKET: `s3://${BUCKET}/${PHOTOS.prefix}`,
    ...s3Settings(s3),
    PUBLIC_BASE_URL: front,
    TRUST_PROXY: '1',
    DIGEST_SCHEDULE: 'off',
    PHOTO_PROCESSES: '1',
  };
  const started = performance.now();
  for (const [index, port] of ports.entries())
    instances.push(
      startBucketInstance(
        `instance-${index + 1}`,
        join(workspace.dir, `instance-${index + 1}`),
        port,
        env,
      ),
    );
  console.log(
    `PostgreSQL, radosgw and haproxy (${front}) started; three instances starting (npm start's two commands), one of which builds and uploads the whole site first.`,
  );
  for (const instance of instances)
    await until(FIRST_PUBLISH_MS, `${instance.name} ready`, async () => {
      if (!running(instance)) throw new Error(`${instance.name} exited:\n${lastWords()}`);
      return answers(`${instance.url}/readyz`, 200);
    });
  const readyS = (performance.now() - started) / 1000;
  const publisher = instances.find((one) => /Uploaded \d+ objects/.test(said(one)));
  const firstUpload = publisher && /Uploaded [^\n]*/.exec(said(publisher))?.[0];
  console.log(`All three ready in ${readyS.toFixed(1)} s. ${publisher?.name}: ${firstUpload}`);
  // haproxy sends traffic to an instance once its /readyz answers 200 (checked every second).
  await until(10_000, 'haproxy sending to the instances', async () =>
    (await Promise.all(instances.map(() => answers(`${front}/readyz`, 200)))).every(Boolean),
  );

  bench = await openBenchStore({ url: cluster.url });
  const posterId = await insertBenchAccount(bench.store, 'bench-poster@example.org');
  const moderator = await signUp(front, 'bench-moderator@example.org');
  if ((await makeModerator(bench.store, 'bench-moderator@example.org')).code !== 0)
    throw new Error('The moderator role was not given.');
  const places = placesOf(contentDir);
  let next = 0;
  const newAd = async (): Promise<PlacedAd> => {
    const { state, city } = places[next % places.length]!;
    const id = await insertReviewAd(bench!.db, posterId, state, city, next);
    next += 1;
    return { id, state, city, path: adPath(state, city, id) };
  };

  const warmUp = await approveAndTime(front, moderator, await newAd());
  console.log(`Warm-up: live through haproxy ${seconds(warmUp.pageMs)} s after the answer.`);
  const loadBefore = loadavg();
  const outputFrom = new Map(instances.map((one) => [one, said(one).length]));
  const singles: Timed[] = [];
  for (let round = 0; round < ADS; round += 1) {
    const ad = await newAd();
    singles.push(await approveAndTime(front, moderator, ad));
    const last = singles.at(-1)!;
    console.log(
      `  ${round + 1}/${ADS} ${ad.city}, ${ad.state}: page ${seconds(last.pageMs)} s, search ${seconds(last.searchMs)} s, every instance's search ${seconds(last.everySearchMs)} s`,
    );
  }
  const bursts: Timed[] = [];
  for (let burst = 0; burst < BURSTS; burst += 1) {
    const ads = [];
    for (let index = 0; index < BURST_SIZE; index += 1) ads.push(await newAd());
    const timed = await Promise.all(ads.map((ad) => approveAndTime(front, moderator, ad)));
    bursts.push(...timed);
    console.log(
      `  burst ${burst + 1}/${BURSTS}: pages ${timed.map((t) => seconds(t.pageMs)).join(', ')} s`,
    );
  }
  const loadAfter = loadavg();

  const builds = figuresSaid(/Published the site for \S+ in ([\d.]+) s/g, outputFrom);
  const uploads = figuresSaid(/Uploaded \d+ objects [^\n]* in ([\d.]+) s \(/g, outputFrom);
  const releases = figuresSaid(/Released version \d+ [^\n]* in (\d+) ms/g, outputFrom);
  const reads = figuresSaid(/Reading release \d+ [^\n]* in (\d+) ms/g, outputFrom);
  const readMegabytes = figuresSaid(/Reading release \d+ [^\n]*\(([\d.]+) MB\)/g, outputFrom);
  console.log(
    [
      '',
      `## Approve → live through haproxy (\`npm run bench:live\`)`,
      '',
      runLine(loadBefore, loadAfter),
      `- Load average at the benchmark's start (before PostgreSQL, radosgw, haproxy and the instances): ${loadText(loadAtStart)}.`,
      `- Three instances from folders of their own, ready ${readyS.toFixed(0)} s after their start (the publisher's first build and upload of ${contentDir}: ${firstUpload ?? 'not seen'})`,
      '',
      table('One approval at a time', singles),
      '',
      table(`Bursts of ${BURST_SIZE} approvals sent at once, ${BURSTS} bursts`, bursts),
      '',
      `What the instances said meanwhile: builds (\`Published the site … in N s\`) ${spread(builds, 's')}; uploads ${spread(uploads, 's')}; releases put ${spread(releases, 'ms')}; releases read by the other instances ${spread(reads, 'ms')} (${spread(readMegabytes, 'MB')} fetched each).`,
    ].join('\n'),
  );
} finally {
  await stopAll();
}
