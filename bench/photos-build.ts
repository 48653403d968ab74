// The build part of the photo benchmark (`npm run bench:photos -- --only build`; docs/benchmarks.md,
// ## Photos): what photos cost a full build, each pair of builds measured in the same run,
// alternating, so that the machine's load falls on both alike.
//
// - Editors' photos: the 100,000 generated CSV ads of `npm run bench` (about 117,000 pages; same
//   seed, one CSV a state) built from nothing (`node scripts/build.mjs --full`, as bench/build.ts
//   runs and measures it) (a) as they are, without photos, and (b) with 30 % of the ads carrying
//   three photos in their `images` column (`/ads/{id}-1.webp|…`; the build reads no image file:
//   it only writes the paths into the pages, which is checked on one ad's page).
// - Members' photos: the same CSV ads (without photos) and N live member ads (default 10,000) in a
//   SQLite database (`--database`), (c) without photos and (d) with 30 % of them carrying three
//   photos: photo rows inserted with the store (`store.photos.insert`, three WebP-sized variants of
//   distinct random bytes, 16 / 53 / 160 KB as a phone photo's sizes weigh, put in the database's
//   photo storage with `store.photoBlobs.put`), attached to their ads, listed in the ads' `photos`.
//   The build writes every size of every photo into {site}/photos/ (pipeline/compile/
//   published-photos.ts) during its content step: the files written are counted, with the seconds
//   from the first file's mtime to the last one's (reading the ads' ranges goes on meanwhile), and
//   the content step's time with photos less without.
// Each build starts from nothing (its output and cache folders removed), on tmpfs when there is one.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { adPath } from '../core/paths.ts';
import { benchAdStream, readWeightedCities, type WeightedCity } from './ads.ts';
import { insertBenchAccount, openBenchStore } from './bench-store.ts';
import { CONTENT_STEPS, runBuild, summarizeLog, type BuildRun } from './build.ts';
import { writeContentSet } from './content.ts';
import type { GeneratedAd } from './generate-ads.ts';
import { DEFAULT_SEED } from './options.ts';
import { loadText } from './publish-rounds.ts';
import { createWorkspace } from './workspace.ts';

const root = join(import.meta.dirname, '..');
/** Share of the ads with photos, and how many each. */
const PHOTO_SHARE = 0.3;
const PHOTOS_AN_AD = 3;
/** The WebP sizes of one photo: widths as the server makes them, bytes as a phone photo's weigh. */
const VARIANTS = [
  { width: 320, height: 240, bytes: 16 * 1024 },
  { width: 640, height: 480, bytes: 53 * 1024 },
  { width: 1280, height: 960, bytes: 160 * 1024 },
] as const;
/** Targets of issue 20: a build with photos within 10 % of one without (time and memory). */
export const BUILD_TARGET_RATIO = 1.1;

export interface PhotoBuildOptions {
  /** Generated CSV ads. */
  ads: number;
  /** Live member ads in the database. */
  memberAds: number;
  /** Pairs of builds of each kind. */
  rounds: number;
}

/** Whether this ad (of the generated ones, or of the member ads) carries photos: 30 %, by id. */
const hasPhotos = (index: number) => index % 10 < PHOTO_SHARE * 10;

/** The generated ads, 30 % of them with three image paths in `images`. */
function* withImages(ads: Iterable<GeneratedAd>): Iterable<GeneratedAd> {
  for (const ad of ads) {
    if (!hasPhotos(ad.id)) yield ad;
    else {
      const images = Array.from({ length: PHOTOS_AN_AD }, (_, n) => `/ads/${ad.id}-${n + 1}.webp`);
      yield { ...ad, images: images.join('|') };
    }
  }
}

interface Measured {
  label: string;
  round: number;
  run: BuildRun;
  /** CPU seconds (user + system) of the build and all its processes. */
  cpuSeconds: number;
  pages: number;
  /** Photo files in {site}/photos and their bytes (members' photos only). */
  photoFiles: number;
  photoBytes: number;
  /** From the first photo file's mtime to the last one's. */
  photoSpanSeconds: number;
}

interface BuildKind {
  label: string;
  contentDir: string;
  /** The member ads' database (absent file: none). */
  database: string;
  /** A check on the built site: throws when the photos are not in it as they should be. */
  check(siteDir: string): void;
}

