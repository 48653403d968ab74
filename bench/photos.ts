// The photo benchmark (`npm run bench:photos`, scripts/bench-photos.ts; docs/benchmarks.md,
// ## Photos). Two parts, each bounded in time and in photos; nothing is sent anywhere but 127.0.0.1.
//
// - processing: one 12-megapixel phone-like JPEG (bench/photos-image.ts: 4000×3000, quality 90,
//   texture of several sizes, so its 1280 WebP weighs what a phone photo's does) processed into
//   every size N times (default 20), one after the other, through a pool of ONE worker process
//   (createPhotoPool({ processes: 1 }), as the server runs it: a forked process at nice 10): the time of each from asking the pool to its answer (decoding,
//   rotating, sRGB, the WebP sizes, the perceptual hash, the bytes back over IPC), median and
//   p95; and the worker's memory: its resident size once idle after a small warm-up photo, and its
//   peak (VmHWM of /proc/{pid}/status) after the N photos. The worker is this process's child
//   (found in /proc), so nothing of the pool is changed for the benchmark.
// - uploads: 8 clients posting the posting form (multipart, one 12-MP photo each time) for 30 s
//   to the real server (the build's dist/server/serve.mjs, built if needed, as bench:server starts
//   it: a child process on a free port of 127.0.0.1, a new SQLite file, production settings),
//   while one reader fetches a city page back to back: photos kept a second, and the page's p99.
//   Each client is a verified member with a photo of its own; after each ad it posted, the ad is
//   checked (one photo, three sizes stored: only those count as kept) and its ads are deleted with
//   SQL so that the limits on ads (3 at once, 1 a city a day) do not stop it. An answer other than
//   a success is counted by status. Before the load, one post as a form without JavaScript sends
//   it must answer 303 and keep its photo.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledPhotoWorker, createPhotoPool } from '../server/photos/processing-pool.ts';
import { openSqliteEngine } from '../store/sqlite-engine.ts';
import { storeOn } from '../store/store.ts';
import { freePort, stopServer } from './server-process.ts';
import { smallJpeg } from '../tests/helpers/photo-fixtures.ts';
import { benchPhotoBuilds } from './photos-build.ts';
import { benchPhotoScore } from './photos-score.ts';
import { benchPhotoDuplicates } from './photo-duplicates.ts';
import { childProcessIds, cpuMs } from './tree-rss.ts';
import { photoLikeJpeg } from './photos-image.ts';
import { writeDocSection } from './docs.ts';
import { loadText, percentile } from './publish-rounds.ts';

const root = join(import.meta.dirname, '..');
const HOST = '127.0.0.1';
/** A city page of the real content, as the reader fetches it. */
const PAGE = '/city/California/Los%20Angeles';
const DOC = join(root, 'docs', 'benchmarks.md');
const HEADING = '## Photos';
const PROCESSING_MARKERS = {
  start: '<!-- bench-photos-processing:start -->',
  end: '<!-- bench-photos-processing:end -->',
  heading: HEADING,
};
const UPLOAD_MARKERS = {
  start: '<!-- bench-photos-uploads:start -->',
  end: '<!-- bench-photos-uploads:end -->',
};
const SCORE_MARKERS = {
  start: '<!-- bench-photos-score:start -->',
  end: '<!-- bench-photos-score:end -->',
};
const BUILD_MARKERS = {
  start: '<!-- bench-photos-build:start -->',
  end: '<!-- bench-photos-build:end -->',
};
/** The targets of issue 20. */
export const TARGETS = { medianMs: 600, peakAboveIdleMb: 150, pageP99Ms: 50 };

export interface PhotoBenchOptions {
  /** Photos processed in the processing part. */
  photos: number;
  /** Seconds of uploading in the uploads part. */
  seconds: number;
  clients: number;
  /** The build part: generated CSV ads, live member ads, rounds of the four builds. */
  ads: number;
  memberAds: number;
  rounds: number;
  only?: 'processing' | 'score' | 'uploads' | 'build' | 'duplicates';
  write: boolean;
}

const USAGE =
  'usage: npm run bench:photos -- [--only processing|score|uploads|build|duplicates] [--photos N] [--seconds S] [--clients N] [--ads N] [--member-ads N] [--rounds N] [--no-write]';

export function parsePhotoBenchOptions(argv: readonly string[]): PhotoBenchOptions {
  const options: PhotoBenchOptions = {
    photos: 20,
    seconds: 30,
    clients: 8,
    ads: 100_000,
    memberAds: 10_000,
    rounds: 2,
    write: true,
  };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    const number = () => {
      const value = Number(argv[++index]);
      if (!Number.isInteger(value) || value < 1)
        throw new Error(`${flag} needs a whole number\n${USAGE}`);
      return value;
    };
    if (flag === '--photos') options.photos = number();
    else if (flag === '--seconds') options.seconds = number();
    else if (flag === '--clients') options.clients = number();
    else if (flag === '--ads') options.ads = number();
    else if (flag === '--member-ads') options.memberAds = number();
    else if (flag === '--rounds') options.rounds = number();
    else if (flag === '--only') {
      const part = argv[++index];
      if (!['processing', 'score', 'uploads', 'build', 'duplicates'].includes(part ?? ''))
        throw new Error(`--only processing, score, uploads, build or duplicates\n${USAGE}`);
      options.only = part as PhotoBenchOptions['only'];
    } else if (flag === '--no-write') options.write = false;
    else throw new Error(`unknown option ${flag}\n${USAGE}`);
  }
  return options;
}