export async function benchPhotoBuilds(options: PhotoBuildOptions): Promise<string> {
  const workspace = createWorkspace();
  const buildDate = new Date().toISOString().slice(0, 10);
  const loadBefore = loadavg();
  try {
    const cities = readWeightedCities(join(root, 'content'));
    const stream = () =>
      benchAdStream({
        contentDir: join(root, 'content'),
        cities,
        seed: DEFAULT_SEED,
        count: options.ads,
        buildDate,
      });
    console.log(`Writing ${options.ads} generated ads, without and with photos...`);
    const plainDir = join(workspace.dir, 'content-plain');
    const imagesDir = join(workspace.dir, 'content-images');
    writeContentSet(join(root, 'content'), plainDir, stream(), options.ads, 'per-state');
    writeContentSet(
      join(root, 'content'),
      imagesDir,
      withImages(stream()),
      options.ads,
      'per-state',
    );
    // The first generated ad with photos, to look for its image paths in its page.
    const sample = [...firstAds(stream(), 10)].find((ad) => hasPhotos(ad.id))!;

    console.log(`Writing ${options.memberAds} member ads, without and with photos...`);
    const noDatabase = join(workspace.dir, 'no-database.sqlite');
    const plainDb = join(workspace.dir, 'members-plain.sqlite');
    const photosDb = join(workspace.dir, 'members-photos.sqlite');
    const seeding = performance.now();
    await writeMemberAds(plainDb, options.memberAds, cities, buildDate, false);
    const memberSample = await writeMemberAds(photosDb, options.memberAds, cities, buildDate, true);
    console.log(`  in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

    const kinds: BuildKind[] = [
      { label: 'a', contentDir: plainDir, database: noDatabase, check: () => {} },
      {
        label: 'b',
        contentDir: imagesDir,
        database: noDatabase,
        check: (siteDir) => {
          const page = readPage(siteDir, adPath(sample.state, sample.city, sample.id));
          if (!page.includes(`/ads/${sample.id}-3.webp`))
            throw new Error(`the page of ad ${sample.id} does not show its CSV images`);
        },
      },
      { label: 'c', contentDir: plainDir, database: plainDb, check: () => {} },
      {
        label: 'd',
        contentDir: plainDir,
        database: photosDb,
        check: (siteDir) => {
          const page = readPage(siteDir, memberSample.path);
          if (!page.includes(`/photos/${memberSample.key.slice(0, 2)}/${memberSample.key}.webp`))
            throw new Error(`the page of member ad ${memberSample.path} does not show its photo`);
        },
      },
    ];
    const results: Measured[] = [];
    for (let round = 1; round <= options.rounds; round += 1)
      for (const kind of kinds)
        results.push(await buildKind(kind, round, workspace.dir, buildDate));
    return figures(options, results, loadBefore, workspace.onTmpfs);
  } finally {
    workspace.remove();
  }
}

function* firstAds(ads: Iterable<GeneratedAd>, count: number): Iterable<GeneratedAd> {
  let n = 0;
  for (const ad of ads) {
    if (n++ >= count) return;
    yield ad;
  }
}

/** A page of the site by its path (…/index.html or ….html). */
function readPage(siteDir: string, path: string): string {
  const decoded = decodeURIComponent(path);
  for (const file of [join(siteDir, decoded, 'index.html'), join(siteDir, `${decoded}.html`)])
    if (existsSync(file)) return readFileSync(file, 'utf8');
  throw new Error(`no page for ${path} in ${siteDir}`);
}

/**
 * `count` live member ads in a new SQLite database at `path`, in the biggest cities; with
 * `photos`, 30 % of them carry three photos. Answers one ad with photos: its path and a key.
 */
async function writeMemberAds(
  path: string,
  count: number,
  cities: readonly WeightedCity[],
  buildDate: string,
  photos: boolean,
): Promise<{ path: string; key: string }> {
  const { store, db, close } = await openBenchStore({ path });
  try {
    const now = new Date().toISOString();
    const byWeight = [...cities].sort((a, b) => b.weight - a.weight).slice(0, 2_000);
    const accounts: number[] = [];
    // A hundred ads a member (the limits on ads are the routes', not the database's).
    for (let index = 0; index < Math.ceil(count / 100); index += 1)
      accounts.push(await insertBenchAccount(store, `bench-photo-build-${index}@example.com`));
    const expires = new Date(Date.parse(`${buildDate}T00:00:00Z`) + 30 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const ids: number[] = [];
    const BATCH = 500;
    for (let from = 0; from < count; from += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, count - from) }, (_, offset) => {
        const index = from + offset;
        const city = byWeight[index % byWeight.length]!;
        return {
          account_id: accounts[Math.floor(index / 100)]!,
          state: city.state,
          city: city.city,
          age: 25 + (index % 30),
          seeks: 'm4w',
          title: `Member ad ${index + 1}: coffee and a walk by the water`,
          description: 'A member ad of the photo benchmark. Coffee, a walk by the water, a chat.',
          status: 'live' as const,
          created_at: now,
          submitted_at: now,
          approved_at: now,
          posted_on: buildDate,
          expires_on: expires,
          updated_at: now,
        };
      });
      const inserted = await db.insertInto('member_ads').values(rows).returning('id').execute();
      ids.push(...inserted.map((row) => row.id));
    }
    let sample: { path: string; key: string } | undefined;
    if (photos) {
      for (const [index, adId] of ids.entries()) {
        if (!hasPhotos(index)) continue;
        const accountId = accounts[Math.floor(index / 100)]!;
        const refs: { id: number; alt: string }[] = [];
        let firstKey = '';
        for (let n = 0; n < PHOTOS_AN_AD; n += 1) {
          const variants = [];
          for (const variant of VARIANTS) {
            const bytes = randomBytes(variant.bytes);
            const key = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
            await store.photoBlobs.put(key, bytes, now);
            variants.push({
              width: variant.width,
              height: variant.height,
              key,
              size: bytes.length,
            });
          }
          firstKey ||= variants[0]!.key;
          const id = await store.photos.insert({
            accountId,
            width: 1280,
            height: 960,
            phash: randomBytes(8).toString('hex'),
            flag: null,
            variants,
            at: now,
          });
          refs.push({ id, alt: '' });
        }
        await store.photos.attach(
          refs.map((ref) => ref.id),
          adId,
          accountId,
        );
        await db
          .updateTable('member_ads')
          .set({ photos: JSON.stringify(refs) })
          .where('id', '=', adId)
          .execute();
        if (!sample) {
          const city = byWeight[index % byWeight.length]!;
          sample = { path: adPath(city.state, city.city, adId), key: firstKey };
        }
      }
    }
    return sample ?? { path: '', key: '' };
  } finally {
    await close();
  }
}

async function buildKind(
  kind: BuildKind,
  round: number,
  dir: string,
  buildDate: string,
): Promise<Measured> {
  const outDir = join(dir, `out-${kind.label}`);
  const cacheDir = join(dir, `cache-${kind.label}`);
  const rssFile = join(dir, `rss-${kind.label}-${round}.jsonl`);
  rmSync(outDir, { recursive: true, force: true });
  rmSync(cacheDir, { recursive: true, force: true });
  console.log(`\nBuild (${kind.label}), round ${round}, load average ${loadText(loadavg())}...`);
  // The build finds the database in DATABASE_PATH (no --database in bench/build.ts's arguments);
  // the photo storage is the database's (no PHOTOS_DIR).
  const saved = { ...process.env };
  process.env.DATABASE_PATH = kind.database;
  delete process.env.DATABASE_URL;
  delete process.env.PHOTOS_DIR;
  let run: BuildRun;
  const cpuBefore = childCpuSeconds();
  try {
    run = await runBuild({
      projectRoot: root,
      buildDate,
      contentDir: kind.contentDir,
      outDir,
      cacheDir,
      rssFile,
      full: true,
    });
  } finally {
    for (const name of ['DATABASE_PATH', 'DATABASE_URL', 'PHOTOS_DIR'])
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
  }
  const cpuSeconds = childCpuSeconds() - cpuBefore;
  const summary = summarizeLog(run.log);
  if (!summary.prerenderedPages) throw new Error('the build did not say how many pages it wrote');
  const warnings = run.log.filter((line) => /warning|left out/i.test(line));
  if (warnings.length > 0) throw new Error(`the build warned:\n${warnings.slice(0, 5).join('\n')}`);
  const siteDir = join(outDir, 'site');
  kind.check(siteDir);
  const { files, bytes, spanSeconds } = countFiles(join(siteDir, 'photos'));
  return {
    label: kind.label,
    round,
    run,
    cpuSeconds,
    pages: summary.prerenderedPages,
    photoFiles: files,
    photoBytes: bytes,
    photoSpanSeconds: spanSeconds,
  };
}

/** The files under `dir`, their bytes, and the seconds from the first written to the last. */
/**
 * CPU seconds (user + system) of this process's children that have ended, their own ended children
 * included (cutime + cstime of /proc/self/stat, in clock ticks of 1/100 s): a build's, once it is
 * over, whatever else the machine runs meanwhile (its wall time is not).
 */
function childCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces), from field 3 on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

function countFiles(dir: string): { files: number; bytes: number; spanSeconds: number } {
  if (!existsSync(dir)) return { files: 0, bytes: 0, spanSeconds: 0 };
  let files = 0;
  let bytes = 0;
  let first = Infinity;
  let last = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const stat = statSync(join(entry.parentPath, entry.name));
    files += 1;
    bytes += stat.size;
    first = Math.min(first, stat.mtimeMs);
    last = Math.max(last, stat.mtimeMs);
  }
  return { files, bytes, spanSeconds: (last - first) / 1000 };
}

const fixed = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mb = (bytes: number) => fixed(bytes / 1e6);
/** The most memory of one of the build's processes whose work grows with the content (content, pages). */
const contentRss = (run: BuildRun) =>
  Math.max(...CONTENT_STEPS.map((step) => run.peakRss.get(step) ?? 0));

function figures(
  options: PhotoBuildOptions,
  results: Measured[],
  loadBefore: number[],
  onTmpfs: boolean,
): string {
  const of = (label: string, round: number) =>
    results.find((each) => each.label === label && each.round === round)!;
  const row = (each: Measured) => {
    const { run } = each;
    const step = (name: string) => fixed(run.stepSeconds.get(name) ?? 0, 1);
    return `| (${each.label}) round ${each.round} | ${fixed(each.pages)} | ${fixed(run.wallSeconds, 1)} s | ${fixed(each.pages / run.wallSeconds)} | ${fixed(each.cpuSeconds, 1)} s | ${step('content')} / ${step('pages')} s | ${mb(run.peakRss.get('content') ?? 0)} / ${mb(run.peakRss.get('pages') ?? 0)} MB | ${mb(run.peakTreeRss)} MB | ${each.photoFiles ? `${fixed(each.photoFiles)} (${mb(each.photoBytes)} MB) in ${fixed(each.photoSpanSeconds, 1)} s` : '–'} |`;
  };
  const ratio = (value: number) => `${fixed(value, 3)}`;
  const met = (value: number) =>
    value <= BUILD_TARGET_RATIO ? 'met' : `**not met** (${fixed((value - 1) * 100, 1)} % over)`;
  const ratios: string[] = [];
  for (let round = 1; round <= options.rounds; round += 1) {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((label) => of(label, round)) as Measured[];
    const time = (x: Measured, y: Measured) => y.run.wallSeconds / x.run.wallSeconds;
    const memory = (x: Measured, y: Measured) => contentRss(y.run) / contentRss(x.run);
    const content = (x: Measured) => x.run.stepSeconds.get('content') ?? 0;
    const cpu = (x: Measured, y: Measured) => y.cpuSeconds / x.cpuSeconds;
    ratios.push(
      `| round ${round}: (b) / (a), editors' photos | ${ratio(time(a!, b!))}: ${met(time(a!, b!))} | ${ratio(cpu(a!, b!))}: ${met(cpu(a!, b!))} | ${ratio(memory(a!, b!))}: ${met(memory(a!, b!))} | ${ratio(b!.run.peakTreeRss / a!.run.peakTreeRss)} | |`,
      `| round ${round}: (d) / (c), members' photos | ${ratio(time(c!, d!))}: ${met(time(c!, d!))} | ${ratio(cpu(c!, d!))}: ${met(cpu(c!, d!))} | ${ratio(memory(c!, d!))}: ${met(memory(c!, d!))} | ${ratio(d!.run.peakTreeRss / c!.run.peakTreeRss)} | ${fixed(content(d!) - content(c!), 1)} s (content ${fixed(content(c!), 1)} → ${fixed(content(d!), 1)} s) |`,
    );
  }
  const photoAds = Math.ceil(options.memberAds * PHOTO_SHARE);
  return [
    `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${cpus().length} cores, **shared** with other work; load average (1 / 5 / 15 min) ${loadText(loadBefore)} before, ${loadText(loadavg())} after; ${onTmpfs ? 'on tmpfs (/dev/shm)' : 'on disk (no tmpfs)'}.`,
    `- Every build from nothing (\`node scripts/build.mjs --full\`, output and cache removed first), ${options.rounds} rounds of (a) (b) (c) (d) one after the other. (a) ${fixed(options.ads)} generated CSV ads without photos; (b) the same with 30 % of them carrying three paths in \`images\`; (c) (a)'s ads and ${fixed(options.memberAds)} live member ads in a SQLite database (\`DATABASE_PATH\`), none with photos; (d) the same with ${fixed(photoAds)} of them (30 %) carrying three photos, each of three sizes of 16 / 53 / 160 KB of distinct bytes in the database's photo storage.`,
    "- Time: wall time end to end (pages/s = pages / wall), and the CPU seconds (user + system) of the build's processes, which the other work on the machine disturbs far less than wall time. Memory: the peak of the content and of the pages step (each a process of its own, one after the other; the ratio compares the larger; Vite's step, about 275 MB, does not grow with the content), and the most of all the build's processes at once (sampled every 10 ms).",
    '',
    '| build | pages | wall | pages/s | CPU (user + sys) | content / pages step | peak RSS content / pages | all at once | photo files written (first to last) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(row),
    '',
    `| same round | wall time ratio (target ≤ ${BUILD_TARGET_RATIO}) | CPU time ratio | peak RSS of content / pages, ratio (target ≤ ${BUILD_TARGET_RATIO}) | all at once, ratio | writing photo files (content step with − without) |`,
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...ratios,
  ].join('\n');
}