export async function benchPhotos(argv: readonly string[]): Promise<void> {
  const options = parsePhotoBenchOptions(argv);
  const work = mkdtempSync(join(tmpdir(), 'localboard-bench-photos-'));
  try {
    const photo =
      options.only === 'build' || options.only === 'score' || options.only === 'duplicates'
        ? Buffer.alloc(0)
        : await photoLikeJpeg(1);
    const photoFile = join(work, 'twelve-megapixels.jpg');
    writeFileSync(photoFile, photo);
    if (!options.only || options.only === 'processing') {
      const figures = await benchProcessing(options, photoFile, work);
      console.log(`\n${figures}\n`);
      if (options.write) writeDocSection(DOC, PROCESSING_MARKERS, figures);
    }
    if (!options.only || options.only === 'score') {
      // The worker as the server runs it: the build's bundled photo-worker.mjs (not under tsx).
      buildIfNeeded();
      const worker = bundledPhotoWorker(join(root, 'dist', 'server', 'photo-worker.mjs'));
      const figures = await benchPhotoScore({ ...options, worker }, work);
      console.log(`\n${figures}\n`);
      if (options.write) writeDocSection(DOC, SCORE_MARKERS, figures);
    }
    if (!options.only || options.only === 'uploads') {
      const figures = await benchUploads(options, photo, work);
      console.log(`\n${figures}\n`);
      if (options.write && figures.includes('photos kept a second'))
        writeDocSection(DOC, UPLOAD_MARKERS, figures);
    }
    if (!options.only || options.only === 'build') {
      const figures = await benchPhotoBuilds(options);
      console.log(`\n${figures}\n`);
      if (options.write) writeDocSection(DOC, BUILD_MARKERS, figures);
    }
    // The duplicate look-up against 3,000,000 stored hashes (bench/photo-duplicates.ts, issue 31).
    if (!options.only || options.only === 'duplicates') {
      const figures = await benchPhotoDuplicates({
        photos: 3_000_000,
        lookups: 1000,
        write: options.write,
        sharedBuffers: '1GB',
      });
      console.log(`\n${figures}\n`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The build (dist/), made when the sources changed since it was: the server and its worker. */
function buildIfNeeded(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-needed'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('The build failed.');
}

// ---------------------------------------------------------------- processing

/** The kB of a `/proc/{pid}/status` line (VmRSS, VmHWM). */
function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((each) => each.startsWith(`${field}:`));
  if (!line) throw new Error(`no ${field} for process ${pid}`);
  return Number(/(\d+)/.exec(line)![1]);
}

/** This process's child processes (the pool's workers are its only ones). */
const childPids = () => childProcessIds(process.pid);

const mb = (kb: number) => kb / 1024;
const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

async function benchProcessing(
  options: PhotoBenchOptions,
  photoFile: string,
  work: string,
): Promise<string> {
  const warmFile = join(work, 'warm-up.jpg');
  writeFileSync(warmFile, await smallJpeg(1));
  const pool = createPhotoPool({ processes: 1, maxWaitMs: 3_600_000, timeoutMs: 120_000 });
  const loadBefore = loadavg();
  const before = new Set(childPids());
  try {
    const warm = await pool.process(warmFile);
    if (!warm.ok) throw new Error(`the warm-up photo was refused: ${warm.problem}`);
    const workers = childPids().filter((pid) => !before.has(pid));
    if (workers.length !== 1) throw new Error(`expected one worker, found ${workers.length}`);
    const worker = workers[0]!;
    // Idle: the worker has loaded sharp and libvips and processed one small photo.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const idleKb = statusKb(worker, 'VmRSS');
    const durations: number[] = [];
    const cpuBefore = cpuMs(worker);
    let variants = '';
    for (let index = 0; index < options.photos; index += 1) {
      const started = performance.now();
      const outcome = await pool.process(photoFile);
      durations.push(performance.now() - started);
      if (!outcome.ok) throw new Error(`the 12-MP photo was refused: ${outcome.problem}`);
      variants = outcome.photo.variants
        .map(
          (variant) =>
            `${variant.width}×${variant.height} ${fixed(variant.bytes.length / 1024)} KB`,
        )
        .join(', ');
      process.stdout.write(`\rprocessing: ${index + 1}/${options.photos}`);
    }
    process.stdout.write('\n');
    if (!childPids().includes(worker)) throw new Error('the worker was replaced during the run');
    const peakKb = statusKb(worker, 'VmHWM');
    const cpuEach = (cpuMs(worker) - cpuBefore) / options.photos;
    const median = percentile(durations, 0.5);
    const p95 = percentile(durations, 0.95);
    const aboveIdle = mb(peakKb - idleKb);
    const met = (ok: boolean) => (ok ? 'met' : '**not met**');
    const inputBytes = readFileSync(photoFile).length;
    return [
      `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), **shared** with other work; load average (1 / 5 / 15 min) ${loadText(loadBefore)} before, ${loadText(loadavg())} after.`,
      `- The photo: a 4000×3000 photo-like JPEG (bench/photos-image.ts, quality 90, ${fixed(inputBytes / 1024 / 1024, 1)} MB), processed ${options.photos} times one after the other by one worker process (nice 10) of \`createPhotoPool({ processes: 1 })\`, after one small warm-up photo. Its sizes: ${variants}.`,
      '',
      '| | measured | target |',
      '| --- | ---: | --- |',
      `| time a photo, median | ${fixed(median)} ms | < ${TARGETS.medianMs} ms: ${met(median < TARGETS.medianMs)} |`,
      `| time a photo, p95 | ${fixed(p95)} ms | |`,
      `| the worker's CPU time a photo (user + system) | ${fixed(cpuEach)} ms | |`,
      `| time a photo, min / max | ${fixed(Math.min(...durations))} / ${fixed(Math.max(...durations))} ms | |`,
      `| the worker's resident memory, idle | ${fixed(mb(idleKb))} MB | |`,
      `| its peak (VmHWM) | ${fixed(mb(peakKb))} MB | |`,
      `| peak above idle | ${fixed(aboveIdle)} MB | < ${TARGETS.peakAboveIdleMb} MB: ${met(aboveIdle < TARGETS.peakAboveIdleMb)} |`,
    ].join('\n');
  } finally {
    await pool.close();
  }
}

// ---------------------------------------------------------------- uploads

interface UploadTotals {
  /** Ads posted (201) that carried their photo, its three sizes stored. */
  kept: number;
  statuses: Record<string, number>;
  uploadMs: number[];
  pageMs: number[];
  pageFailures: number;
  elapsedMs: number;
  endpoint: string;
}

async function benchUploads(
  options: PhotoBenchOptions,
  photo: Buffer,
  work: string,
): Promise<string> {
  // A photo of its own for each client (the first is the processing part's); each client posts
  // its own again and again.
  const photos = [photo];
  for (let index = 1; index < options.clients; index += 1)
    photos.push(await photoLikeJpeg(index + 1));
  buildIfNeeded();
  const databasePath = join(work, 'bench.sqlite');
  const server = await startServer(work, databasePath);
  // The same file, opened here too: members verified and their ads cleared as the bench goes.
  const engine = openSqliteEngine(databasePath);
  const store = storeOn(engine);
  const base = `http://${HOST}:${server.port}`;
  const loadBefore = loadavg();
  try {
    const members = [];
    for (let index = 0; index < options.clients; index += 1) {
      // Signed up through the API (its session cookie), then verified as the emailed link does.
      const email = `bench-photos-${index}@example.com`;
      const signup = await fetch(`${base}/api/signup`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': `198.51.100.${index + 1}`,
        },
        body: JSON.stringify({
          email,
          password: 'bench photos password',
          dateOfBirth: '1990-01-01',
        }),
      });
      const cookie = signup.headers
        .getSetCookie()
        .map((each) => each.split(';')[0])
        .join('; ');
      if (signup.status !== 201 || !cookie) throw new Error(`sign-up answered ${signup.status}`);
      const id = (await store.accounts.findByEmail(email))!.id;
      await store.accounts.markVerified(id, new Date().toISOString());
      members.push({ id, cookie });
    }
    // The ads a client posted: how many carry one photo with its three sizes stored, then gone
    // (their photo rows go with them, ON DELETE CASCADE).
    const clearAds = async (accountId: number) => {
      const ads = await engine.db
        .selectFrom('member_ads')
        .select(['id', 'photos'])
        .where('account_id', '=', accountId)
        .execute();
      let withPhoto = 0;
      for (const ad of ads) {
        const refs = JSON.parse(ad.photos) as { id: number }[];
        if (refs.length !== 1) continue;
        const variants = await engine.db
          .selectFrom('photo_variants')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('photo_id', '=', refs[0]!.id)
          .executeTakeFirstOrThrow();
        if (Number(variants.count) === 3) withPhoto += 1;
      }
      await engine.db.deleteFrom('member_ads').where('account_id', '=', accountId).execute();
      return withPhoto;
    };
    // One post as a browser without JavaScript sends it: 303 to the page that says it is in review.
    const plain = await fetch(`${base}/api/ads`, {
      method: 'POST',
      headers: { cookie: members[0]!.cookie },
      body: adForm(photos[0]!),
      redirect: 'manual',
    });
    await plain.arrayBuffer();
    if (plain.status !== 303 || (await clearAds(members[0]!.id)) !== 1)
      throw new Error(`a form post with a photo answered ${plain.status}, or kept no photo`);
    const totals = await uploadLoad(options, base, photos, members, clearAds);
    return uploadFigures(options, totals, loadBefore, photo.length / 1024 / 1024);
  } finally {
    await stopServer(server.child, 10_000);
    await store.close();
  }
}

/** The built server (dist/server/serve.mjs) on a free port of 127.0.0.1, once /readyz says 200. */
async function startServer(dataDir: string, databasePath: string) {
  const port = await freePort(HOST);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST,
    PORT: String(port),
    DATABASE_PATH: databasePath,
    TRUST_PROXY: '1',
    MAIL_OUTBOX_DIR: join(dataDir, 'outbox'),
  };
  for (const name of ['DATABASE_URL', 'PHOTOS_DIR', 'PHOTO_PROCESSES', 'PASSWORD_HASH_COST'])
    delete env[name];
  const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/serve.mjs'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = performance.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited (code ${child.exitCode}).`);
    try {
      if ((await fetch(`http://${HOST}:${port}/readyz`)).status === 200) break;
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

/** The posting form's fields, multipart, with one photo in `photos`. */
function adForm(photo: Buffer): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({
    state: 'California',
    city: 'Los Angeles',
    age: '34',
    seeks: 'w4m',
    title: 'Coffee and a long walk by the sea',
    description: 'I like early mornings, old films and a good bookshop. Say hello.',
  }))
    form.append(name, value);
  form.append('photos', new File([new Uint8Array(photo)], 'phone.jpg', { type: 'image/jpeg' }));
  return form;
}

async function uploadLoad(
  options: PhotoBenchOptions,
  base: string,
  photos: Buffer[],
  members: { id: number; cookie: string }[],
  clearAds: (accountId: number) => Promise<number>,
): Promise<UploadTotals> {
  const totals: UploadTotals = {
    kept: 0,
    statuses: {},
    uploadMs: [],
    pageMs: [],
    pageFailures: 0,
    elapsedMs: 0,
    endpoint: 'POST /api/ads',
  };
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const client = async (member: { id: number; cookie: string }, index: number) => {
    while (performance.now() < deadline) {
      const form = adForm(photos[index]!);
      const sent = performance.now();
      let response: Response;
      try {
        response = await fetch(`${base}/api/ads`, {
          method: 'POST',
          headers: { cookie: member.cookie, accept: 'application/json' },
          body: form,
        });
        await response.arrayBuffer();
      } catch {
        // The server closed the connection before answering (a body it would not read).
        totals.statuses.failed = (totals.statuses.failed ?? 0) + 1;
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      totals.uploadMs.push(performance.now() - sent);
      totals.statuses[response.status] = (totals.statuses[response.status] ?? 0) + 1;
      if (response.ok) {
        totals.kept += await clearAds(member.id);
      } else if (response.status === 503) {
        // The pool is full: wait as Retry-After says, as the form's script does.
        const wait = Number(response.headers.get('retry-after') ?? '1');
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      } else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const reader = async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      try {
        const response = await fetch(`${base}${PAGE}`, {
          headers: { 'accept-encoding': 'br, gzip' },
        });
        await response.arrayBuffer();
        totals.pageMs.push(performance.now() - sent);
        if (response.status !== 200) totals.pageFailures += 1;
      } catch {
        totals.pageFailures += 1;
      }
    }
  };
  await Promise.all([...members.map(client), reader()]);
  totals.elapsedMs = performance.now() - started;
  return totals;
}

function uploadFigures(
  options: PhotoBenchOptions,
  totals: UploadTotals,
  loadBefore: number[],
  photoMb: number,
): string {
  const statuses = Object.entries(totals.statuses)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
  if (totals.kept === 0)
    return `No photo was kept: ${totals.endpoint} answered ${statuses}. The posting form's photos (issue 20, helper A) are not on this branch yet.`;
  const p99 = percentile(totals.pageMs, 0.99);
  return [
    `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${cpus().length} cores, **shared**; load average ${loadText(loadBefore)} before, ${loadText(loadavg())} after.`,
    `- ${options.clients} clients posting the posting form (${totals.endpoint}, multipart, one 12-MP photo-like JPEG each, ${fixed(photoMb, 1)} MB, a photo per client) for ${options.seconds} s; the built server in a process of its own with its default photo workers, the clients in the benchmark's; one reader fetching a city page (\`${PAGE}\`) back to back.`,
    '',
    '| | measured | target |',
    '| --- | ---: | --- |',
    `| photos kept a second | ${fixed(totals.kept / (totals.elapsedMs / 1000), 2)} (${totals.kept} in ${fixed(totals.elapsedMs / 1000, 1)} s) | |`,
    `| a post with its photo, p50 / p95 | ${fixed(percentile(totals.uploadMs, 0.5))} / ${fixed(percentile(totals.uploadMs, 0.95))} ms | |`,
    `| the page meanwhile, p50 / p99 | ${fixed(percentile(totals.pageMs, 0.5), 1)} / ${fixed(p99, 1)} ms (${totals.pageMs.length} reads, ${totals.pageFailures} failed) | p99 < ${TARGETS.pageP99Ms} ms: ${p99 < TARGETS.pageP99Ms ? 'met' : '**not met**'} |`,
    '',
    `Answers to the posts: ${statuses}.`,
  ].join('\n');
}
